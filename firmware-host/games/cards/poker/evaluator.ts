/**
 * Poker hand evaluator: the best five cards of 5, 6 or 7 (000 § 4; 001 § 3;
 * 003 § 28(14)). Suits are equal; the ace is high, and low only in
 * A-2-3-4-5; straights do not wrap around (Q-K-A-2-3 is no straight, 000 § 4.f).
 *
 * Two scores order hands identically (higher better, equal is an exact tie):
 * - `value` (from `evaluate`): category class in bits 20-23, then the five
 *   deciding ranks as nibbles 2..14, readable in hex (royal flush 0x8e0000);
 * - strength 1..7462 (from the `evaluate*Ints` hot-loop entry points): the
 *   dense rank of that value, convertible by `strengthValue`.
 * How the tables work: see evaluator-tables.ts.
 */
import { isStandardCard, type StandardCard } from '../../../../device-protocol/cards.ts';
import { EngineError } from '../../../engine/errors.ts';
import { nonFlush7Table, STRENGTH_COUNT, strengthTables } from './evaluator-tables.ts';

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

/** Categories from best to worst; `straight_flush` excludes the royal flush. */
export const POKER_CATEGORIES: readonly PokerCategory[] = [
  'royal_flush',
  'straight_flush',
  'four_of_a_kind',
  'full_house',
  'flush',
  'straight',
  'three_of_a_kind',
  'two_pair',
  'one_pair',
  'high_card',
];

export interface HandValue {
  readonly category: PokerCategory;
  readonly value: number;
}

export { STRENGTH_COUNT };

// ------------------------------------------------------------ integer cards

const RANK_ORDER = '23456789TJQKA';
const SUIT_ORDER = 'SHDC';

/** Card integer `rank * 4 + suit`: rank 0 deuce .. 12 ace, suit S H D C = 0..3. */
export function cardToInt(card: StandardCard): number {
  return RANK_ORDER.indexOf(card[0]!) * 4 + SUIT_ORDER.indexOf(card[1]!);
}

export function intToCard(card: number): StandardCard {
  return `${RANK_ORDER[card >> 2]}${SUIT_ORDER[card & 3]}` as StandardCard;
}

// Suit counts live in four 4-bit fields; adding 3 sets a field's top bit
// exactly when that suit holds 5 or more cards (at most 7, so no carry).
const FLUSH_PROBE = 0x3333;
const FLUSH_BITS = 0x8888;

function suitOfFlush(suitCounts: number): number {
  return (31 - Math.clz32((suitCounts + FLUSH_PROBE) & FLUSH_BITS)) >> 2;
}

/** Strength (1..7462, higher better) of five distinct card integers. */
export function evaluate5Ints(a: number, b: number, c: number, d: number, e: number): number {
  const t = strengthTables();
  const suit = a & 3;
  if ((b & 3) === suit && (c & 3) === suit && (d & 3) === suit && (e & 3) === suit) {
    return t.flush[
      (1 << (a >> 2)) | (1 << (b >> 2)) | (1 << (c >> 2)) | (1 << (d >> 2)) | (1 << (e >> 2))
    ]!;
  }
  const k = t.cardKey5;
  return t.nonFlush5[k[a]! + k[b]! + k[c]! + k[d]! + k[e]!]!;
}

/** Strength of six distinct card integers: the best five. */
export function evaluate6Ints(
  a: number,
  b: number,
  c: number,
  d: number,
  e: number,
  f: number,
): number {
  const t = strengthTables();
  const suits =
    (1 << ((a & 3) << 2)) +
    (1 << ((b & 3) << 2)) +
    (1 << ((c & 3) << 2)) +
    (1 << ((d & 3) << 2)) +
    (1 << ((e & 3) << 2)) +
    (1 << ((f & 3) << 2));
  if (((suits + FLUSH_PROBE) & FLUSH_BITS) !== 0) {
    // Quads or a full house with a flush would need eight cards: the flush is the answer.
    return t.flush[suitMask(suitOfFlush(suits), a, b, c, d, e, f, -1)]!;
  }
  const k = t.cardKey5;
  const table = t.nonFlush5;
  const ka = k[a]!;
  const kb = k[b]!;
  const kc = k[c]!;
  const kd = k[d]!;
  const ke = k[e]!;
  const kf = k[f]!;
  const sum = ka + kb + kc + kd + ke + kf;
  let best = table[sum - ka]!;
  let next = table[sum - kb]!;
  if (next > best) best = next;
  next = table[sum - kc]!;
  if (next > best) best = next;
  next = table[sum - kd]!;
  if (next > best) best = next;
  next = table[sum - ke]!;
  if (next > best) best = next;
  next = table[sum - kf]!;
  if (next > best) best = next;
  return best;
}

/** Strength of seven distinct card integers: the best five. */
export function evaluate7Ints(
  a: number,
  b: number,
  c: number,
  d: number,
  e: number,
  f: number,
  g: number,
): number {
  const t = strengthTables();
  const suits =
    (1 << ((a & 3) << 2)) +
    (1 << ((b & 3) << 2)) +
    (1 << ((c & 3) << 2)) +
    (1 << ((d & 3) << 2)) +
    (1 << ((e & 3) << 2)) +
    (1 << ((f & 3) << 2)) +
    (1 << ((g & 3) << 2));
  if (((suits + FLUSH_PROBE) & FLUSH_BITS) !== 0) {
    return t.flush[suitMask(suitOfFlush(suits), a, b, c, d, e, f, g)]!;
  }
  const k = t.cardKey7;
  return nonFlush7Table()[k[a]! + k[b]! + k[c]! + k[d]! + k[e]! + k[f]! + k[g]!]!;
}

