/** The roulette view's wheel watch: hot and cold numbers from the bias report, followed from the journal. */
import { describe, expect, it } from 'vitest';
import { analyzeWheel } from '../../../firmware-host/games/roulette/analysis/wheel-bias.ts';
import { colourOf } from '../../../firmware-host/games/roulette/engine/layout.ts';
import {
  HOT_COLD,
  LAST_SPINS,
  RECENT_GAMES,
  type WatchedSpin,
  WheelWatch,
  WINDOW,
  wheelWatchOf,
} from '../../../firmware-host/games/roulette/web/wheel-watch.ts';
import { getRouletteRuleset } from '../../../firmware-host/games/rulesets.ts';
import type { JournalRecord } from '../../../firmware-host/journal/record.ts';
import type { DomainEvent } from '../../../firmware-host/table/events.ts';
import { MemoryJournal } from '../../helpers/memory-journal.ts';

const ruleset = getRouletteRuleset('tdc-roulette');

const record = (seq: number, data: DomainEvent): JournalRecord => ({
  seq,
  ts: 1_700_000_000_000 + seq,
  prev: '0'.repeat(64),
  kind: 'event',
  data,
});

/** Game `game` spun: its spin event and the next game's start, two records from `seq`. */
function game(seq: number, gameNumber: number, number: number): JournalRecord[] {
  return [
    record(seq, {
      type: 'spin',
      game: gameNumber,
      number,
      colour: colourOf(ruleset, number),
      rotor: gameNumber % 2 === 0 ? 'cw' : 'ccw',
      ball: gameNumber % 2 === 0 ? 'ccw' : 'cw',
      revolutions: 7,
    }),
    record(seq + 1, { type: 'game_start', game: gameNumber + 1 }),
  ];
}

/** Games 1..numbers.length, each spinning its number. */
function games(numbers: readonly number[], firstSeq = 1): JournalRecord[] {
  return numbers.flatMap((number, i) => game(firstSeq + 2 * i, i + 1, number));
}

function watch(journal: MemoryJournal, table = () => ruleset as typeof ruleset | undefined) {
  let loaded!: () => void;
  const ready = new Promise<void>((resolve) => {
    loaded = resolve;
  });
  const wheel = new WheelWatch({
    ruleset: table,
    onLoaded: () => loaded(),
    onError: (error) => {
      throw error;
    },
  });
  wheel.attach(journal);
  return { wheel, ready };
}

const hottest = (wheel: WheelWatch) => (wheel.payload() as { hot: unknown[] }).hot[0];

describe('wheelWatchOf', () => {
  const numbers = [17, 5, 17, 8, 0, 17, 5, 8, 32];
  const spins: WatchedSpin[] = numbers.map((number, i) => ({
    seq: i + 1,
    game: i + 1,
    number,
    colour: colourOf(ruleset, number),
    rotor: 'cw',
    ball: 'ccw',
  }));
  const payload = wheelWatchOf(ruleset, spins) as {
    hot: Array<{ number: number; count: number; colour: string }>;
    cold: Array<{ number: number; count: number }>;
    tests: Array<{ test: string; numbers?: number[] }>;
    last: Array<{ number: number }>;
    spins: number;
  };

  it('ranks the hot numbers by their count in the bias report, the hottest being the hot_number test', () => {
    expect(payload.hot.slice(0, 3)).toEqual([
      { number: 17, count: 3, colour: 'black' },
      { number: 5, count: 2, colour: 'red' },
      { number: 8, count: 2, colour: 'black' },
    ]);
    expect(payload.hot).toHaveLength(HOT_COLD);
    const report = analyzeWheel(ruleset.wheel.order, spins);
    const hotTest = payload.tests.find((test) => test.test === 'hot_number');
    expect(hotTest?.numbers).toEqual([payload.hot[0]!.number]);
    expect(payload.tests.map((test) => test.test)).toEqual(report.tests.map((test) => test.test));
  });

  it('ranks the cold numbers from the least seen, the coldest being the cold_number test', () => {
    expect(payload.cold.map((entry) => entry.count)).toEqual([0, 0, 0, 0, 0]);
    expect(payload.cold.map((entry) => entry.number)).toEqual([1, 2, 3, 4, 6]);
    const coldTest = payload.tests.find((test) => test.test === 'cold_number');
    expect(coldTest?.numbers).toEqual([payload.cold[0]!.number]);
  });

  it('lists the last spins newest first, and no hot or cold number before the first spin', () => {
    expect(payload.last.map((spin) => spin.number)).toEqual([...numbers].reverse());
    expect(wheelWatchOf(ruleset, [])).toMatchObject({ spins: 0, hot: [], cold: [], last: [] });
  });
});

describe('WheelWatch', () => {
  it('reads the spins already journaled, then follows each durable batch', async () => {
    const journal = new MemoryJournal();
    journal.records.push(...games([3, 3, 26]));
    const { wheel, ready } = watch(journal);
    // A batch made durable while the backlog is read is followed once, after it.
    journal.duringRead = () => journal.append(...game(7, 4, 12));
    await ready;
    expect(wheel.payload()).toMatchObject({ spins: 4 });
    expect(hottest(wheel)).toEqual({ number: 3, count: 2, colour: 'red' });
    journal.append(...game(9, 5, 0));
    const payload = wheel.payload() as { spins: number; last: Array<Record<string, unknown>> };
    expect(payload.spins).toBe(5);
    expect(payload.last.map((spin) => spin.number)).toEqual([0, 12, 26, 3, 3]);
    expect(payload.last[0]).toEqual({
      seq: 9,
      game: 5,
      number: 0,
      colour: 'green',
      rotor: 'ccw',
      ball: 'cw',
      revolutions: 7,
    });
    wheel.stop();
  });

  it('leaves out a result with no rotor spin or no ball launch, as analyze wheel does', async () => {
    const journal = new MemoryJournal();
    journal.records.push(...games([9, 9]));
    journal.records.push(record(5, { type: 'spin', game: 3, number: 9, colour: 'red' }));
    const { wheel, ready } = watch(journal);
    await ready;
    expect(wheel.payload()).toMatchObject({ spins: 2 });
    expect(hottest(wheel)).toEqual({ number: 9, count: 2, colour: 'red' });
  });

  it('keeps the newest WINDOW spins and shows LAST_SPINS of them in full', async () => {
    const journal = new MemoryJournal();
    const numbers = Array.from({ length: WINDOW + 150 }, (_, i) => (i * 7) % 37);
    journal.records.push(...games(numbers));
    const { wheel, ready } = watch(journal);
    await ready;
    const payload = wheel.payload() as { spins: number; last: Array<{ game: number }> };
    expect(payload.spins).toBe(WINDOW);
    expect(payload.last).toHaveLength(LAST_SPINS);
    expect(payload.last[0]!.game).toBe(numbers.length);
  });

  it('starts a fresh page RECENT_GAMES games back, and shows nothing at a card table', async () => {
    const journal = new MemoryJournal();
    journal.records.push(...games(Array.from({ length: 15 }, (_, i) => i)));
    let table: typeof ruleset | undefined = ruleset;
    const { wheel, ready } = watch(journal, () => table);
    await ready;
    // game_start of game g+1 is at seq 2g: the last RECENT_GAMES of them start at 2 * (15 - RECENT_GAMES + 1).
    expect(wheel.replayFrom()).toBe(2 * (15 - RECENT_GAMES + 1) - 1);
    table = undefined;
    expect(wheel.payload()).toBeUndefined();
    expect(wheel.replayFrom()).toBeUndefined();
  });
});
