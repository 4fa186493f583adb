/**
 * Precomputed tables of the poker evaluator (000 § 4; 001 § 3; 003 § 28(14)).
 *
 * Cards are integers 0..51: `rank * 4 + suit`, rank 0 the deuce .. 12 the ace,
 * suit 0..3 in the order S H D C (the same layout as the `phe` package, so
 * benchmarks hand both evaluators the same integers).
 *
 * A hand is scored by its *strength*, 1 (7-5-4-3-2 offsuit) .. 7462 (royal
 * flush): every distinct five-card value, densely numbered, higher better.
 * The tables map straight to strengths:
 * - FLUSH[mask]: the best hand within one suit's 13-bit rank mask (5-7 bits),
 *   a straight flush or a flush. With at most seven cards, a hand holding a
 *   flush cannot also hold quads or a full house (that would need eight
 *   cards), so a flush found is the answer.
 * - NONFLUSH7[key]: the best five of a 5, 6 or 7-card rank multiset ignoring
 *   suits. `key` is the sum of per-rank keys chosen so that multisets of the
 *   same size never collide (the keys are those of SKPokerEval's seven-card
 *   table; the test suite re-verifies uniqueness). Different sizes may
 *   collide, so this table serves 7-card hands only.
 * - NONFLUSH5[key]: the same for exactly five cards with smaller keys; six
 *   cards take the best of the six five-card keys (the sum minus one card).
 */

/** Category classes in value order; straight flush includes the royal. */
export const CATEGORY_CLASS_NAMES = [
  'high_card',
  'one_pair',
  'two_pair',
  'three_of_a_kind',
  'straight',
  'flush',
  'full_house',
  'four_of_a_kind',
  'straight_flush',
] as const;

/** Seven-card rank keys: sums of up to 4 of each, 7 in all, are unique per hand size. */
export const RANK_KEYS_7: readonly number[] = [
  0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181,
];
/** Five-card rank keys: sums of exactly five (up to 4 of a rank) are unique. */
export const RANK_KEYS_5: readonly number[] = [
  0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415,
];

const ACE = 12;
const WHEEL_MASK = (1 << ACE) | 0b1111; // A-2-3-4-5

/**
 * Packs a category class and up to five deciding ranks (0 deuce .. 12 ace)
 * into one comparable number: class in bits 20-23, then one nibble per rank
 * holding rank + 2 (2..14), most significant first.
 */
export function packValue(categoryClass: number, ranks: readonly number[]): number {
  let value = categoryClass;
  for (let i = 0; i < 5; i++) {
    const rank = ranks[i];
    value = value * 16 + (rank === undefined ? 0 : rank + 2);
  }
  return value;
}

/** Highest rank of the best straight within a rank mask (3 = five-high wheel), or -1. */
export function straightHigh(mask: number): number {
  for (let high = ACE; high >= 4; high--) {
    const run = 0b11111 << (high - 4);
    if ((mask & run) === run) return high;
  }
  return (mask & WHEEL_MASK) === WHEEL_MASK ? 3 : -1;
}

function topRanks(mask: number, count: number): number[] {
  const ranks: number[] = [];
  for (let rank = ACE; rank >= 0 && ranks.length < count; rank--) {
    if (mask & (1 << rank)) ranks.push(rank);
  }
  return ranks;
}

/** Best suited five-card value within one suit's rank mask (at least five bits). */
export function flushValueOfMask(mask: number): number {
  const high = straightHigh(mask);
  if (high >= 0) return packValue(8, [high]);
  return packValue(5, topRanks(mask, 5));
}

/** Best five-card value, ignoring suits, of a rank multiset given as counts per rank. */
export function nonFlushValueOfCounts(counts: readonly number[]): number {
  let quads = -1;
  const trips: number[] = [];
  const pairs: number[] = [];
  let present = 0;
  for (let rank = ACE; rank >= 0; rank--) {
    const count = counts[rank] ?? 0;
    if (count === 0) continue;
    present |= 1 << rank;
    if (count === 4 && quads < 0) quads = rank;
    else if (count >= 3) trips.push(rank);
    else if (count === 2) pairs.push(rank);
  }
  const kickers = (excluded: readonly number[], count: number): number[] => {
    let mask = present;
    for (const rank of excluded) mask &= ~(1 << rank);
    return topRanks(mask, count);
  };
  if (quads >= 0) return packValue(7, [quads, ...kickers([quads], 1)]);
  if (trips.length > 0) {
    // A second trips serves as the pair of a full house.
    const pairRank = Math.max(trips[1] ?? -1, pairs[0] ?? -1);
    if (pairRank >= 0) return packValue(6, [trips[0]!, pairRank]);
  }
  const high = straightHigh(present);
  if (high >= 0) return packValue(4, [high]);
  if (trips.length > 0) return packValue(3, [trips[0]!, ...kickers([trips[0]!], 2)]);
  if (pairs.length >= 2) {
    const top = [pairs[0]!, pairs[1]!];
    return packValue(2, [...top, ...kickers(top, 1)]);
  }
  if (pairs.length === 1) return packValue(1, [pairs[0]!, ...kickers([pairs[0]!], 3)]);
  return packValue(0, topRanks(present, 5));
}

