/**
 * Poker hand evaluator: the best five cards of 5, 6 or 7 (000 § 4; 001 § 3;
 * 003 § 28(14)). Suits are equal; the ace is high, and low only in
 * A-2-3-4-5; straights do not wrap around (Q-K-A-2-3 is no straight).
 *
 * A hand's `value` orders hands exactly: higher is better, equal is a tie.
 * Layout: category class (0 high card .. 8 straight flush) in bits 20-23,
 * then the five ranks that decide ties (2..14, ace 14, the A-2-3-4-5 straight
 * counts as five-high), most significant first, one nibble each.
 */
import type { StandardCard } from '../../../device-protocol/cards.ts';

export type PokerCategory =
  | 'royal_flush'
  | 'straight_flush'
  | 'four_of_a_kind'
  | 'full_house'
  | 'flush'
  | 'straight'
  | 'three_of_a_kind'
  | 'two_pair'
  | 'one_pair'
  | 'high_card';

export interface HandValue {
  readonly category: PokerCategory;
  readonly value: number;
}

const RANK_VALUE: Record<string, number> = {
  '2': 2,
  '3': 3,
  '4': 4,
  '5': 5,
  '6': 6,
  '7': 7,
  '8': 8,
  '9': 9,
  T: 10,
  J: 11,
  Q: 12,
  K: 13,
  A: 14,
};

const CLASS_CATEGORY: readonly PokerCategory[] = [
  'high_card',
  'one_pair',
  'two_pair',
  'three_of_a_kind',
  'straight',
  'flush',
  'full_house',
  'four_of_a_kind',
  'straight_flush',
];

function pack(categoryClass: number, ranks: readonly number[]): number {
  let value = categoryClass;
  for (let i = 0; i < 5; i++) value = value * 16 + (ranks[i] ?? 0);
  return value;
}

export function categoryOfValue(value: number): PokerCategory {
  const categoryClass = Math.floor(value / 0x100000);
  if (categoryClass === 8 && (value & 0xfffff) >> 16 === 14) return 'royal_flush';
  return CLASS_CATEGORY[categoryClass] ?? 'high_card';
}

/** Value of exactly five cards given as rank values (2..14) and suit letters. */
function evaluateFive(ranks: readonly number[], suits: readonly string[]): number {
  const flush = suits.every((suit) => suit === suits[0]);
  const counts = new Map<number, number>();
  for (const rank of ranks) counts.set(rank, (counts.get(rank) ?? 0) + 1);
  // Groups ordered by size, then by rank: this is also the tie-break order.
  const groups = [...counts.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0]);
  const ordered = groups.flatMap(([rank, count]) => Array<number>(count).fill(rank));
  let straightHigh = 0;
  if (groups.length === 5) {
    const high = ordered[0]!;
    const low = ordered[4]!;
    if (high - low === 4) straightHigh = high;
    else if (high === 14 && ordered[1] === 5) straightHigh = 5; // A-2-3-4-5, the wheel
  }
  if (straightHigh > 0 && flush) return pack(8, [straightHigh]);
  const top = groups[0]![1];
  const second = groups[1]?.[1] ?? 0;
  if (top === 4) return pack(7, ordered.filter((_, i) => i === 0 || i === 4));
  if (top === 3 && second === 2) return pack(6, [ordered[0]!, ordered[3]!]);
  if (flush) return pack(5, ordered);
  if (straightHigh > 0) return pack(4, [straightHigh]);
  if (top === 3) return pack(3, [ordered[0]!, ordered[3]!, ordered[4]!]);
  if (top === 2 && second === 2) return pack(2, [ordered[0]!, ordered[2]!, ordered[4]!]);
  if (top === 2) return pack(1, [ordered[0]!, ordered[2]!, ordered[3]!, ordered[4]!]);
  return pack(0, ordered);
}

function checkHand(cards: readonly StandardCard[]): void {
  if (cards.length < 5 || cards.length > 7) {
    throw new RangeError(`a poker hand has 5, 6 or 7 cards, got ${cards.length}`);
  }
  const seen = new Set<string>();
  for (const card of cards) {
    if (RANK_VALUE[card[0] ?? ''] === undefined || !'SHDC'.includes(card[1] ?? '?')) {
      throw new RangeError(`bad card ${JSON.stringify(card)} in poker hand`);
    }
    if (seen.has(card)) throw new RangeError(`card ${card} appears twice in one poker hand`);
    seen.add(card);
  }
}

function* fiveCardSubsets<T>(cards: readonly T[]): Generator<T[]> {
  const n = cards.length;
  for (let a = 0; a < n; a++)
    for (let b = a + 1; b < n; b++)
      for (let c = b + 1; c < n; c++)
        for (let d = c + 1; d < n; d++)
          for (let e = d + 1; e < n; e++) yield [cards[a]!, cards[b]!, cards[c]!, cards[d]!, cards[e]!];
}

function valueOfFive(five: readonly StandardCard[]): number {
  return evaluateFive(
    five.map((card) => RANK_VALUE[card[0]!]!),
    five.map((card) => card[1]!),
  );
}

/** Best five cards of the hand, strongest first as the value orders them. */
export function bestFive(cards: readonly StandardCard[]): { cards: StandardCard[]; hand: HandValue } {
  checkHand(cards);
  let best: StandardCard[] = [];
  let bestValue = -1;
  for (const five of fiveCardSubsets(cards)) {
    const value = valueOfFive(five);
    if (value > bestValue) {
      bestValue = value;
      best = five;
    }
  }
  return { cards: best, hand: { category: categoryOfValue(bestValue), value: bestValue } };
}

/** Category and exact value of the best five of 5, 6 or 7 cards. */
export function evaluate(cards: readonly StandardCard[]): HandValue {
  return bestFive(cards).hand;
}

/** Negative when `a` loses to `b`, zero on a tie, positive when `a` wins. */
export function compareHands(a: readonly StandardCard[], b: readonly StandardCard[]): number {
  return Math.sign(evaluate(a).value - evaluate(b).value);
}
