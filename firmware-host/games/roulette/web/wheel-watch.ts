/**
 * The roulette view's wheel watch: the last spins in full (rotor, ball,
 * revolutions), the hot and cold numbers, and the wheel-bias watch's
 * verdicts over the table's last WINDOW spins. The verdicts are
 * `analyzeWheel` (games/roulette/analysis/wheel-bias.ts) with its default options, the
 * same tests and false-alarm rate as `tableside analyze wheel --last
 * 2000`; the hot and cold numbers are ranked from that report's counts, so
 * the hottest is the `hot_number` test's number.
 *
 * Made from the journal's `spin` events only, which MQTT consumers get on
 * `events/spin`: it shows nothing they could not work out. A spin with no
 * rotor spin or no ball launch is left out, as `analyze wheel` leaves it
 * out (a ball dropped unspun is no evidence about the wheel, 003 § 11(5)).
 */

import type { DomainEvent } from '../../../table/events.ts';
import type {
  GameWatchJournal,
  GameWatchRecord,
  GameWebWatch,
  GameWebWatchOptions,
} from '../../game.ts';
import { getRouletteRuleset, type RouletteRuleset, rouletteRulesetNames } from '../../rulesets.ts';
import { analyzeWheel, type Direction, type WheelSpin } from '../analysis/wheel-bias.ts';
import { colourOf } from '../engine/layout.ts';

/** Spins the watch keeps: the recent window WHEEL-BIAS.md advises (`--last 2000`). */
export const WINDOW = 2000;
/** Hot and cold numbers shown, as on a casino's number display. */
export const HOT_COLD = 5;
/** Spins shown in full, newest first. */
export const LAST_SPINS = 12;
/** Games a page opened fresh is sent the events of (their alarms, voids and spins). */
export const RECENT_GAMES = 10;
const BACKLOG_PAGE = 2048;

export interface WatchedSpin extends WheelSpin {
  readonly seq: number;
  readonly game: number;
  readonly colour: string;
  readonly rotor: Direction;
  readonly ball: Direction;
}

/** What the console's `wheel` frame carries. Pure. */
export function wheelWatchOf(
  ruleset: RouletteRuleset,
  spins: readonly WatchedSpin[],
): Record<string, unknown> {
  const report = analyzeWheel(ruleset.wheel.order, spins);
  const ranked = report.counts.map((count, number) => ({
    number,
    count,
    colour: colourOf(ruleset, number),
  }));
  // Ties go to the lower number, as the hot_number and cold_number tests break them.
  const hot = [...ranked]
    .filter((entry) => entry.count > 0)
    .sort((a, b) => b.count - a.count || a.number - b.number);
  const cold = [...ranked].sort((a, b) => a.count - b.count || a.number - b.number);
  return {
    window: WINDOW,
    spins: report.spins,
    hot: hot.slice(0, HOT_COLD),
    cold: report.spins === 0 ? [] : cold.slice(0, HOT_COLD),
    alarms: report.alarms,
    tests: report.tests.map((test) => ({
      test: test.test,
      ran: test.ran,
      alarm: test.alarm,
      pValue: test.pValue,
      falseAlarm: test.falseAlarm,
      detail: test.detail,
      ...(test.numbers ? { numbers: test.numbers } : {}),
    })),
    last: spins
      .slice(-LAST_SPINS)
      .reverse()
      .map(({ seq, game, number, colour, rotor, ball, revolutions }) => ({
        seq,
        game,
        number,
        colour,
        rotor,
        ball,
        ...(revolutions === undefined ? {} : { revolutions }),
      })),
  };
}

/** A counted spin from a journal record, or undefined. */
function spinOf(record: GameWatchRecord): WatchedSpin | undefined {
  if (record.kind !== 'event') return undefined;
  const event = record.data as DomainEvent;
  if (event.type !== 'spin' || !event.rotor || !event.ball) return undefined;
  return {
    seq: record.seq,
    game: event.game,
    number: event.number,
    colour: event.colour,
    rotor: event.rotor,
    ball: event.ball,
    ...(event.revolutions === undefined ? {} : { revolutions: event.revolutions }),
  };
}

export interface WheelWatchOptions {
  /** The table's roulette ruleset now; undefined at a card table (then there is no watch to show). */
  ruleset: () => RouletteRuleset | undefined;
  /** Called when the backlog has been read: the pages' wheel frames follow. */
  onLoaded: () => void;
  onError: (error: Error) => void;
}