/** Calls `visit` with the counts of every rank multiset of `size` cards (at most 4 of a rank). */
function forEachRankMultiset(size: number, visit: (counts: readonly number[]) => void): void {
  const counts = new Array<number>(13).fill(0);
  const recurse = (rank: number, left: number): void => {
    if (rank === 13) {
      if (left === 0) visit(counts);
      return;
    }
    for (let count = 0; count <= Math.min(4, left); count++) {
      counts[rank] = count;
      recurse(rank + 1, left - count);
    }
    counts[rank] = 0;
  };
  recurse(0, size);
}

function keyOf(counts: readonly number[], keys: readonly number[]): number {
  let key = 0;
  for (let rank = 0; rank < 13; rank++) key += (counts[rank] ?? 0) * keys[rank]!;
  return key;
}

export interface StrengthTables {
  /** strength -> packed value (index 0 unused). */
  readonly valueOfStrength: Float64Array;
  /** strength -> category index in POKER_CATEGORY_ORDER (0 royal .. 9 high card). */
  readonly categoryOfStrength: Uint8Array;
  readonly flush: Uint16Array;
  readonly nonFlush5: Uint16Array;
  /** Per card int: its five-card rank key. */
  readonly cardKey5: Int32Array;
  /** Per card int: its seven-card rank key. */
  readonly cardKey7: Int32Array;
}

export const STRENGTH_COUNT = 7462;

function categoryIndexOfValue(value: number): number {
  const categoryClass = Math.floor(value / 0x100000);
  if (categoryClass === 8) return (value & 0xf0000) >> 16 === ACE + 2 ? 0 : 1;
  return 9 - categoryClass;
}

let base: StrengthTables | undefined;
let nonFlush7: Uint16Array | undefined;
let nonFlush6: Uint16Array | undefined;
let rankStates: Int32Array | undefined;

/** The five-card and flush tables, built on first use (a few milliseconds). */
export function strengthTables(): StrengthTables {
  if (base) return base;
  const values = new Set<number>();
  const flushValues = new Float64Array(8192);
  for (let mask = 0; mask < 8192; mask++) {
    if (popcount(mask) >= 5) {
      flushValues[mask] = flushValueOfMask(mask);
      if (popcount(mask) === 5) values.add(flushValues[mask]!);
    }
  }
  const fiveEntries: Array<[number, number]> = [];
  forEachRankMultiset(5, (counts) => {
    const value = nonFlushValueOfCounts(counts);
    values.add(value);
    fiveEntries.push([keyOf(counts, RANK_KEYS_5), value]);
  });
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length !== STRENGTH_COUNT) {
    throw new Error(
      `evaluator tables: ${sorted.length} distinct hands, expected ${STRENGTH_COUNT}`,
    );
  }
  const strengthOfValue = new Map<number, number>();
  const valueOfStrength = new Float64Array(STRENGTH_COUNT + 1);
  const categoryOfStrength = new Uint8Array(STRENGTH_COUNT + 1);
  sorted.forEach((value, index) => {
    strengthOfValue.set(value, index + 1);
    valueOfStrength[index + 1] = value;
    categoryOfStrength[index + 1] = categoryIndexOfValue(value);
  });
  const flush = new Uint16Array(8192);
  for (let mask = 0; mask < 8192; mask++) {
    if (popcount(mask) >= 5) flush[mask] = strengthOfValue.get(flushValues[mask]!)!;
  }
  const nonFlush5 = new Uint16Array(
    keyOf([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 4], RANK_KEYS_5) + 1,
  );
  for (const [key, value] of fiveEntries) nonFlush5[key] = strengthOfValue.get(value)!;
  const cardKey5 = new Int32Array(52);
  const cardKey7 = new Int32Array(52);
  for (let card = 0; card < 52; card++) {
    cardKey5[card] = RANK_KEYS_5[card >> 2]!;
    cardKey7[card] = RANK_KEYS_7[card >> 2]!;
  }
  base = { valueOfStrength, categoryOfStrength, flush, nonFlush5, cardKey5, cardKey7 };
  return base;
}

