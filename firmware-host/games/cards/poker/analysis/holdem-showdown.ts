/**
 * Hold'em against the dealer, exactly: the player's two cards, the dealer's
 * two and a five-card board from one 52-card deck, each side playing the
 * best five of its seven (001 § 3; 004 Texas Hold'em). For every category of
 * the player's hand, the deals in which the dealer does not qualify, and in
 * which a qualifying dealer loses, ties or wins.
 *
 * C(52,5)·C(47,2)·C(45,2) ≈ 2.78·10^12 deals are too many to visit one by
 * one, so on a board the two-card hands are evaluated once and sorted by
 * strength; for a player hand {a, b}, the dealer hands below a strength t
 * that share no card with it are
 *   below(t) − below_a(t) − below_b(t) (+ 1 if {a, b} itself is below t),
 * where below_x counts the hands below t holding card x (inclusion-
 * exclusion), so one sweep up the sorted list counts every pairing
 * (holdem-dealer-sweep.ts, the sweep both ways of counting share).
 * `countHoldemBoard` sweeps the 1,081 hands card by card (the reference the
 * tests hold the fast path to); the enumeration sweeps classes of cards on
 * 42,783 classes of boards instead (holdem-board-classes.ts), about ten
 * times less work than card by card on the 134,459 suit patterns of boards.
 * Every count is an integer below 2^53 (the grand total is 2.78·10^12), so
 * the running sums in doubles are exact; they are returned as bigints.
 */

import { choose } from '../../../../analysis/exact.ts';
import { POKER_CATEGORIES } from '../evaluator.ts';
import { nonFlush7Table, strengthTables } from '../evaluator-tables.ts';
import {
  ClassScratch,
  countHoldemBoardByClasses,
  holdemBoardClasses,
} from './holdem-board-classes.ts';
import { DealerSweep, SWEEP_ENTRIES, sweepDealerHands } from './holdem-dealer-sweep.ts';
import type { ProgressListener } from './poker.ts';
import {
  type ShowdownCategorySums,
  type StudyTable,
  showdownCategoryJson,
  showdownCategoryTable,
} from './study.ts';

/** Per category of the player's seven-card hand, index as POKER_CATEGORIES (0 royal .. 9 high card). */
export interface HoldemShowdownCounts extends ShowdownCategorySums {
  /** Deals (board, player's two, dealer's two): C(52,5)·C(47,2)·C(45,2). */
  readonly total: bigint;
}

const FLUSH_PROBE = 0x3333;
const FLUSH_BITS = 0x8888;
const PAIRS = 1081; // C(47, 2)

function suitIncrement(card: number): number {
  return 1 << ((card & 3) << 2);
}

/**
 * Counts for one board, added into `into` (4 slots per category: not
 * qualified, win, tie, lose) times `weight`. `qualifier`: the least
 * strength that qualifies the dealer (1 for no qualifier).
 */
export function countHoldemBoard(
  board: readonly number[],
  qualifier: number,
  into: Float64Array,
  weight = 1,
  scratch: BoardScratch = new BoardScratch(),
): void {
  const tables = strengthTables();
  const flush = tables.flush;
  const key = tables.cardKey7;
  const categoryOf = tables.categoryOfStrength;
  const nonFlush = nonFlush7Table();
  const sweep = scratch.sweep;
  const { first, second, keys } = sweep;
  let boardKey = 0;
  let boardSuits = 0;
  const onBoard = scratch.onBoard;
  const suitMasks = scratch.suitMasks;
  onBoard.fill(0);
  suitMasks.fill(0);
  for (const card of board) {
    boardKey += key[card]!;
    boardSuits += suitIncrement(card);
    onBoard[card] = 1;
    suitMasks[card & 3]! |= 1 << (card >> 2);
  }

  // Evaluate the 1,081 two-card hands from the other 47 cards. Without a
  // flush the strength depends on the two ranks alone: look each rank pair
  // up once (the seven-card table is large, and lookups miss the cache).
  const byRanks = scratch.byRanks;
  byRanks.fill(0);
  let n = 0;
  for (let a = 0; a < 52; a++) {
    if (onBoard[a] === 1) continue;
    const ka = boardKey + key[a]!;
    const rowA = (a >> 2) * 13;
    const sa = boardSuits + suitIncrement(a);
    for (let b = a + 1; b < 52; b++) {
      if (onBoard[b] === 1) continue;
      const suits = sa + suitIncrement(b);
      let strength: number;
      if (((suits + FLUSH_PROBE) & FLUSH_BITS) === 0) {
        const cell = rowA + (b >> 2);
        strength = byRanks[cell]!;
        if (strength === 0) {
          strength = nonFlush[ka + key[b]!]!;
          byRanks[cell] = strength;
        }
      } else {
        const suit = (31 - Math.clz32((suits + FLUSH_PROBE) & FLUSH_BITS)) >> 2;
        let mask = suitMasks[suit]!;
        if ((a & 3) === suit) mask |= 1 << (a >> 2);
        if ((b & 3) === suit) mask |= 1 << (b >> 2);
        strength = flush[mask]!;
      }
      first[n] = a;
      second[n] = b;
      keys[n] = strength * SWEEP_ENTRIES + n;
      n++;
    }
  }
  sweepDealerHands(sweep, n, qualifier, categoryOf, into, weight);
}

