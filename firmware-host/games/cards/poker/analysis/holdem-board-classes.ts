/**
 * Hold'em against the dealer on one board, counted by card classes instead
 * of card by card (issue 16 item 6; the card-by-card sweep is
 * holdem-showdown.ts's `countHoldemBoard`).
 *
 * On a board, a hand's seven-card strength depends only on its cards'
 * ranks and on which of them are in the board's flush suit: the one suit
 * with three or more board cards (two suits cannot both have three of five
 * cards). Outside that suit no flush can come, so every unseen card is one
 * of at most 26 classes, (rank, in the flush suit or not), holding n cards
 * each. A two-card hand is a pair of classes (a type, at most 351, usually
 * 91), and the card-by-card sweep becomes a sweep over types weighted by
 * how many hands each holds: for one player hand of type {a, b}, the dealer
 * hands below a strength t that share no card with it are
 *   below(t) − below_a(t) − below_b(t) (+ 1 if the hand itself is below t),
 * where below_c counts the hands below t holding one given card of class c,
 * the same for every card of the class (the sweep, holdem-dealer-sweep.ts,
 * is the card-by-card one's too: there every card is a class of its own).
 *
 * Boards alike in those classes give the same counts, so the 2,598,960
 * boards fall into far fewer board classes: without a flush suit the rank
 * multiset of the board (6,175 of them), with one the flush suit's rank mask
 * and the other cards' ranks. `holdemBoardClasses` lists them with weights
 * (boards per class).
 *
 * Every count is an integer below 2^53 (the grand total is 2.78·10^12), so
 * sums in doubles are exact.
 */
import { rankStateTable, strengthTables } from '../evaluator-tables.ts';
import { DealerSweep, SWEEP_ENTRIES, sweepDealerHands } from './holdem-dealer-sweep.ts';

const CLASSES = 26;
const TYPES = (CLASSES * (CLASSES + 1)) / 2;

/** One class of boards: a board that stands for all, and how many boards it stands for. */
export interface HoldemBoardClass {
  readonly board: readonly number[];
  readonly weight: number;
}

/** Bits set per 13-bit rank mask. */
const POPCOUNT = (() => {
  const bits = new Uint8Array(8192);
  for (let mask = 1; mask < 8192; mask++) bits[mask] = bits[mask >> 1]! + (mask & 1);
  return bits;
})();

let boardClasses: HoldemBoardClass[] | undefined;

/**
 * The board classes of the full deck, in a fixed order; weights sum to
 * C(52, 5). Listed directly: every rank multiset of five with the boards
 * that spread it at most two to a suit, then (times 4 suits) every rank
 * mask of 3, 4 or 5 cards in one suit with the ranks of the other cards in
 * the other three suits.
 */
export function holdemBoardClasses(): readonly HoldemBoardClass[] {
  if (boardClasses) return boardClasses;
  const classes: HoldemBoardClass[] = [];
  const counts = new Array<number>(13).fill(0);
  const spreadByShape = new Map<string, number>();
  const multisets = (rank: number, left: number): void => {
    if (left === 0) {
      // The count depends on the multiplicities alone (six shapes: 11111 .. 41).
      const shape = counts
        .filter((k) => k > 0)
        .sort()
        .join('');
      let weight = spreadByShape.get(shape);
      if (weight === undefined) {
        weight = spreadBoards(counts);
        spreadByShape.set(shape, weight);
      }
      if (weight > 0) classes.push({ board: spreadBoard(counts), weight });
      return;
    }
    if (rank === 13) return;
    for (let k = Math.min(4, left); k >= 0; k--) {
      counts[rank] = k;
      multisets(rank + 1, left - k);
    }
    counts[rank] = 0;
  };
  multisets(0, 5);
  for (let suited = 3; suited <= 5; suited++) {
    for (let mask = 0; mask < 8192; mask++) {
      if (POPCOUNT[mask] !== suited) continue;
      const board: number[] = [];
      for (let rank = 0; rank < 13; rank++) if ((mask >> rank) & 1) board.push(rank * 4);
      if (suited === 5) classes.push({ board, weight: 4 });
      else if (suited === 4)
        for (let rank = 0; rank < 13; rank++)
          classes.push({ board: board.concat(rank * 4 + 1), weight: 4 * 3 });
      else
        for (let first = 0; first < 13; first++)
          for (let second = first; second < 13; second++)
            classes.push({
              board: board.concat(first * 4 + 1, second * 4 + 2),
              weight: 4 * (first === second ? 3 : 9),
            });
    }
  }
  boardClasses = classes;
  return classes;
}

/**
 * SPREAD[state * 16 + suits]: the suit counts (0..2 each, base 3) after
 * adding one card in each suit of the 4-bit set `suits`, or -1 past two.
 */
const SPREAD = (() => {
  const table = new Int8Array(81 * 16);
  for (let state = 0; state < 81; state++)
    for (let suits = 0; suits < 16; suits++) {
      let target = state;
      for (let suit = 0, place = 1; suit < 4; suit++, place *= 3) {
        if (((suits >> suit) & 1) === 0) continue;
        target = Math.floor(state / place) % 3 === 2 || target < 0 ? -1 : target + place;
      }
      table[state * 16 + suits] = target;
    }
  return table;
})();

