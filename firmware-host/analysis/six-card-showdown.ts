/**
 * Head-to-head of two six-card poker hands from one deck, exactly: for each
 * category of the player's best five, the ordered (player, dealer) deals in
 * which the player wins, ties or loses (Triple Shot Poker, 000 § 9.c, § 10).
 *
 * Enumerating the C(52,6)·C(46,6) ≈ 1.9·10^14 pairs is out of reach, so the
 * count uses inclusion-exclusion over the cards the two hands would share:
 *
 *   #{(P, D) disjoint, s(D) < s(P)} = Σ_S (-1)^|S| Σ_v h_S(v) · h_S(< v)
 *
 * where S runs over card sets of size 0..6 and h_S(v) counts the six-card
 * hands containing S of strength v (Σ_{S ⊆ P∩D} (-1)^|S| is 1 exactly when
 * P and D are disjoint). h_S depends on S only up to a renaming of suits, so
 * one representative per suit pattern is enumerated, times its multiplicity.
 * Ties count Σ h_S(v)². Every count is exact (bigint); about 130 million
 * evaluations in all.
 */
import { evaluate6Ints } from '../engine/poker/evaluator.ts';
import { strengthTables } from '../engine/poker/evaluator-tables.ts';
import { AnalysisError } from './errors.ts';
import { choose } from './exact.ts';
import type { ProgressListener } from './poker.ts';
import { forEachSubset, suitPatternKey } from './suit-patterns.ts';

export interface ShowdownCounts {
  /** Ordered (player, dealer) pairs of disjoint six-card hands. */
  readonly total: bigint;
  /** Per category index (0 royal .. 9 high card, as POKER_CATEGORIES): player wins. */
  readonly wins: readonly bigint[];
  /** Per category index: ties. */
  readonly ties: readonly bigint[];
  /** Per category index: player loses. */
  readonly losses: readonly bigint[];
}

/**
 * Counts the showdown of two six-card hands dealt from `deck` (card ints;
 * default the full 52-card deck). The deck must hold all four suits of each
 * of its ranks, so that renaming suits maps it onto itself.
 */
export function sixCardShowdown(
  deck: readonly number[] = Array.from({ length: 52 }, (_, card) => card),
  onProgress?: ProgressListener,
): ShowdownCounts {
  const ranks = new Set(deck.map((card) => card >> 2));
  if (new Set(deck).size !== deck.length || deck.length !== ranks.size * 4 || deck.length < 12) {
    throw new AnalysisError(
      'bad_parameter',
      'a showdown deck needs all four suits of each of its ranks and at least 12 cards',
    );
  }
  const categoryOf = strengthTables().categoryOfStrength;
  const wins = new Array<bigint>(10).fill(0n);
  const ties = new Array<bigint>(10).fill(0n);
  // Work for progress: the evaluations, per shared-set size.
  const work = [0, 1, 2, 3, 4, 5].map((size) =>
    Number(choose(deck.length, size) * choose(deck.length - size, 6 - size)),
  );
  const totalWork = work.reduce((a, b) => a + b, 0);
  let done = 0;

  for (let size = 0; size <= 5; size++) {
    const sign = size % 2 === 0 ? 1n : -1n;
    // Suit patterns of shared sets of this size, with how many sets each stands for.
    const patterns = new Map<number, { representative: number[]; multiplicity: number }>();
    forEachSubset(deck, size, (shared) => {
      const key = suitPatternKey(shared);
      const known = patterns.get(key);
      if (known) known.multiplicity++;
      else patterns.set(key, { representative: [...shared], multiplicity: 1 });
    });
    const completions = 6 - size;
    const perPattern = Number(choose(deck.length - size, completions));
    for (const { representative, multiplicity } of patterns.values()) {
      const rest = deck.filter((card) => !representative.includes(card));
      const strengths = new Int32Array(perPattern);
      let n = 0;
      const hand = new Array<number>(6);
      for (let i = 0; i < size; i++) hand[i] = representative[i]!;
      forEachSubset(rest, completions, (chosen) => {
        for (let i = 0; i < completions; i++) hand[size + i] = chosen[i]!;
        strengths[n++] = evaluate6Ints(hand[0]!, hand[1]!, hand[2]!, hand[3]!, hand[4]!, hand[5]!);
      });
      accumulate(strengths, BigInt(multiplicity) * sign);
      done += perPattern * multiplicity;
      onProgress?.(done, totalWork);
    }
  }
  // Shared sets of six: P = D = S, a tie with itself, for every six-card hand.
  forEachSubset(deck, 6, (hand) => {
    const strength = evaluate6Ints(hand[0]!, hand[1]!, hand[2]!, hand[3]!, hand[4]!, hand[5]!);
    ties[categoryOf[strength]!]! += 1n;
  });

  function accumulate(strengths: Int32Array, weight: bigint): void {
    // Sorted strengths: each run of equal v has `below` weaker hands before it.
    strengths.sort();
    const winsHere = new Array<number>(10).fill(0);
    const tiesHere = new Array<number>(10).fill(0);
    let start = 0;
    while (start < strengths.length) {
      const v = strengths[start]!;
      let end = start + 1;
      while (end < strengths.length && strengths[end] === v) end++;
      const run = end - start;
      const category = categoryOf[v]!;
      // run * start < 2^53 for any deck of 52 cards: (C(52,6))^2 ≈ 4·10^14.
      winsHere[category]! += run * start;
      tiesHere[category]! += run * run;
      start = end;
    }
    for (let c = 0; c < 10; c++) {
      wins[c]! += weight * BigInt(winsHere[c]!);
      ties[c]! += weight * BigInt(tiesHere[c]!);
    }
  }

  const hands = choose(deck.length, 6);
  const total = hands * choose(deck.length - 6, 6);
  // Per category: the player's hands of that category times the dealer's hands.
  const handsOfCategory = new Array<bigint>(10).fill(0n);
  forEachSubset(deck, 6, (hand) => {
    handsOfCategory[
      categoryOf[evaluate6Ints(hand[0]!, hand[1]!, hand[2]!, hand[3]!, hand[4]!, hand[5]!)]!
    ]! += 1n;
  });
  const dealerHands = choose(deck.length - 6, 6);
  const losses = handsOfCategory.map((count, c) => count * dealerHands - wins[c]! - ties[c]!);
  return { total, wins, ties, losses };
}