/**
 * Follows the journal: the newest WINDOW spins read back from the files
 * once, then each durable batch. Keeps the seqs of the last games' starts,
 * where a freshly opened page's feed begins.
 */
export class WheelWatch implements GameWebWatch {
  private spins: WatchedSpin[] = [];
  private gameStarts: number[] = [];
  private attached = false;
  private loaded = false;
  private readonly queued: GameWatchRecord[] = [];
  private cached: { ruleset: RouletteRuleset; payload: Record<string, unknown> } | undefined;
  private unsubscribe: (() => void) | undefined;
  private readonly options: WheelWatchOptions;

  constructor(options: WheelWatchOptions) {
    this.options = options;
  }

  /** Starts following the journal (once; later calls do nothing). */
  attach(journal: GameWatchJournal): void {
    if (this.attached) return;
    this.attached = true;
    const through = journal.lastSeq;
    // Subscribed before the backlog is read: nothing made durable in between is missed.
    this.unsubscribe = journal.onDurable((records) => {
      if (this.loaded) this.follow(records);
      else this.queued.push(...records);
    });
    this.readBack(journal, through).then(
      (backlog) => {
        this.follow(backlog);
        this.loaded = true;
        this.follow(this.queued.splice(0).filter((record) => record.seq > through));
        this.options.onLoaded();
      },
      (error: unknown) => {
        // The watch then starts from the live spins: the table and its feed are unaffected.
        this.loaded = true;
        this.follow(this.queued.splice(0).filter((record) => record.seq > through));
        this.options.onError(error as Error);
      },
    );
  }

  /** The newest records through `through`, read backwards page by page until WINDOW spins are found. */
  private async readBack(journal: GameWatchJournal, through: number): Promise<GameWatchRecord[]> {
    const pages: (readonly GameWatchRecord[])[] = [];
    let spins = 0;
    let games = 0;
    for (let end = through; end >= 1 && (spins < WINDOW || games < RECENT_GAMES); ) {
      const from = Math.max(1, end - BACKLOG_PAGE + 1);
      const page = await journal.readRange(from, end - from + 1);
      pages.unshift(page);
      for (const record of page) {
        if (spinOf(record)) spins++;
        if (record.kind === 'event' && (record.data as DomainEvent).type === 'game_start') games++;
      }
      end = from - 1;
    }
    return pages.flat();
  }

  private follow(records: readonly GameWatchRecord[]): void {
    let changed = false;
    for (const record of records) {
      const spin = spinOf(record);
      if (spin) {
        this.spins.push(spin);
        changed = true;
      } else if (record.kind === 'event' && (record.data as DomainEvent).type === 'game_start') {
        this.gameStarts.push(record.seq);
      }
    }
    if (this.spins.length > WINDOW) this.spins.splice(0, this.spins.length - WINDOW);
    if (this.gameStarts.length > RECENT_GAMES) {
      this.gameStarts.splice(0, this.gameStarts.length - RECENT_GAMES);
    }
    if (changed) this.cached = undefined;
  }

  /** The `wheel` frame; undefined at a card table or before the backlog is read. */
  payload(): Record<string, unknown> | undefined {
    const ruleset = this.options.ruleset();
    if (!ruleset || !this.loaded) return undefined;
    if (this.cached?.ruleset !== ruleset) {
      this.cached = { ruleset, payload: wheelWatchOf(ruleset, this.spins) };
    }
    return this.cached.payload;
  }

  /** The seq before the start of the last RECENT_GAMES games, where a fresh page's feed begins. */
  replayFrom(): number | undefined {
    if (!this.options.ruleset()) return undefined;
    const first = this.gameStarts[0];
    return first === undefined ? undefined : first - 1;
  }

  stop(): void {
    this.unsubscribe?.();
  }
}

/**
 * The watch roulette's plug-in gives the web console (`webWatch`): the
 * table's ruleset followed by name, no watch to show while it names no
 * roulette ruleset.
 */
export function rouletteWebWatch(options: GameWebWatchOptions): WheelWatch {
  return new WheelWatch({
    ruleset: () => {
      const name = options.ruleset();
      return rouletteRulesetNames().includes(name) ? getRouletteRuleset(name) : undefined;
    },
    onLoaded: options.onLoaded,
    onError: options.onError,
  });
}