/** The seven-card non-flush table (15.6 MB), built on first use (tens of milliseconds). */
export function nonFlush7Table(): Uint16Array {
  if (nonFlush7) return nonFlush7;
  const { valueOfStrength } = strengthTables();
  const strengthOfValue = new Map<number, number>();
  for (let strength = 1; strength <= STRENGTH_COUNT; strength++) {
    strengthOfValue.set(valueOfStrength[strength]!, strength);
  }
  const table = new Uint16Array(keyOf([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 4], RANK_KEYS_7) + 1);
  forEachRankMultiset(7, (counts) => {
    table[keyOf(counts, RANK_KEYS_7)] = strengthOfValue.get(nonFlushValueOfCounts(counts))!;
  });
  nonFlush7 = table;
  return table;
}

/**
 * The six-card non-flush table: the best five of a six-card rank multiset,
 * keyed by the sum of its seven-card rank keys (unique within a hand size),
 * so a six-card hand costs one lookup instead of the best of six five-card
 * ones. Built on first use (tens of milliseconds).
 */
export function nonFlush6Table(): Uint16Array {
  if (nonFlush6) return nonFlush6;
  const { valueOfStrength } = strengthTables();
  const strengthOfValue = new Map<number, number>();
  for (let strength = 1; strength <= STRENGTH_COUNT; strength++) {
    strengthOfValue.set(valueOfStrength[strength]!, strength);
  }
  const table = new Uint16Array(keyOf([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 4], RANK_KEYS_7) + 1);
  forEachRankMultiset(6, (counts) => {
    table[keyOf(counts, RANK_KEYS_7)] = strengthOfValue.get(nonFlushValueOfCounts(counts))!;
  });
  nonFlush6 = table;
  return table;
}

/**
 * The rank state table, for enumerations that add one card at a time: suits
 * apart (a flush is read from the suit counts and the flush table), a
 * partial hand of up to six cards is its rank multiset, one row of 13
 * entries each (26,950 rows, 1.4 MB, so it stays in the cache). Row 0 is the
 * empty hand; entry `row + rank` is the next partial hand's row offset, and
 * in a row of six cards the seven-card hand's non-flush strength. Entries
 * for a fifth card of a rank are 0 (never reached from real cards).
 */
export function rankStateTable(): Int32Array {
  if (rankStates) return rankStates;
  const nonFlush = nonFlush7Table();
  // Flat buffers, one 13-entry slice per row: no array per row to allocate.
  const table = new Int32Array(RANK_STATE_ROWS * 13);
  const counts = new Uint8Array(RANK_STATE_ROWS * 13);
  const sums = new Int32Array(RANK_STATE_ROWS);
  let rows = 1;
  let levelStart = 0;
  let levelEnd = 1;
  for (let cards = 1; cards <= 7; cards++) {
    const index = new Map<number, number>();
    for (let row = levelStart; row < levelEnd; row++) {
      const base = row * 13;
      for (let rank = 0; rank < 13; rank++) {
        if (counts[base + rank]! >= 4) continue;
        const sum = sums[row]! + RANK_KEYS_7[rank]!;
        if (cards === 7) {
          table[base + rank] = nonFlush[sum]!;
          continue;
        }
        let target = index.get(sum);
        if (target === undefined) {
          target = rows++;
          index.set(sum, target);
          sums[target] = sum;
          counts.copyWithin(target * 13, base, base + 13);
          counts[target * 13 + rank]!++;
        }
        table[base + rank] = target * 13;
      }
    }
    levelStart = levelEnd;
    levelEnd = rows;
  }
  if (rows !== RANK_STATE_ROWS)
    throw new Error(`rank state table: ${rows} rows, expected ${RANK_STATE_ROWS}`);
  rankStates = table;
  return table;
}

/** Rank multisets of 0..6 cards, at most four of a rank: 1 + 13 + 91 + 455 + 1,820 + 6,175 + 18,395. */
const RANK_STATE_ROWS = 26_950;

/** Checks that the rank keys never collide within a hand size (for the test suite). */
export function rankKeyCollisions(keys: readonly number[], size: number): number {
  const seen = new Set<number>();
  let collisions = 0;
  forEachRankMultiset(size, (counts) => {
    const key = keyOf(counts, keys);
    if (seen.has(key)) collisions++;
    seen.add(key);
  });
  return collisions;
}

function popcount(mask: number): number {
  let count = 0;
  for (let bits = mask; bits !== 0; bits &= bits - 1) count++;
  return count;
}
