/**
 * A slow, plainly written evaluator that the fast one is tested against:
 * it tries every five-card subset and scores each by counting ranks
 * (000 § 4; 001 § 3; 003 § 28(14)). Values use the same packing as the fast
 * evaluator (`packValue`), so the two must agree exactly.
 */
import type { StandardCard } from '../../../../device-protocol/cards.ts';
import { packValue } from './evaluator-tables.ts';

/** 0 deuce .. 12 ace. */
const RANK_ORDER = '23456789TJQKA';

/** Value of exactly five cards. */
export function referenceValueOfFive(five: readonly StandardCard[]): number {
  const ranks = five.map((card) => RANK_ORDER.indexOf(card[0]!));
  const flush = five.every((card) => card[1] === five[0]![1]);
  const counts = new Map<number, number>();
  for (const rank of ranks) counts.set(rank, (counts.get(rank) ?? 0) + 1);
  // Groups by size, then rank: this is also the tie-break order.
  const groups = [...counts.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0]);
  const ordered = groups.flatMap(([rank, count]) => Array<number>(count).fill(rank));
  let straightHigh = -1;
  if (groups.length === 5) {
    if (ordered[0]! - ordered[4]! === 4) straightHigh = ordered[0]!;
    else if (ordered[0] === 12 && ordered[1] === 3) straightHigh = 3; // A-2-3-4-5 only
  }
  const sizes = groups.map(([, count]) => count).join('');
  if (straightHigh >= 0 && flush) return packValue(8, [straightHigh]);
  if (sizes === '41') return packValue(7, [ordered[0]!, ordered[4]!]);
  if (sizes === '32') return packValue(6, [ordered[0]!, ordered[3]!]);
  if (flush) return packValue(5, ordered);
  if (straightHigh >= 0) return packValue(4, [straightHigh]);
  if (sizes === '311') return packValue(3, [ordered[0]!, ordered[3]!, ordered[4]!]);
  if (sizes === '221') return packValue(2, [ordered[0]!, ordered[2]!, ordered[4]!]);
  if (sizes === '2111') return packValue(1, [ordered[0]!, ...ordered.slice(2)]);
  return packValue(0, ordered);
}

/** Every five-card subset of the cards. */
export function fiveCardSubsets<T>(cards: readonly T[]): T[][] {
  const subsets: T[][] = [];
  const n = cards.length;
  for (let a = 0; a < n; a++)
    for (let b = a + 1; b < n; b++)
      for (let c = b + 1; c < n; c++)
        for (let d = c + 1; d < n; d++)
          for (let e = d + 1; e < n; e++)
            subsets.push([cards[a]!, cards[b]!, cards[c]!, cards[d]!, cards[e]!]);
  return subsets;
}

/** Best value over every five-card subset of 5, 6 or 7 cards. */
export function referenceValue(cards: readonly StandardCard[]): number {
  let best = -1;
  for (const five of fiveCardSubsets(cards)) best = Math.max(best, referenceValueOfFive(five));
  return best;
}
