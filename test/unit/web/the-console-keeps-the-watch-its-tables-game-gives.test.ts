/**
 * The console keeps the watch its table's game gives (`webWatch`, issue 35
 * item 1): it asks the plug-in, so a game the console was never told of
 * (a fixture plugged in by the test's registry) brings its own, and a card
 * table keeps none.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { GameWatchJournal, GameWebWatch } from '../../../firmware-host/games/game.ts';
import {
  GAME_PLUGINS,
  GameRegistry,
  useGameRegistry,
} from '../../../firmware-host/games/registry.ts';
import type { ConsolePort } from '../../../firmware-host/web/port.ts';
import { TableWatch } from '../../../firmware-host/web/table-watch.ts';
import { highCard } from '../../fixtures/games/high-card/plugin.ts';
import { MemoryJournal } from '../../helpers/memory-journal.ts';
import { until } from '../../helpers/until.ts';

/** The part of the port a TableWatch reads: the ruleset, the journal, the events it follows. */
function portPlaying(ruleset: string, journal: MemoryJournal): ConsolePort {
  return {
    ruleset,
    journalFeed: journal,
    snapshot: () => ({}),
    roads: () => undefined,
    subscribe: () => () => undefined,
  } as unknown as ConsolePort;
}

/** A watch that counts the records it was attached to and shows their number. */
class CountingWatch implements GameWebWatch {
  seen = 0;
  stopped = false;
  attach(journal: GameWatchJournal): void {
    this.seen = journal.lastSeq;
    journal.onDurable((records) => {
      this.seen += records.length;
    });
  }
  payload() {
    return { counted: this.seen };
  }
  replayFrom() {
    return 7;
  }
  stop() {
    this.stopped = true;
  }
}

afterEach(() => useGameRegistry(new GameRegistry(GAME_PLUGINS)));

describe("the console's game watch", () => {
  it("is the one the table's plug-in gives, attached to the journal, its frame in the feed", () => {
    const given = new CountingWatch();
    useGameRegistry(new GameRegistry([...GAME_PLUGINS, { ...highCard, webWatch: () => given }]));
    const journal = new MemoryJournal();
    const watch = new TableWatch(portPlaying('fixture-high-card', journal), () => 0);
    const source = watch.source();
    journal.append({
      seq: 1,
      ts: 0,
      prev: '0'.repeat(64),
      kind: 'event',
      data: { type: 'game_start', game: 1 },
    });
    expect(watch.game).toBe(given);
    expect(source.wheel?.()).toEqual({ counted: 1 });
    expect(watch.game?.replayFrom()).toBe(7);
    watch.stop();
    expect(given.stopped).toBe(true);
  });

  it("is roulette's wheel watch at a roulette table, and none at a card table", async () => {
    const journal = new MemoryJournal();
    const roulette = new TableWatch(portPlaying('tdc-roulette', journal), () => 0);
    const frame = roulette.source();
    await until(() => frame.wheel?.() !== undefined, "the wheel watch's backlog read");
    expect(frame.wheel?.()).toMatchObject({ spins: 0, hot: [], last: [] });
    roulette.stop();

    const cards = new TableWatch(portPlaying('tdc-baccarat-no-commission', journal), () => 0);
    expect(cards.game).toBeUndefined();
    expect(cards.source().wheel?.()).toBeUndefined();
    cards.stop();
  });
});