/** Boards with these rank counts and at most two cards of a suit: a count over suit subsets. */
function spreadBoards(counts: readonly number[]): number {
  let ways = SPREAD_WAYS[0]!;
  let next = SPREAD_WAYS[1]!;
  ways.fill(0);
  ways[0] = 1;
  for (const k of counts) {
    if (k === 0) continue;
    next.fill(0);
    for (let state = 0; state < 81; state++) {
      const here = ways[state]!;
      if (here === 0) continue;
      for (let suits = 0; suits < 16; suits++) {
        const target = SPREAD[state * 16 + suits]!;
        if (POPCOUNT[suits] === k && target >= 0) next[target]! += here;
      }
    }
    [ways, next] = [next, ways];
  }
  let sum = 0;
  for (let state = 0; state < 81; state++) sum += ways[state]!;
  return sum;
}

/** spreadBoards's two buffers of ways per suit counts, reused. */
const SPREAD_WAYS = [new Float64Array(81), new Float64Array(81)];

/** One board with these rank counts, each rank's cards to the least used suits (never three). */
function spreadBoard(counts: readonly number[]): number[] {
  const used = [0, 0, 0, 0];
  const board: number[] = [];
  counts.forEach((k, rank) => {
    const suits = [0, 1, 2, 3].sort((a, b) => used[a]! - used[b]! || a - b).slice(0, k);
    for (const suit of suits) {
      used[suit]!++;
      board.push(rank * 4 + suit);
    }
  });
  return board.sort((a, b) => a - b);
}

/**
 * The key of a board's class: without a flush suit its sorted ranks in
 * base 13; with one, above those, the suit's rank mask and the sorted ranks
 * of the other (up to two) cards.
 */
export function boardClassKey(board: readonly number[]): number {
  const suitCounts = [0, 0, 0, 0];
  for (const card of board) suitCounts[card & 3]!++;
  const flushSuit = suitCounts.findIndex((count) => count >= 3);
  if (flushSuit < 0) {
    const ranks = board.map((card) => card >> 2).sort((a, b) => a - b);
    return ranks.reduce((key, rank) => key * 13 + rank, 0);
  }
  let mask = 0;
  const others: number[] = [];
  for (const card of board) {
    if ((card & 3) === flushSuit) mask |= 1 << (card >> 2);
    else others.push(card >> 2);
  }
  others.sort((a, b) => a - b);
  return 13 ** 5 + (mask * 13 + (others[0] ?? 0)) * 13 + (others[1] ?? 0);
}

/** Reusable buffers for countHoldemBoardByClasses. */
export class ClassScratch {
  readonly onBoard = new Uint8Array(52);
  readonly classRank = new Int32Array(CLASSES);
  readonly classSuited = new Uint8Array(CLASSES);
  /** The types (pairs of classes) as the sweep's entries, and its per-class counters. */
  readonly sweep = new DealerSweep(TYPES, CLASSES);
}

/**
 * Counts for one board, added into `into` (4 slots per category of the
 * player's hand: not qualified, win, tie, lose) times `weight`, exactly as
 * `countHoldemBoard` counts them. `qualifier`: the least strength that
 * qualifies the dealer (1 for no qualifier).
 */
export function countHoldemBoardByClasses(
  board: readonly number[],
  qualifier: number,
  into: Float64Array,
  weight = 1,
  scratch: ClassScratch = new ClassScratch(),
): void {
  const tables = strengthTables();
  const flush = tables.flush;
  const categoryOf = tables.categoryOfStrength;
  // The rank state table (1.4 MB) rather than the seven-card table (15.6 MB): two lookups that hit the cache.
  const states = rankStateTable();
  const { onBoard, classRank, classSuited, sweep } = scratch;
  const { classCards, first: typeFirst, second: typeSecond, hands: typeHands, keys } = sweep;

  const suitCounts = [0, 0, 0, 0];
  let boardRow = 0;
  onBoard.fill(0);
  for (const card of board) {
    onBoard[card] = 1;
    boardRow = states[boardRow + (card >> 2)]!;
    suitCounts[card & 3]!++;
  }
  const flushSuit = suitCounts.findIndex((count) => count >= 3);
  let boardMask = 0;
  if (flushSuit >= 0)
    for (const card of board) if ((card & 3) === flushSuit) boardMask |= 1 << (card >> 2);

  // The classes: per rank, the unseen cards outside the flush suit, then the flush suit's card.
  let classes = 0;
  for (let rank = 0; rank < 13; rank++) {
    let plain = 0;
    for (let suit = 0; suit < 4; suit++)
      if (suit !== flushSuit && onBoard[rank * 4 + suit] === 0) plain++;
    if (plain > 0) {
      classRank[classes] = rank;
      classSuited[classes] = 0;
      classCards[classes++] = plain;
    }
    if (flushSuit >= 0 && onBoard[rank * 4 + flushSuit] === 0) {
      classRank[classes] = rank;
      classSuited[classes] = 1;
      classCards[classes++] = 1;
    }
  }

  // The types (pairs of classes) with their hands and strengths.
  let types = 0;
  for (let c = 0; c < classes; c++) {
    const rowC = states[boardRow + classRank[c]!]!;
    const maskC = classSuited[c] === 1 ? boardMask | (1 << classRank[c]!) : boardMask;
    for (let d = c; d < classes; d++) {
      const hands =
        c === d ? (classCards[c]! * (classCards[c]! - 1)) / 2 : classCards[c]! * classCards[d]!;
      if (hands === 0) continue;
      const mask = classSuited[d] === 1 ? maskC | (1 << classRank[d]!) : maskC;
      const strength =
        flushSuit >= 0 && POPCOUNT[mask]! >= 5 ? flush[mask]! : states[rowC + classRank[d]!]!;
      typeFirst[types] = c;
      typeSecond[types] = d;
      typeHands[types] = hands;
      keys[types] = strength * SWEEP_ENTRIES + types;
      types++;
    }
  }
  sweepDealerHands(sweep, types, qualifier, categoryOf, into, weight);
}
