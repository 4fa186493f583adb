/**
 * Every poker hand of 5, 6 or 7 cards from one 52-card deck, evaluated
 * best-five, counted by category (000 § 4; 001 § 3; 003 § 28(14)).
 * Exhaustive: C(52, n) hands, no sampling.
 *
 * The loops keep running sums of the evaluator's rank keys (seven cards: the
 * rank state table's rows) and suit counts level by level, so the innermost
 * loop costs an addition and one table lookup per hand (the flush path,
 * about 3 % of 7-card hands, builds the suit's rank mask from the cards);
 * for seven cards, once no flush can come, the last cards count by rank.
 */

import { AnalysisError } from '../../../../analysis/errors.ts';
import { choose } from '../../../../analysis/exact.ts';
import { POKER_CATEGORIES, type PokerCategory } from '../evaluator.ts';
import {
  nonFlush6Table,
  RANK_KEYS_7,
  rankStateTable,
  STRENGTH_COUNT,
  strengthTables,
} from '../evaluator-tables.ts';

export type HandSize = 5 | 6 | 7;

export interface PokerCategoryCounts {
  readonly cards: HandSize;
  readonly total: bigint;
  /** Best first: royal_flush, straight_flush (without royals), ... high_card. */
  readonly categories: Readonly<Record<PokerCategory, bigint>>;
  /** Hands per strength (1..7462; index 0 unused), for analyses that need finer detail. */
  readonly byStrength: Float64Array;
}

/** Progress: hands done so far out of the total. */
export type ProgressListener = (done: number, total: number) => void;

const FLUSH_PROBE = 0x3333;
const FLUSH_BITS = 0x8888;
/** Added to the suit counts: a nibble's bit 3 is set when that suit holds four (three) or more. */
const NO_FOUR_PROBE = 0x4444;
const NO_THREE_PROBE = 0x5555;

function suitIncrement(card: number): number {
  return 1 << ((card & 3) << 2);
}

function flushMask(suitCounts: number, cards: Int32Array, length: number): number {
  const suit = (31 - Math.clz32((suitCounts + FLUSH_PROBE) & FLUSH_BITS)) >> 2;
  let mask = 0;
  for (let i = 0; i < length; i++) {
    const card = cards[i]!;
    if ((card & 3) === suit) mask |= 1 << (card >> 2);
  }
  return mask;
}

export function checkHandSize(cards: number): HandSize {
  if (cards === 5 || cards === 6 || cards === 7) return cards;
  throw new AnalysisError('bad_parameter', `hand size must be 5, 6 or 7 cards, got ${cards}`);
}

/** Counts every hand of `cards` cards from one deck by category. */
export function pokerCategoryCounts(
  cards: number,
  onProgress?: ProgressListener,
): PokerCategoryCounts {
  const size = checkHandSize(cards);
  const total = Number(choose(52, size));
  const counts = new Uint32Array(STRENGTH_COUNT + 1);
  if (size === 7) countSeven(counts, total, onProgress);
  else if (size === 6) countSix(counts, total, onProgress);
  else countFive(counts);
  const perStrength = Float64Array.from(counts);
  const tables = strengthTables();

  const categories = Object.fromEntries(POKER_CATEGORIES.map((name) => [name, 0n])) as Record<
    PokerCategory,
    bigint
  >;
  const categoryOf = tables.categoryOfStrength;
  let counted = 0n;
  for (let strength = 1; strength <= STRENGTH_COUNT; strength++) {
    const count = BigInt(perStrength[strength]!);
    const name = POKER_CATEGORIES[categoryOf[strength]!]!;
    categories[name] += count;
    counted += count;
  }
  return { cards: size, total: counted, categories, byStrength: perStrength };
}

// One function per hand size keeps each loop nest small enough for V8 to
// optimise whole. Uint32 counters: 133,784,560 fits.

function countSeven(counts: Uint32Array, total: number, onProgress?: ProgressListener): void {
  const flush = strengthTables().flush;
  const states = rankStateTable();
  const held = new Int32Array(7);
  let done = 0;
  for (let a = 0; a < 46; a++) {
    held[0] = a;
    const ka = states[a >> 2]!;
    const sa = suitIncrement(a);
    for (let b = a + 1; b < 47; b++) {
      held[1] = b;
      const kb = states[ka + (b >> 2)]!;
      const sb = sa + suitIncrement(b);
      for (let c = b + 1; c < 48; c++) {
        held[2] = c;
        const kc = states[kb + (c >> 2)]!;
        const sc = sb + suitIncrement(c);
        for (let d = c + 1; d < 49; d++) {
          held[3] = d;
          const kd = states[kc + (d >> 2)]!;
          const sd = sc + suitIncrement(d);
          for (let e = d + 1; e < 50; e++) {
            held[4] = e;
            const ke = states[kd + (e >> 2)]!;
            const se = sd + suitIncrement(e);
            if (((se + NO_THREE_PROBE) & FLUSH_BITS) === 0) {
              countLastTwoByRank(counts, states, ke, e + 1);
              continue;
            }
            for (let f = e + 1; f < 51; f++) {
              held[5] = f;
              const kf = states[ke + (f >> 2)]!;
              const sf = se + suitIncrement(f);
              if (((sf + NO_FOUR_PROBE) & FLUSH_BITS) === 0) {
                countLastByRank(counts, states, kf, f + 1);
                continue;
              }
              for (let g = f + 1; g < 52; g++) {
                const suits = sf + suitIncrement(g);
                if (((suits + FLUSH_PROBE) & FLUSH_BITS) === 0) {
                  counts[states[kf + (g >> 2)]!]!++;
                } else {
                  held[6] = g;
                  counts[flush[flushMask(suits, held, 7)]!]!++;
                }
              }
            }
          }
        }
        done += HANDS_AFTER[51 - c]![4]!;
        onProgress?.(done, total);
      }
    }
  }
}

