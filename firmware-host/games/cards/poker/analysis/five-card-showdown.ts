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
 * evaluations, each one table lookup on running sums of rank keys, rank
 * bits and suit bits (a flush: all five cards in one suit). Each sum stays below 2^53 in magnitude (the largest term is
 * C(52,5)^2 ≈ 6.8·10^12), so double arithmetic is exact; results are bigints.
 */

import { AnalysisError } from '../../../../analysis/errors.ts';
import { choose } from '../../../../analysis/exact.ts';
import {
  insertionSortInto,
  STRENGTH_SORT_BUCKETS,
  sortByStrength,
} from '../../../../analysis/strength-sort.ts';
import {
  fullDeckSuitPatterns,
  type SuitPattern,
  suitPatterns,
} from '../../../../analysis/suit-patterns.ts';
import { STRENGTH_COUNT } from '../evaluator.ts';
import { strengthTables } from '../evaluator-tables.ts';
import type { ProgressListener } from './poker.ts';
import type { ShowdownOutcomeCounts } from './study.ts';

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

  const completer = new Completer(cards);
  const histogram = new Uint32Array(size);
  // Shared sets of four or fewer cards here; of five (P = D = S) after the loop.
  for (let k = 0; k <= 4; k++) {
    const sign = k % 2 === 0 ? 1 : -1;
    for (const { representative, multiplicity } of patternsOf(k)) {
      const weight = sign * multiplicity;
      const n = completer.complete(representative);
      // Many hands: a histogram over the strengths; few: sort them.
      let belowQualifier = 0;
      const add = (v: number, run: number, below: number): void => {
        if (k === 0) hands[v]! += run;
        notQualified[v]! += weight * run * belowQualifier;
        if (v >= qualifier) {
          wins[v]! += weight * run * (below - belowQualifier);
          ties[v]! += weight * run * run;
        }
      };
      const strengths = completer.strengths;
      if (n >= HISTOGRAM_FROM) {
        histogram.fill(0);
        for (let i = 0; i < n; i++) histogram[strengths[i]!]!++;
        for (let v = 1; v < qualifier; v++) belowQualifier += histogram[v]!;
        let below = 0;
        for (let v = 1; v < size; v++) {
          const run = histogram[v]!;
          if (run === 0) continue;
          add(v, run, below);
          below += run;
        }
      } else {
        const sorted = completer.sorted(n);
        while (belowQualifier < n && sorted[belowQualifier]! < qualifier) belowQualifier++;
        let start = 0;
        while (start < n) {
          const v = sorted[start]!;
          let end = start + 1;
          while (end < n && sorted[end] === v) end++;
          add(v, end - start, start);
          start = end;
        }
      }
      done += n * multiplicity;
      onProgress?.(done, totalWork);
    }
  }
  // A shared set of five is a hand S dealt to both, h_S(x) = [s(S) in x]:
  // it adds -1 to the not-qualified count when S does not qualify, and to
  // the ties when it does, for every hand S (hands[v] of strength v).
  for (let v = 1; v < size; v++) {
    if (v < qualifier) notQualified[v]! -= hands[v]!;
    else ties[v]! -= hands[v]!;
  }
  onProgress?.(totalWork, totalWork);
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

/** From this many hands on, a pattern's strengths are counted in a histogram rather than sorted. */
const HISTOGRAM_FROM = 4096;

/** Every five-card hand holding a shared set, completed from the rest of a deck, evaluated. */
class Completer {
  private readonly tables = strengthTables();
  private readonly inShared = new Uint8Array(52);
  private readonly rest = new Int32Array(52);
  private restLength = 0;
  private completions = 0;
  private n = 0;
  readonly strengths: Int32Array;
  private readonly ordered: Int32Array;
  private readonly buckets = new Int32Array(STRENGTH_SORT_BUCKETS);

  constructor(private readonly deck: readonly number[]) {
    this.strengths = new Int32Array(Number(choose(deck.length, 5)));
    this.ordered = new Int32Array(HISTOGRAM_FROM);
  }

  /**
   * The first `n` (< HISTOGRAM_FROM) strengths, sorted: by insertion for a
   * few, else in place by `sortByStrength`; no new array, as the typed
   * array's own sort would need per pattern.
   */
  sorted(n: number): Int32Array {
    const { strengths, ordered } = this;
    if (n <= 64) {
      insertionSortInto(strengths, ordered, n);
      return ordered;
    }
    sortByStrength(strengths, ordered, n, this.buckets, 0);
    return strengths;
  }

  /** Evaluates every completion of `shared` into `strengths`; returns how many. */
  complete(shared: readonly number[]): number {
    const key = this.tables.cardKey5;
    const inShared = this.inShared;
    inShared.fill(0);
    let keySum = 0;
    let suits = 0;
    let ranks = 0;
    for (const card of shared) {
      inShared[card] = 1;
      keySum += key[card]!;
      suits |= 1 << (card & 3);
      ranks |= 1 << (card >> 2);
    }
    this.restLength = 0;
    for (const card of this.deck) if (inShared[card] === 0) this.rest[this.restLength++] = card;
    this.completions = 5 - shared.length;
    this.n = 0;
    if (this.completions === 0) this.strengths[this.n++] = this.strength(keySum, suits, ranks);
    else this.level(0, 0, keySum, suits, ranks);
    return this.n;
  }

  /** A flush when one suit holds all five (its ranks then all differ), else by the rank keys. */
  private strength(keySum: number, suits: number, ranks: number): number {
    return (suits & (suits - 1)) === 0 ? this.tables.flush[ranks]! : this.tables.nonFlush5[keySum]!;
  }

  /** Chooses the completion's card at `depth` from rest[start..]; the last level evaluates. */
  private level(depth: number, start: number, keySum: number, suits: number, ranks: number): void {
    const rest = this.rest;
    const key = this.tables.cardKey5;
    const last = this.restLength - (this.completions - depth - 1);
    if (depth === this.completions - 1) {
      const strengths = this.strengths;
      const flush = this.tables.flush;
      const nonFlush = this.tables.nonFlush5;
      let n = this.n;
      for (let i = start; i < last; i++) {
        const card = rest[i]!;
        const handSuits = suits | (1 << (card & 3));
        strengths[n++] =
          (handSuits & (handSuits - 1)) === 0
            ? flush[ranks | (1 << (card >> 2))]!
            : nonFlush[keySum + key[card]!]!;
      }
      this.n = n;
      return;
    }
    for (let i = start; i < last; i++) {
      const card = rest[i]!;
      this.level(
        depth + 1,
        i + 1,
        keySum + key[card]!,
        suits | (1 << (card & 3)),
        ranks | (1 << (card >> 2)),
      );
    }
  }
}
