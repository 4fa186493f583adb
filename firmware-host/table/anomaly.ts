/**
 * The shuffle anomaly detector: flags a shoe whose dealt sequence shows a
 * run of consecutive ranks, a streak of one suit, or a stretch repeating an
 * earlier shoe, each far beyond what a fair shuffle produces. A fair
 * shuffle is a uniformly random permutation of the shoe's multiset, so
 * every window of L positions has the same law as the first L cards
 * (exchangeability): the chance of a pattern at any one window is exact,
 * and a union bound over the windows bounds the chance of a false alarm per
 * shoe. Thresholds are the smallest lengths whose bound is at most the
 * configured false-alarm rate; they can be fixed instead. The derivation and
 * the rates for the shipped shoes are in docs/operator/shuffle-anomalies.md.
 *
 * Pure: the state is a value, `observe` returns a new one.
 */
import { z } from 'zod';
import { RANKS, rankIndex, type StandardCard, suitOf } from '../../device-protocol/cards.ts';

export const anomalyOptionsSchema = z.strictObject({
  enabled: z.boolean().default(true),
  /** Largest accepted false-alarm probability per shoe, per test. */
  falseAlarm: z.number().positive().max(0.5).default(1e-6),
  /** Fixed thresholds (cards in the pattern) instead of the derived ones. */
  rankRun: z.number().int().min(3).max(13).optional(),
  suitStreak: z.number().int().min(3).max(416).optional(),
  repeatWindow: z.number().int().min(3).max(52).optional(),
  /** Earlier shoes remembered for the repeat test. */
  history: z.number().int().min(0).max(64).default(8),
});
export type AnomalyOptions = z.infer<typeof anomalyOptionsSchema>;
export type AnomalyOptionsInput = z.input<typeof anomalyOptionsSchema>;

export type AnomalyTest = 'rank_run' | 'suit_streak' | 'repeat';

export interface AnomalyThresholds {
  /** Copies of each card code in the shoe (decks × back colours). */
  readonly copies: number;
  readonly rankRun: number;
  readonly suitStreak: number;
  readonly repeatWindow: number;
  /** Upper bounds of the false-alarm probability per shoe at these thresholds. */
  readonly bounds: Readonly<Record<AnomalyTest, number>>;
}

/** ln of the falling factorial n (n-1) ... (n-k+1). */
function logFalling(n: number, k: number): number {
  let sum = 0;
  for (let i = 0; i < k; i += 1) sum += Math.log(n - i);
  return sum;
}

/**
 * Bound on P(some window of `length` cards is a run of consecutive ranks,
 * all ascending or all descending, no wrap K-A) in a shoe of `copies` of each
 * card. One window: 2 directions × (14 - L) first ranks × (4c)^L / (N)_L,
 * the L ranks being distinct; times N - L + 1 windows.
 */
export function rankRunBound(copies: number, length: number): number {
  if (length > RANKS.length) return 0;
  const cards = 52 * copies;
  const windows = cards - length + 1;
  const perWindow = Math.exp(
    Math.log(2 * (14 - length)) + length * Math.log(4 * copies) - logFalling(cards, length),
  );
  return Math.min(1, windows * perWindow);
}

/** Bound on P(some window of `length` cards is all one suit): 4 suits × (13c)_L / (N)_L per window. */
export function suitStreakBound(copies: number, length: number): number {
  const cards = 52 * copies;
  if (length > 13 * copies) return 0;
  const windows = cards - length + 1;
  const perWindow = Math.exp(
    Math.log(4) + logFalling(13 * copies, length) - logFalling(cards, length),
  );
  return Math.min(1, windows * perWindow);
}

/**
 * Bound on P(some window of `length` cards equals some window of one of
 * `shoes` earlier shoes). A given sequence of L codes comes up at a given
 * window with probability at most c^L / (N)_L (each code has at most c
 * copies left); the earlier shoe is independent of this shuffle; union over
 * (N - L + 1)² window pairs and the shoes.
 */
export function repeatBound(copies: number, length: number, shoes: number): number {
  const cards = 52 * copies;
  const windows = cards - length + 1;
  const perPair = Math.exp(length * Math.log(copies) - logFalling(cards, length));
  return Math.min(1, shoes * windows * windows * perPair);
}

function smallest(bound: (length: number) => number, from: number, to: number, target: number) {
  for (let length = from; length <= to; length += 1) if (bound(length) <= target) return length;
  return to;
}

/** The thresholds for a shoe holding `copies` of each card, and their false-alarm bounds. */
export function anomalyThresholds(copies: number, options: AnomalyOptions): AnomalyThresholds {
  const target = options.falseAlarm;
  const rankRun = options.rankRun ?? smallest((l) => rankRunBound(copies, l), 3, 13, target);
  const suitStreak =
    options.suitStreak ?? smallest((l) => suitStreakBound(copies, l), 3, 13 * copies, target);
  const shoes = Math.max(1, options.history);
  const repeatWindow =
    options.repeatWindow ?? smallest((l) => repeatBound(copies, l, shoes), 3, 52, target);
  return {
    copies,
    rankRun,
    suitStreak,
    repeatWindow,
    bounds: {
      rank_run: rankRunBound(copies, rankRun),
      suit_streak: suitStreakBound(copies, suitStreak),
      repeat: repeatBound(copies, repeatWindow, shoes),
    },
  };
}

