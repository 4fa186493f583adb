/**
 * Five cards against the dealer's five from one deck, exactly (Caribbean
 * stud 003 § 24; Russian poker 004), for a box that plays its five cards as
 * dealt: for every strength of the player's hand, the ordered (player,
 * dealer) deals in which the dealer does not qualify, and in which a
 * qualifying dealer loses, ties or wins.
 *
 * The C(52,5)·C(47,5) ≈ 4·10^12 pairs are counted as six-card-showdown.ts
 * counts its pairs: inclusion-exclusion over the cards S the two hands would
 * share,
 *
 *   #{(P, D) disjoint, s(P) = v, s(D) ∈ R} = Σ_S (-1)^|S| h_S(v) · h_S(R)
 *
 * where h_S(x) counts the five-card hands containing S with strength in x.
 * h_S depends on S only up to a renaming of suits, so one representative per
 * suit pattern is enumerated, times its multiplicity: about 12 million
 * evaluations. Each sum stays below 2^53 in magnitude (the largest term is
 * C(52,5)^2 ≈ 6.8·10^12), so double arithmetic is exact; results are bigints.
 */
import { evaluate5Ints, STRENGTH_COUNT } from '../engine/poker/evaluator.ts';
import { AnalysisError } from './errors.ts';
import { choose } from './exact.ts';
import type { ProgressListener } from './poker.ts';
import type { ShowdownOutcomeCounts } from './study.ts';
import {
  forEachSubset,
  fullDeckSuitPatterns,
  type SuitPattern,
  suitPatterns,
} from './suit-patterns.ts';

/** Indexed by the player's strength 1..7462 (index 0 unused). */
export interface FiveCardShowdownCounts extends ShowdownOutcomeCounts {
  /** Ordered (player, dealer) pairs of disjoint five-card hands. */
  readonly total: bigint;
  /** Player hands of each strength. */
  readonly hands: readonly bigint[];
}

/**
 * Counts the showdown of two five-card hands from `deck` (card ints; default
 * the full deck, which must hold all four suits of each of its ranks).
 * `qualifier`: the least strength that qualifies the dealer (1 for none).
 */
export function fiveCardShowdown(
  qualifier: number,
  deck?: readonly number[],
  onProgress?: ProgressListener,
): FiveCardShowdownCounts {
  // The full deck's counts depend on the qualifier alone: Caribbean stud and
  // Russian poker (both ace-king) share one enumeration in a process.
  if (deck === undefined) {
    const known = FULL_DECK_COUNTS.get(qualifier);
    if (known) return known;
    const counts = countShowdown(qualifier, undefined, onProgress);
    FULL_DECK_COUNTS.set(qualifier, counts);
    return counts;
  }
  return countShowdown(qualifier, deck, onProgress);
}

const FULL_DECK_COUNTS = new Map<number, FiveCardShowdownCounts>();

function countShowdown(
  qualifier: number,
  deck: readonly number[] | undefined,
  onProgress?: ProgressListener,
): FiveCardShowdownCounts {
  const cards = deck ?? Array.from({ length: 52 }, (_, card) => card);
  const ranks = new Set(cards.map((card) => card >> 2));
  if (
    new Set(cards).size !== cards.length ||
    cards.length !== ranks.size * 4 ||
    cards.length < 12
  ) {
    throw new AnalysisError(
      'bad_parameter',
      'a showdown deck needs all four suits of each of its ranks and at least 12 cards',
    );
  }
  const size = STRENGTH_COUNT + 1;
  const hands = new Float64Array(size);
  const notQualified = new Float64Array(size);
  const wins = new Float64Array(size);
  const ties = new Float64Array(size);
  const patternsOf = (k: number): SuitPattern[] =>
    deck === undefined ? fullDeckSuitPatterns(k) : suitPatterns(cards, k);
  const work = [0, 1, 2, 3, 4, 5].map((k) =>
    Number(choose(cards.length, k) * choose(cards.length - k, 5 - k)),
  );
  const totalWork = work.reduce((a, b) => a + b, 0);
  let done = 0;

  const inPattern = new Uint8Array(52);
  const strengths = new Int32Array(Number(choose(cards.length, 5)));
  for (let k = 0; k <= 5; k++) {
    const sign = k % 2 === 0 ? 1 : -1;
    const completions = 5 - k;
    for (const { representative, multiplicity } of patternsOf(k)) {
      inPattern.fill(0);
      for (const card of representative) inPattern[card] = 1;
      const rest = cards.filter((card) => inPattern[card] === 0);
      const hand = [...representative, 0, 0, 0, 0, 0].slice(0, 5);
      let n = 0;
      forEachSubset(rest, completions, (chosen) => {
        for (let i = 0; i < completions; i++) hand[k + i] = chosen[i]!;
        strengths[n++] = evaluate5Ints(hand[0]!, hand[1]!, hand[2]!, hand[3]!, hand[4]!);
      });
      const sorted = strengths.subarray(0, n).sort();
      let belowQualifier = 0;
      while (belowQualifier < n && sorted[belowQualifier]! < qualifier) belowQualifier++;
      const weight = sign * multiplicity;
      let start = 0;
      while (start < n) {
        const v = sorted[start]!;
        let end = start + 1;
        while (end < n && sorted[end] === v) end++;
        const run = end - start;
        if (k === 0) hands[v]! += run;
        notQualified[v]! += weight * run * belowQualifier;
        if (v >= qualifier) {
          wins[v]! += weight * run * (start - belowQualifier);
          ties[v]! += weight * run * run;
        }
        start = end;
      }
      done += n * multiplicity;
      onProgress?.(done, totalWork);
    }
  }
  const dealerHands = choose(cards.length - 5, 5);
  const asBigints = (values: Float64Array) => Array.from(values, (value) => BigInt(value));
  const handCounts = asBigints(hands);
  const notQualifiedCounts = asBigints(notQualified);
  const winCounts = asBigints(wins);
  const tieCounts = asBigints(ties);
  return {
    total: choose(cards.length, 5) * dealerHands,
    hands: handCounts,
    dealerNotQualified: notQualifiedCounts,
    wins: winCounts,
    ties: tieCounts,
    losses: handCounts.map(
      (count, v) => count * dealerHands - notQualifiedCounts[v]! - winCounts[v]! - tieCounts[v]!,
    ),
  };
}
