/**
 * A game's Scoreboard (issue 35): what the pit watches at its table, counted
 * from the game's own results in the journal (a UTC day's, as the History
 * page reads it). Each game folds its result events into a `Scoreboard`
 * (its shape is the plug-in contract's, game.ts); this file holds the parts
 * every game's fold shares. Pure: the times are the journal records' own.
 */
import type { DayGrouping, HistoryRecord, RecentResult, Scoreboard, Tally } from './game.ts';

/** How many of the latest results a Scoreboard lists. */
export const RECENT_RESULTS = 12;

/** Counts by label, kept in the order first given (`labels`) and then as met. */
export class Counts {
  private readonly counts = new Map<string, number>();

  constructor(labels: readonly string[] = []) {
    for (const label of labels) this.counts.set(label, 0);
  }

  add(label: string, by = 1): void {
    this.counts.set(label, (this.counts.get(label) ?? 0) + by);
  }

  total(): number {
    let sum = 0;
    for (const count of this.counts.values()) sum += count;
    return sum;
  }

  /** A tally of these counts; `of` defaults to their sum. */
  tally(title: string, of = this.total()): Tally {
    return { title, of, rows: [...this.counts].map(([label, count]) => ({ label, count })) };
  }
}

/**
 * Rounds per hour over the span from the first to the last result: n results
 * are n - 1 intervals. Null when there is no span to measure.
 */
export function perHour(first: number | undefined, last: number | undefined, results: number) {
  if (first === undefined || last === undefined || results < 2 || last <= first) return null;
  return Math.round(((results - 1) * 3_600_000) / (last - first));
}

/** What a game's fold does with one result event of its own (already screened: `shown`). */
export interface ResultFold {
  readonly unit: string;
  /** The event's result as this game counts it, or undefined for any other event. */
  take(event: Record<string, unknown>, seq: number): RecentResult | undefined;
  tallies(): Tally[];
}

/**
 * A day's grouping (`DayGrouping`, fed by the History page's reading) that
 * gives a Scoreboard: each event record goes to the game's fold; the times of
 * those it counts give the rate.
 */
export function scoreboardOf(fold: ResultFold): DayGrouping<{ board: Scoreboard }> {
  const recent: RecentResult[] = [];
  let first: number | undefined;
  let last: number | undefined;
  let rounds = 0;
  return {
    take(record: HistoryRecord) {
      if (record.kind !== 'event') return;
      const result = fold.take(record.shown ?? record.data, record.seq);
      if (!result) return;
      rounds++;
      first ??= record.ts;
      last = record.ts;
      recent.unshift(result);
      recent.length = Math.min(recent.length, RECENT_RESULTS);
    },
    follow() {
      // A Scoreboard counts the day's results only.
    },
    units: () => ({
      board: {
        unit: fold.unit,
        rounds,
        perHour: perHour(first, last, rounds),
        tallies: fold.tallies(),
        recent: [...recent],
      },
    }),
  };
}