/** Reusable buffers for countHoldemBoard. */
export class BoardScratch {
  readonly onBoard = new Uint8Array(52);
  readonly suitMasks = new Int32Array(4);
  readonly byRanks = new Int32Array(13 * 13);
  /** The 1,081 hands as the sweep's entries, each card a class of its own. */
  readonly sweep = new DealerSweep(PAIRS, 52);

  constructor() {
    this.sweep.hands.fill(1);
    this.sweep.classCards.fill(1);
  }
}

/**
 * Showdowns computed elsewhere (the CLI splits the boards over worker
 * threads), by qualifier: `holdemShowdown` returns these instead of
 * enumerating again. The counts are exact, whoever summed them.
 */
const provided = new Map<number, HoldemShowdownCounts>();

export function provideHoldemShowdown(qualifier: number, counts: HoldemShowdownCounts): void {
  provided.set(qualifier, counts);
}

/**
 * One part of the enumeration: the board classes (holdem-board-classes.ts)
 * whose index is `part` modulo `parts`, as raw counts, 4 slots per category
 * (not qualified, win, tie, lose). Every count is an integer below 2^53, so
 * parts add up exactly in any order.
 */
export function holdemShowdownPart(
  qualifier: number,
  part = 0,
  parts = 1,
  onProgress?: ProgressListener,
): Float64Array {
  const boards = holdemBoardClasses();
  const counts = new Float64Array(POKER_CATEGORIES.length * 4);
  const scratch = new ClassScratch();
  const boardTotal = Number(choose(52, 5));
  let done = 0;
  let sinceReport = 0;
  for (let index = part; index < boards.length; index += parts) {
    const { board, weight } = boards[index]!;
    countHoldemBoardByClasses(board, qualifier, counts, weight, scratch);
    done += weight;
    if (++sinceReport === 1024) {
      sinceReport = 0;
      onProgress?.(done, boardTotal);
    }
  }
  onProgress?.(done, boardTotal);
  return counts;
}

/** The showdown from the raw counts of all the parts. */
export function holdemShowdownOfParts(parts: readonly Float64Array[]): HoldemShowdownCounts {
  const counts = new Float64Array(POKER_CATEGORIES.length * 4);
  for (const partCounts of parts)
    for (let i = 0; i < counts.length; i++) counts[i]! += partCounts[i]!;
  const column = (offset: number) =>
    POKER_CATEGORIES.map((_, category) => BigInt(counts[category * 4 + offset]!));
  return {
    total: choose(52, 5) * choose(47, 2) * choose(45, 2),
    dealerNotQualified: column(0),
    wins: column(1),
    ties: column(2),
    losses: column(3),
  };
}

/** Every deal, by the player's category; `qualifier` the least qualifying strength (1: none). */
export function holdemShowdown(
  qualifier: number,
  onProgress?: ProgressListener,
): HoldemShowdownCounts {
  const known = provided.get(qualifier);
  if (known) return known;
  return holdemShowdownOfParts([holdemShowdownPart(qualifier, 0, 1, onProgress)]);
}

/** The per-category table of a showdown: not qualified / win / tie / lose. */
export function showdownTable(title: string, counts: HoldemShowdownCounts): StudyTable {
  return showdownCategoryTable(title, 'player hand', counts);
}

export function showdownJson(counts: HoldemShowdownCounts) {
  return showdownCategoryJson(counts.total, counts);
}
