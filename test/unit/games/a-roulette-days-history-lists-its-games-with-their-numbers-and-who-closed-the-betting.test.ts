/**
 * The History page at a roulette table: the day's journal, written by the
 * real roulette session, grouped into games by the roulette plug-in.
 */
import { describe, expect, it } from 'vitest';
import type { GameSession } from '../../../firmware-host/games/game.ts';
import { gameOf } from '../../../firmware-host/games/registry.ts';
import {
  type HistoryGame,
  rouletteDayHistory,
} from '../../../firmware-host/games/roulette/history.ts';
import type { JournalRecord } from '../../../firmware-host/journal/record.ts';
import type { TableLogRecord } from '../../../firmware-host/table/log.ts';
import { readHistoryDay } from '../../../firmware-host/web/history.ts';
import { MemoryJournal } from '../../helpers/memory-journal.ts';

const DAY = '2026-11-24';
const MIDNIGHT = Date.parse(`${DAY}T00:00:00Z`);
const roulette = gameOf('tdc-roulette');

/** A journal as the table core writes it: each input, then the events its session gave. */
class WheelJournal extends MemoryJournal {
  session: GameSession = roulette.openSession('tdc-roulette', { autoRound: false });

  input(ts: number, data: TableLogRecord): void {
    const events = this.session.apply(data);
    this.write(ts, { kind: 'input', data, events: events.length });
    for (const event of events) this.write(ts, { kind: 'event', data: event });
  }

  /** An alarm journaled with no input: a device's own. */
  alarm(ts: number, kind: 'device_quarantined', message: string): void {
    this.write(ts, { kind: 'event', data: { type: 'alarm', kind, message } });
  }

  rulesetChange(ts: number, ruleset: string, src: string): void {
    this.session = roulette.openSession(ruleset, { autoRound: false });
    this.write(ts, { kind: 'meta', data: { type: 'ruleset', ruleset, src } });
  }

  private write(ts: number, entry: Omit<JournalRecord, 'seq' | 'ts' | 'prev'>): void {
    this.append({ ...entry, seq: this.lastSeq + 1, ts, prev: '0'.repeat(64) } as JournalRecord);
  }
}

const at = (time: string) => Date.parse(`${DAY}T${time}Z`);
const summary = (game: HistoryGame) => ({
  game: game.game,
  number: game.spin?.number,
  colour: game.spin?.colour,
  closedBy: game.closed?.by,
  voided: game.voided?.reason,
  alarms: game.alarms.map((alarm) => alarm.kind),
});