/** Rank mask of the cards of one suit; `g` is -1 when absent. */
function suitMask(
  suit: number,
  a: number,
  b: number,
  c: number,
  d: number,
  e: number,
  f: number,
  g: number,
): number {
  let mask = 0;
  if ((a & 3) === suit) mask |= 1 << (a >> 2);
  if ((b & 3) === suit) mask |= 1 << (b >> 2);
  if ((c & 3) === suit) mask |= 1 << (c >> 2);
  if ((d & 3) === suit) mask |= 1 << (d >> 2);
  if ((e & 3) === suit) mask |= 1 << (e >> 2);
  if ((f & 3) === suit) mask |= 1 << (f >> 2);
  if (g >= 0 && (g & 3) === suit) mask |= 1 << (g >> 2);
  return mask;
}

/** Strength of 5, 6 or 7 distinct card integers (no checks: callers validate). */
export function evaluateInts(cards: readonly number[]): number {
  const [a, b, c, d, e, f, g] = cards as [number, number, number, number, number, number, number];
  if (cards.length === 7) return evaluate7Ints(a, b, c, d, e, f, g);
  if (cards.length === 6) return evaluate6Ints(a, b, c, d, e, f);
  return evaluate5Ints(a, b, c, d, e);
}

/** The packed `value` of a strength. */
export function strengthValue(strength: number): number {
  return strengthTables().valueOfStrength[strength]!;
}

/** The category of a strength. */
export function strengthCategory(strength: number): PokerCategory {
  return POKER_CATEGORIES[strengthTables().categoryOfStrength[strength]!]!;
}

/**
 * strength -> index into POKER_CATEGORIES (0 royal .. 9 high card), for hot
 * loops that count categories.
 */
export function categoryIndexTable(): Uint8Array {
  return strengthTables().categoryOfStrength;
}

/** The category of a packed value. */
export function categoryOfValue(value: number): PokerCategory {
  const categoryClass = Math.floor(value / 0x100000);
  if (categoryClass === 8) return (value & 0xf0000) >> 16 === 14 ? 'royal_flush' : 'straight_flush';
  return POKER_CATEGORIES[9 - categoryClass] ?? 'high_card';
}

// --------------------------------------------------------- card-code API

function toInts(cards: readonly StandardCard[]): number[] {
  if (!Array.isArray(cards) || cards.length < 5 || cards.length > 7) {
    throw new EngineError(
      'bad_input',
      `a poker hand has 5, 6 or 7 cards, got ${Array.isArray(cards) ? cards.length : typeof cards}`,
    );
  }
  const seen = new Set<string>();
  return cards.map((card) => {
    if (typeof card !== 'string' || !isStandardCard(card)) {
      throw new EngineError('bad_input', `bad card ${JSON.stringify(card)} in a poker hand`);
    }
    if (seen.has(card)) {
      throw new EngineError('bad_input', `card ${card} appears twice in one poker hand`);
    }
    seen.add(card);
    return cardToInt(card);
  });
}

function handOfStrength(strength: number): HandValue {
  return { category: strengthCategory(strength), value: strengthValue(strength) };
}

/** Category and exact value of the best five of 5, 6 or 7 cards. */
export function evaluate(cards: readonly StandardCard[]): HandValue {
  return handOfStrength(evaluateInts(toInts(cards)));
}

/** Negative when hand `a` loses to hand `b`, zero on a tie, positive when `a` wins. */
export function compareHands(a: readonly StandardCard[], b: readonly StandardCard[]): number {
  return Math.sign(evaluate(a).value - evaluate(b).value);
}

/**
 * The best five cards, ordered for display as the value reads them: the
 * biggest group first (quads, trips, pairs), then kickers high to low; a
 * five-high straight shows its ace last.
 */
export function bestFive(cards: readonly StandardCard[]): {
  cards: StandardCard[];
  hand: HandValue;
} {
  const ints = toInts(cards);
  let best: number[] = ints.slice(0, 5);
  let bestStrength = -1;
  const n = ints.length;
  for (let a = 0; a < n; a++)
    for (let b = a + 1; b < n; b++)
      for (let c = b + 1; c < n; c++)
        for (let d = c + 1; d < n; d++)
          for (let e = d + 1; e < n; e++) {
            const five = [ints[a]!, ints[b]!, ints[c]!, ints[d]!, ints[e]!];
            const strength = evaluate5Ints(five[0]!, five[1]!, five[2]!, five[3]!, five[4]!);
            if (strength > bestStrength) {
              bestStrength = strength;
              best = five;
            }
          }
  const hand = handOfStrength(bestStrength);
  return { cards: displayOrder(best, hand).map(intToCard), hand };
}

function displayOrder(five: readonly number[], hand: HandValue): number[] {
  const countOf = new Map<number, number>();
  for (const card of five) countOf.set(card >> 2, (countOf.get(card >> 2) ?? 0) + 1);
  const ordered = [...five].sort(
    (x, y) =>
      countOf.get(y >> 2)! - countOf.get(x >> 2)! || (y >> 2) - (x >> 2) || (x & 3) - (y & 3),
  );
  const isStraight = hand.category === 'straight' || hand.category === 'straight_flush';
  const wheel = isStraight && ordered[0]! >> 2 === 12 && ordered[1]! >> 2 === 3;
  return wheel ? [...ordered.slice(1), ordered[0]!] : ordered;
}