/** Windows of an earlier shoe: key (codes joined) → first position. */
export type ShoeWindows = ReadonlyMap<string, number>;

export interface AnomalyState {
  readonly thresholds: AnomalyThresholds;
  /** Earlier shoes' windows of `repeatWindow` cards, the most recent first. */
  readonly history: readonly ShoeWindows[];
  readonly sequence: readonly StandardCard[];
  /** Positions in the shoe of the cards in `sequence`. */
  readonly positions: readonly number[];
  readonly ascending: number;
  readonly descending: number;
  readonly suit: number;
  readonly fired: ReadonlySet<AnomalyTest>;
}

export interface AnomalyFinding {
  readonly test: AnomalyTest;
  /** Cards in the pattern so far. */
  readonly length: number;
  /** Shoe positions (0-based) of the first and last card of the pattern. */
  readonly from: number;
  readonly to: number;
  /** Upper bound of the false-alarm probability per shoe for this test. */
  readonly bound: number;
  /** For `repeat`: how many shoes back, and where in that shoe. */
  readonly shoesBack?: number;
  readonly earlierFrom?: number;
  readonly message: string;
}

export function startShoe(
  copies: number,
  options: AnomalyOptions,
  history: readonly ShoeWindows[],
): AnomalyState {
  return {
    thresholds: anomalyThresholds(copies, options),
    history,
    sequence: [],
    positions: [],
    ascending: 0,
    descending: 0,
    suit: 0,
    fired: new Set(),
  };
}

function windowKey(cards: readonly StandardCard[]): string {
  return cards.join('');
}

/** Feeds the next dealt card (at shoe position `index`); each test fires at most once per shoe. */
export function observe(
  state: AnomalyState,
  card: StandardCard,
  index: number,
): { state: AnomalyState; findings: AnomalyFinding[] } {
  const previous = state.sequence.at(-1);
  const step = previous === undefined ? 0 : rankIndex(card) - rankIndex(previous);
  const ascending = step === 1 ? state.ascending + 1 : 1;
  const descending = step === -1 ? state.descending + 1 : 1;
  const suit = previous !== undefined && suitOf(previous) === suitOf(card) ? state.suit + 1 : 1;
  const sequence = [...state.sequence, card];
  const positions = [...state.positions, index];
  const { thresholds } = state;
  const findings: AnomalyFinding[] = [];
  const fired = new Set(state.fired);
  const start = (length: number) => positions[positions.length - length] ?? index;

  const run = Math.max(ascending, descending);
  if (!fired.has('rank_run') && run >= thresholds.rankRun) {
    fired.add('rank_run');
    findings.push({
      test: 'rank_run',
      length: run,
      from: start(run),
      to: index,
      bound: thresholds.bounds.rank_run,
      message: `${run} cards in a run of consecutive ranks (positions ${start(run)}-${index}); a fair shuffle does this with probability below ${thresholds.bounds.rank_run.toExponential(1)} per shoe`,
    });
  }
  if (!fired.has('suit_streak') && suit >= thresholds.suitStreak) {
    fired.add('suit_streak');
    findings.push({
      test: 'suit_streak',
      length: suit,
      from: start(suit),
      to: index,
      bound: thresholds.bounds.suit_streak,
      message: `${suit} cards of one suit in a row (positions ${start(suit)}-${index}); a fair shuffle does this with probability below ${thresholds.bounds.suit_streak.toExponential(1)} per shoe`,
    });
  }
  const width = thresholds.repeatWindow;
  if (!fired.has('repeat') && sequence.length >= width && state.history.length > 0) {
    const key = windowKey(sequence.slice(-width));
    const shoesBack = state.history.findIndex((windows) => windows.has(key));
    if (shoesBack >= 0) {
      fired.add('repeat');
      const earlierFrom = state.history[shoesBack]!.get(key)!;
      findings.push({
        test: 'repeat',
        length: width,
        from: start(width),
        to: index,
        bound: thresholds.bounds.repeat,
        shoesBack: shoesBack + 1,
        earlierFrom,
        message: `${width} cards (positions ${start(width)}-${index}) repeat, in order, positions ${earlierFrom}-${earlierFrom + width - 1} of the shoe ${shoesBack + 1} back; a fair shuffle does this with probability below ${thresholds.bounds.repeat.toExponential(1)} per shoe`,
      });
    }
  }
  return {
    state: { ...state, sequence, positions, ascending, descending, suit, fired },
    findings,
  };
}

/** The history to hand to the next shoe: this shoe's windows first, at most `keep` shoes. */
export function closeShoe(state: AnomalyState, keep: number): readonly ShoeWindows[] {
  if (keep === 0) return [];
  const width = state.thresholds.repeatWindow;
  const windows = new Map<string, number>();
  for (let i = 0; i + width <= state.sequence.length; i += 1) {
    const key = windowKey(state.sequence.slice(i, i + width));
    if (!windows.has(key)) windows.set(key, state.positions[i]!);
  }
  if (windows.size === 0) return state.history.slice(0, keep);
  return [windows, ...state.history].slice(0, keep);
}