describe("a roulette day's history", () => {
  it('lists its games with their numbers, who closed the betting, alarms and voids, in journal order', async () => {
    const journal = new WheelJournal();
    // Game 1 closed before midnight, spun after it: the day shows it from its spin.
    journal.input(MIDNIGHT - 10_000, { t: 'no_more_bets', src: 'wheel' });
    journal.input(at('00:00:05'), {
      t: 'spin',
      number: 17,
      rotor: 'cw',
      ball: 'ccw',
      src: 'wheel',
    });
    // Game 2: closed from the console, the ball thrown with the rotor.
    journal.input(at('15:02:00'), { t: 'no_more_bets', src: 'web:alice' });
    journal.input(at('15:02:11'), {
      t: 'spin',
      number: 0,
      rotor: 'ccw',
      ball: 'ccw',
      src: 'wheel',
    });
    // Game 3: the wheel quarantined on its own, then the ball dropped: void, a new game declared.
    journal.alarm(at('15:03:00'), 'device_quarantined', 'wheel quarantined: refused frames');
    journal.input(at('15:04:00'), { t: 'no_spin', reason: 'ball dropped', src: 'wheel' });
    // Between games (game 4's betting open) the ruleset changes: the new session's game 1 opens
    // with no event.
    journal.rulesetChange(at('15:05:00'), 'bulgaria-roulette', 'web:bob');
    journal.input(at('15:06:00'), { t: 'no_more_bets', src: 'wheel' });
    journal.input(at('15:06:20'), { t: 'spin', number: 5, rotor: 'ccw', ball: 'cw', src: 'wheel' });

    // The page's route asks the table's plug-in: roulette's groups into games.
    expect(roulette.dayHistory).toBe(rouletteDayHistory);
    const day = await readHistoryDay(journal, DAY, rouletteDayHistory());
    expect(day.error).toBeUndefined();
    expect(day.games.map(summary)).toEqual([
      { game: 1, number: 17, colour: 'black', closedBy: undefined, voided: undefined, alarms: [] },
      {
        game: 2,
        number: 0,
        colour: 'green',
        closedBy: 'web:alice',
        voided: undefined,
        alarms: ['ball_with_rotor'],
      },
      {
        game: 3,
        number: undefined,
        colour: undefined,
        closedBy: undefined,
        voided: 'no spin: ball dropped',
        alarms: ['device_quarantined', 'no_spin'],
      },
      {
        game: 4,
        number: undefined,
        colour: undefined,
        closedBy: undefined,
        voided: undefined,
        alarms: [],
      },
      { game: 1, number: 5, colour: 'red', closedBy: 'wheel', voided: undefined, alarms: [] },
      // The game in play: betting open.
      {
        game: 2,
        number: undefined,
        colour: undefined,
        closedBy: undefined,
        voided: undefined,
        alarms: [],
      },
    ]);
    const [first, second, third, fourth, afterChange] = day.games;
    // The device's own alarm is no input's: it names nobody.
    expect(third!.events.map((event) => [event.type, event.by])).toEqual([
      ['game_start', 'wheel'],
      ['alarm', undefined],
      ['alarm', 'wheel'],
      ['game_voided', 'wheel'],
    ]);
    // Only the day's records: game 1's close was yesterday's.
    expect(first!.events.map((event) => event.type)).toEqual(['spin']);
    expect(first!.opened).toBeUndefined();
    expect(second).toMatchObject({
      opened: { ts: at('00:00:05'), by: 'wheel' },
      closed: { ts: at('15:02:00'), by: 'web:alice' },
      spin: { ts: at('15:02:11'), number: 0, rotor: 'ccw', ball: 'ccw', by: 'wheel' },
    });
    // Each event says who caused it, in journal order.
    expect(second!.events.map((event) => [event.type, event.by])).toEqual([
      ['game_start', 'wheel'],
      ['no_more_bets', 'web:alice'],
      ['spin', 'wheel'],
      ['alarm', 'wheel'],
    ]);
    expect(second!.events.map((event) => event.seq)).toEqual(
      [...second!.events.map((event) => event.seq as number)].sort((a, b) => a - b),
    );
    expect(fourth!.opened).toMatchObject({ ts: at('15:04:00'), by: 'wheel' });
    expect(afterChange!.opened).toBeUndefined();
    expect(day.requests).toEqual([
      expect.objectContaining({ what: 'no_more_bets', by: 'alice' }),
      expect.objectContaining({ what: 'ruleset bulgaria-roulette', by: 'bob' }),
    ]);
    expect(day.events).toEqual([]);

    // The day before holds game 1's close only; a day with nothing journaled has no games.
    const before = await readHistoryDay(journal, '2026-11-23', rouletteDayHistory());
    expect(before.games.map(summary)).toEqual([
      {
        game: 1,
        number: undefined,
        colour: undefined,
        closedBy: 'wheel',
        voided: undefined,
        alarms: [],
      },
    ]);
    expect((await readHistoryDay(journal, '2026-11-25', rouletteDayHistory())).games).toEqual([]);
  });

  it('keeps closing time outside any game when no game has an event yet, and counts it down in the games', async () => {
    const journal = new WheelJournal();
    journal.input(at('22:00:00'), { t: 'closing', src: 'web:alice' });
    journal.input(at('22:00:30'), { t: 'no_more_bets', src: 'wheel' });
    journal.input(at('22:01:00'), {
      t: 'spin',
      number: 32,
      rotor: 'cw',
      ball: 'ccw',
      src: 'wheel',
    });

    const day = await readHistoryDay(journal, DAY, rouletteDayHistory());
    expect(day.events.map((event) => [event.type, event.by])).toEqual([['closing', 'web:alice']]);
    expect(day.games.map((game) => [game.game, game.events.map((event) => event.type)])).toEqual([
      [1, ['no_more_bets', 'spin', 'games_left']],
      [2, ['game_start']],
    ]);
  });
});
