/**
 * Suit symmetry for the exact poker analyses: no poker rule of ours ranks
 * one suit above another (000 § 4; 003 § 28(14); 004 "all suits are
 * equal"), so two card sets that differ only by a renaming of suits have the
 * same futures. Enumerations visit one representative per suit pattern and
 * weight it by the number of sets it stands for.
 */

/** The four suit masks of a card set, sorted: equal exactly for suit-isomorphic sets. */
export function suitPatternKey(cards: readonly number[]): number {
  const masks = [0, 0, 0, 0];
  for (const card of cards) masks[card & 3]! |= 1 << (card >> 2);
  masks.sort((a, b) => b - a);
  return ((masks[0]! * 8192 + masks[1]!) * 8192 + masks[2]!) * 8192 + masks[3]!;
}

/** Calls visit with every k-subset of `from`, in lexicographic order (one shared buffer). */
export function forEachSubset(
  from: readonly number[],
  k: number,
  visit: (chosen: readonly number[]) => void,
): void {
  const chosen = new Array<number>(k).fill(0);
  const recurse = (start: number, depth: number): void => {
    if (depth === k) {
      visit(chosen);
      return;
    }
    for (let i = start; i <= from.length - (k - depth); i++) {
      chosen[depth] = from[i]!;
      recurse(i + 1, depth + 1);
    }
  };
  recurse(0, 0);
}

export interface SuitPattern {
  /** One card set of the pattern (card ints, ascending). */
  readonly representative: readonly number[];
  /** How many card sets of the deck the pattern stands for. */
  readonly multiplicity: number;
}

/** The suit patterns of the k-card subsets of `deck`; multiplicities sum to C(|deck|, k). */
export function suitPatterns(deck: readonly number[], k: number): SuitPattern[] {
  const patterns = new Map<number, { representative: number[]; multiplicity: number }>();
  forEachSubset(deck, k, (cards) => {
    const key = suitPatternKey(cards);
    const known = patterns.get(key);
    if (known) known.multiplicity++;
    else patterns.set(key, { representative: [...cards], multiplicity: 1 });
  });
  return [...patterns.values()];
}

/** The full 52-card deck as card ints. */
export const FULL_DECK: readonly number[] = Array.from({ length: 52 }, (_, card) => card);

/** Rank masks (13 bits) by how many ranks they hold, 0..5. */
const MASKS_BY_SIZE: readonly (readonly number[])[] = (() => {
  const bySize: number[][] = [[], [], [], [], [], []];
  for (let mask = 0; mask < 1 << 13; mask++) {
    let bits = 0;
    for (let m = mask; m !== 0; m &= m - 1) bits++;
    if (bits <= 5) bySize[bits]!.push(mask);
  }
  return bySize;
})();

const FACTORIAL = [1, 1, 2, 6, 24];

/**
 * The same patterns as `suitPatterns(FULL_DECK, k)`, generated directly for
 * k ≤ 5: a pattern is a multiset of four rank masks (one per suit) holding k
 * cards in all; it is listed once with its masks in descending order, and
 * stands for the 4! / Π(repeats)! ways to hand the masks to the suits.
 */
export function fullDeckSuitPatterns(k: number): SuitPattern[] {
  const patterns: SuitPattern[] = [];
  forEachFullDeckSuitPattern(k, (cards, multiplicity) => {
    patterns.push({ representative: Array.from(cards).sort((a, b) => a - b), multiplicity });
  });
  return patterns;
}

/**
 * The patterns of `fullDeckSuitPatterns(k)`, in the same order, without
 * building them: `visit` gets each one's cards (one shared buffer, in no
 * particular order) and multiplicity. For enumerations that visit a pattern
 * once, 134,459 of them for five cards.
 */
export function forEachFullDeckSuitPattern(
  k: number,
  visit: (cards: Int32Array, multiplicity: number) => void,
): void {
  if (!Number.isInteger(k) || k < 0 || k > 5) throw new RangeError(`pattern size ${k} not in 0..5`);
  const masks = [0, 0, 0, 0];
  const cards = new Int32Array(k);
  const emit = (): void => {
    let multiplicity = 24;
    let run = 1;
    for (let i = 1; i <= 4; i++) {
      if (i < 4 && masks[i] === masks[i - 1]) run++;
      else {
        multiplicity /= FACTORIAL[run]!;
        run = 1;
      }
    }
    let n = 0;
    for (let suit = 0; suit < 4; suit++)
      for (let m = masks[suit]!; m !== 0; m &= m - 1)
        cards[n++] = (31 - Math.clz32(m & -m)) * 4 + suit;
    visit(cards, multiplicity);
  };
  const choose = (suit: number, left: number, atMost: number): void => {
    if (suit === 3) {
      for (const mask of MASKS_BY_SIZE[left]!) {
        if (mask > atMost) break;
        masks[3] = mask;
        emit();
      }
      return;
    }
    for (let size = 0; size <= left; size++) {
      for (const mask of MASKS_BY_SIZE[size]!) {
        if (mask > atMost) break;
        masks[suit] = mask;
        choose(suit + 1, left - size, mask);
      }
    }
  };
  choose(0, k, (1 << 13) - 1);
}