// Suit isomorphism: once no flush can come, the cards of one rank give one
// strength, so they are counted together with one lookup.

/** The last card from `from` on, by rank, after a six-card row that can make no flush. */
function countLastByRank(counts: Uint32Array, states: Int32Array, row: number, from: number): void {
  for (let g = from; g < 52; ) {
    const rank = g >> 2;
    const next = (rank + 1) << 2;
    counts[states[row + rank]!]! += next - g;
    g = next;
  }
}

/** The last two cards from `from` on, by rank, after a five-card row that can make no flush. */
function countLastTwoByRank(
  counts: Uint32Array,
  states: Int32Array,
  row: number,
  from: number,
): void {
  for (let f = from; f < 51; ) {
    const rankF = f >> 2;
    const next = (rankF + 1) << 2;
    const left = next - f;
    const rowF = states[row + rankF]!;
    counts[states[rowF + rankF]!]! += (left * (left - 1)) / 2;
    for (let rankG = rankF + 1; rankG < 13; rankG++) counts[states[rowF + rankG]!]! += left * 4;
    f = next;
  }
}

function countSix(counts: Uint32Array, total: number, onProgress?: ProgressListener): void {
  const tables = strengthTables();
  const flush = tables.flush;
  const key = tables.cardKey7;
  const six = nonFlush6Table();
  const held = new Int32Array(6);
  let done = 0;
  for (let a = 0; a < 47; a++) {
    held[0] = a;
    const ka = key[a]!;
    const sa = suitIncrement(a);
    for (let b = a + 1; b < 48; b++) {
      held[1] = b;
      const kb = ka + key[b]!;
      const sb = sa + suitIncrement(b);
      for (let c = b + 1; c < 49; c++) {
        held[2] = c;
        const kc = kb + key[c]!;
        const sc = sb + suitIncrement(c);
        for (let d = c + 1; d < 50; d++) {
          held[3] = d;
          const kd = kc + key[d]!;
          const sd = sc + suitIncrement(d);
          if (((sd + NO_THREE_PROBE) & FLUSH_BITS) === 0) {
            countLastTwoByKey(counts, six, kd, d + 1);
            continue;
          }
          for (let e = d + 1; e < 51; e++) {
            held[4] = e;
            const ke = kd + key[e]!;
            const se = sd + suitIncrement(e);
            if (((se + NO_FOUR_PROBE) & FLUSH_BITS) === 0) {
              countLastByKey(counts, six, ke, e + 1);
              continue;
            }
            for (let f = e + 1; f < 52; f++) {
              const suits = se + suitIncrement(f);
              if (((suits + FLUSH_PROBE) & FLUSH_BITS) !== 0) {
                held[5] = f;
                counts[flush[flushMask(suits, held, 6)]!]!++;
              } else counts[six[ke + key[f]!]!]!++;
            }
          }
        }
        done += HANDS_AFTER[51 - c]![3]!;
        onProgress?.(done, total);
      }
    }
  }
}

// As countLastByRank and countLastTwoByRank, on seven-card rank key sums
// (the six-card table) instead of rank state rows.

/** The last card from `from` on, by rank, after five cards (key sum `sum`) that can make no flush. */
function countLastByKey(counts: Uint32Array, six: Uint16Array, sum: number, from: number): void {
  for (let g = from; g < 52; ) {
    const rank = g >> 2;
    const next = (rank + 1) << 2;
    counts[six[sum + RANK_KEYS_7[rank]!]!]! += next - g;
    g = next;
  }
}

/** The last two cards from `from` on, by rank, after four cards (key sum `sum`) that can make no flush. */
function countLastTwoByKey(counts: Uint32Array, six: Uint16Array, sum: number, from: number): void {
  for (let f = from; f < 51; ) {
    const rankF = f >> 2;
    const next = (rankF + 1) << 2;
    const left = next - f;
    const sumF = sum + RANK_KEYS_7[rankF]!;
    counts[six[sumF + RANK_KEYS_7[rankF]!]!]! += (left * (left - 1)) / 2;
    for (let rankG = rankF + 1; rankG < 13; rankG++)
      counts[six[sumF + RANK_KEYS_7[rankG]!]!]! += left * 4;
    f = next;
  }
}

function countFive(counts: Uint32Array): void {
  const tables = strengthTables();
  const flush = tables.flush;
  const key = tables.cardKey5;
  const nonFlush = tables.nonFlush5;
  const held = new Int32Array(5);
  for (let a = 0; a < 48; a++) {
    held[0] = a;
    for (let b = a + 1; b < 49; b++) {
      held[1] = b;
      for (let c = b + 1; c < 50; c++) {
        held[2] = c;
        for (let d = c + 1; d < 51; d++) {
          held[3] = d;
          const kd = key[a]! + key[b]! + key[c]! + key[d]!;
          const sd = suitIncrement(a) + suitIncrement(b) + suitIncrement(c) + suitIncrement(d);
          for (let e = d + 1; e < 52; e++) {
            const suits = sd + suitIncrement(e);
            if (((suits + FLUSH_PROBE) & FLUSH_BITS) === 0) counts[nonFlush[kd + key[e]!]!]!++;
            else {
              held[4] = e;
              counts[flush[flushMask(suits, held, 5)]!]!++;
            }
          }
        }
      }
    }
  }
}

/** HANDS_AFTER[n][k] = C(n, k) as a double, for progress counts. */
const HANDS_AFTER: readonly (readonly number[])[] = Array.from({ length: 52 }, (_, n) =>
  Array.from({ length: 8 }, (_, k) => Number(choose(n, k))),
);
