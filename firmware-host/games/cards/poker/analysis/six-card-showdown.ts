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
 * Ties count Σ h_S(v)². Every count is exact (bigint); about 146 million
 * evaluations in all, each one table lookup on running sums of rank keys
 * and suit counts (six-card non-flush table; the flush table when a suit
 * holds five). h_∅ is the six-card distribution itself, which also gives
 * the hands per category and the sets of six (a hand tying with itself).
 */

import { AnalysisError } from '../../../../analysis/errors.ts';
import { choose } from '../../../../analysis/exact.ts';
import {
  insertionSortInto,
  STRENGTH_SORT_BUCKETS,
  sortByStrength,
} from '../../../../analysis/strength-sort.ts';
import {
  FULL_DECK,
  forEachFullDeckSuitPattern,
  suitPatterns,
} from '../../../../analysis/suit-patterns.ts';
import {
  nonFlush6Table,
  RANK_KEYS_7,
  STRENGTH_COUNT,
  strengthTables,
} from '../evaluator-tables.ts';
import type { ProgressListener } from './poker.ts';

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

const FLUSH_PROBE = 0x3333;
const FLUSH_BITS = 0x8888;
/** Added to the suit counts: a nibble's bit 3 is set when that suit holds four (three) or more. */
const NO_FOUR_PROBE = 0x4444;
const NO_THREE_PROBE = 0x5555;
/** HANDS_OF[n][k] = C(n, k) as a double. */
const HANDS_OF: readonly (readonly number[])[] = Array.from({ length: 53 }, (_, n) =>
  Array.from({ length: 7 }, (_, k) => Number(choose(n, k))),
);
/**
 * Sorted entries hold a strength and how many hands have it (at most 16:
 * a pair of ranks of four cards each): strength · WEIGHTS + hands.
 */
const WEIGHT_BITS = 5;
const WEIGHTS = 1 << WEIGHT_BITS;
/** From this many hands on a pattern's strengths are counted in a histogram, below it sorted. */
const HISTOGRAM_FROM = 8192;

function suitIncrement(card: number): number {
  return 1 << ((card & 3) << 2);
}

/**
 * Showdowns computed elsewhere (the CLI splits the patterns over worker
 * threads) for the full deck: `sixCardShowdown` returns it instead of
 * enumerating again.
 */
let providedFullDeck: ShowdownCounts | undefined;

export function provideSixCardShowdown(counts: ShowdownCounts): void {
  providedFullDeck = counts;
}

/** One part's sums: signed, weighted, exact. `hands` (per category) from the part holding S = ∅. */
export interface ShowdownPart {
  readonly wins: readonly bigint[];
  readonly ties: readonly bigint[];
  readonly hands?: readonly bigint[];
}

function checkDeck(deck: readonly number[]): void {
  const ranks = new Set(deck.map((card) => card >> 2));
  if (new Set(deck).size !== deck.length || deck.length !== ranks.size * 4 || deck.length < 12) {
    throw new AnalysisError(
      'bad_parameter',
      'a showdown deck needs all four suits of each of its ranks and at least 12 cards',
    );
  }
}

/**
 * Counts the showdown of two six-card hands dealt from `deck` (card ints;
 * default the full 52-card deck). The deck must hold all four suits of each
 * of its ranks, so that renaming suits maps it onto itself.
 */
export function sixCardShowdown(
  deck: readonly number[] = FULL_DECK,
  onProgress?: ProgressListener,
): ShowdownCounts {
  checkDeck(deck);
  if (providedFullDeck && deck.length === 52) return providedFullDeck;
  return sixCardShowdownOfParts(deck, [sixCardShowdownPart(deck, 0, 1, onProgress)]);
}

/**
 * One part of the enumeration: the shared-set patterns dealt to part
 * `part` of `parts`, each pattern going to the part with the least work so
 * far (the same deal in every part), so the parts take about equal time.
 */
export function sixCardShowdownPart(
  deck: readonly number[],
  part: number,
  parts: number,
  onProgress?: ProgressListener,
): ShowdownPart {
  checkDeck(deck);
  const full = deck.length === 52;
  const counter = new PatternCounter();
  const load = new Array<number>(parts).fill(0);
  const totalWork = [0, 1, 2, 3, 4, 5].reduce(
    (sum, size) => sum + Number(choose(deck.length, size) * choose(deck.length - size, 6 - size)),
    0,
  );
  let done = 0;
  const wins = new Array<bigint>(10).fill(0n);
  const ties = new Array<bigint>(10).fill(0n);
  let hands: bigint[] | undefined;

  // Per size, the weighted sums stay below 2^53 in magnitude (at most
  // C(52,k)·C(52−k,6−k)² summed over the sizes, about 8·10^14), so doubles
  // add them exactly; bigints carry the signed totals across sizes.
  const winSums = new Float64Array(10);
  const tieSums = new Float64Array(10);
  for (let size = 0; size <= 5; size++) {
    const sign = size % 2 === 0 ? 1 : -1;
    const perPattern = Number(choose(deck.length - size, 6 - size));
    winSums.fill(0);
    tieSums.fill(0);
    let sinceReport = 0;
    const visit = (shared: ArrayLike<number>, multiplicity: number): void => {
      let least = 0;
      for (let p = 1; p < parts; p++) if (load[p]! < load[least]!) least = p;
      load[least]! += perPattern;
      done += perPattern * multiplicity;
      if (least !== part) return;
      const sums = counter.count(deck, shared);
      const weight = multiplicity * sign;
      for (let c = 0; c < 10; c++) {
        winSums[c]! += weight * sums.wins[c]!;
        tieSums[c]! += weight * sums.ties[c]!;
      }
      if (size === 0) hands = [...sums.hands].map((count) => BigInt(count));
      if (++sinceReport === 256) {
        sinceReport = 0;
        onProgress?.(done, totalWork);
      }
    };
    // Suit patterns of shared sets of this size, with how many sets each stands for.
    if (full) forEachFullDeckSuitPattern(size, visit);
    else
      for (const { representative, multiplicity } of suitPatterns(deck, size))
        visit(representative, multiplicity);
    for (let c = 0; c < 10; c++) {
      wins[c]! += BigInt(winSums[c]!);
      ties[c]! += BigInt(tieSums[c]!);
    }
    onProgress?.(done, totalWork);
  }
  return { wins, ties, ...(hands ? { hands } : {}) };
}

/** The showdown from all the parts' sums. */
export function sixCardShowdownOfParts(
  deck: readonly number[],
  parts: readonly ShowdownPart[],
): ShowdownCounts {
  const wins = new Array<bigint>(10).fill(0n);
  const ties = new Array<bigint>(10).fill(0n);
  /** Six-card hands per category (h_∅ by category). */
  let handsOfCategory: readonly bigint[] | undefined;
  for (const part of parts) {
    for (let c = 0; c < 10; c++) {
      wins[c]! += part.wins[c]!;
      ties[c]! += part.ties[c]!;
    }
    if (part.hands) handsOfCategory = part.hands;
  }
  if (!handsOfCategory) {
    throw new AnalysisError('bad_parameter', 'no part holds the empty shared set');
  }
  // Shared sets of six: P = D = S, a tie with itself, for every six-card hand.
  for (let c = 0; c < 10; c++) ties[c]! += handsOfCategory[c]!;

  const dealerHands = choose(deck.length - 6, 6);
  const total = choose(deck.length, 6) * dealerHands;
  // Per category: the player's hands of that category times the dealer's hands.
  const losses = handsOfCategory.map((count, c) => count * dealerHands - wins[c]! - ties[c]!);
  return { total, wins, ties, losses };
}

/**
 * For one shared set S: every six-card hand holding S, and per category of
 * strength v, Σ h_S(v)·h_S(<v) (wins), Σ h_S(v)² (ties) and Σ h_S(v)
 * (hands). Sums stay below 2^53 for a 52-card deck ((C(52,6))² ≈ 4·10^14),
 * so doubles hold them exactly.
 */
class PatternCounter {
  private readonly tables = strengthTables();
  private readonly nonFlush = nonFlush6Table();
  private readonly strengths = new Int32Array(HISTOGRAM_FROM);
  private readonly ordered = new Int32Array(HISTOGRAM_FROM);
  private readonly buckets = new Int32Array(STRENGTH_SORT_BUCKETS);
  private readonly histogram = new Uint32Array(STRENGTH_COUNT + 1);
  private readonly held = new Int32Array(6);
  private readonly inShared = new Uint8Array(52);
  private readonly rest = new Int32Array(52);
  /**
   * `rest` in runs of one rank (a deck lists each rank's cards together;
   * a rank split over runs still counts right, only slower):
   * the run of each position, and each run's rank and end.
   */
  private readonly groupOf = new Int32Array(52);
  private readonly groupRank = new Int32Array(52);
  private readonly groupEnd = new Int32Array(52);
  private groups = 0;
  private n = 0;
  private restLength = 0;
  private size = 0;
  private completions = 0;
  /** Whether this pattern's hands go straight into the histogram (many) or into `strengths`. */
  private byHistogram = false;
  readonly wins = new Float64Array(10);
  readonly ties = new Float64Array(10);
  readonly hands = new Float64Array(10);

  count(deck: readonly number[], shared: ArrayLike<number>): PatternCounter {
    const key = this.tables.cardKey7;
    const inShared = this.inShared;
    inShared.fill(0);
    let sharedKey = 0;
    let sharedSuits = 0;
    this.size = shared.length;
    for (let i = 0; i < shared.length; i++) {
      const card = shared[i]!;
      inShared[card] = 1;
      this.held[i] = card;
      sharedKey += key[card]!;
      sharedSuits += suitIncrement(card);
    }
    this.restLength = 0;
    this.groups = 0;
    for (const card of deck) {
      if (inShared[card] === 1) continue;
      const rank = card >> 2;
      if (this.groups === 0 || this.groupRank[this.groups - 1] !== rank) {
        this.groupRank[this.groups++] = rank;
      }
      this.groupOf[this.restLength] = this.groups - 1;
      this.rest[this.restLength++] = card;
      this.groupEnd[this.groups - 1] = this.restLength;
    }
    this.completions = 6 - shared.length;
    this.n = 0;
    this.byHistogram = HANDS_OF[this.restLength]![this.completions]! >= HISTOGRAM_FROM;
    if (this.byHistogram) this.histogram.fill(0);
    this.level(0, 0, sharedKey, sharedSuits);
    this.wins.fill(0);
    this.ties.fill(0);
    this.hands.fill(0);
    if (this.byHistogram) this.sumByHistogram();
    else this.sumBySorting();
    return this;
  }

  /**
   * Chooses the completion's card at `depth` from rest[start..]; the last
   * level evaluates. Once no flush can come, the last one or two cards
   * count by rank (the cards of a rank are adjacent in `rest`): one lookup
   * per rank or pair of ranks, tallied with its number of hands.
   */
  private level(depth: number, start: number, keySum: number, suits: number): void {
    const rest = this.rest;
    const key = this.tables.cardKey7;
    const last = this.restLength - (this.completions - depth - 1);
    const at = this.size + depth;
    const left = this.completions - depth;
    if (left === 2 && ((suits + NO_THREE_PROBE) & FLUSH_BITS) === 0) {
      this.lastTwoByRank(start, keySum);
      return;
    }
    if (left === 1) {
      if (((suits + NO_FOUR_PROBE) & FLUSH_BITS) === 0) {
        this.lastByRank(start, keySum);
        return;
      }
      const nonFlush = this.nonFlush;
      const flush = this.tables.flush;
      const held = this.held;
      if (this.byHistogram) {
        const histogram = this.histogram;
        for (let i = start; i < last; i++) {
          const card = rest[i]!;
          const handSuits = suits + suitIncrement(card);
          if (((handSuits + FLUSH_PROBE) & FLUSH_BITS) === 0) {
            histogram[nonFlush[keySum + key[card]!]!]!++;
          } else {
            held[at] = card;
            histogram[flush[flushMask(handSuits, held)]!]!++;
          }
        }
        return;
      }
      const strengths = this.strengths;
      let n = this.n;
      for (let i = start; i < last; i++) {
        const card = rest[i]!;
        const handSuits = suits + suitIncrement(card);
        if (((handSuits + FLUSH_PROBE) & FLUSH_BITS) === 0) {
          strengths[n++] = nonFlush[keySum + key[card]!]! * WEIGHTS + 1;
        } else {
          held[at] = card;
          strengths[n++] = flush[flushMask(handSuits, held)]! * WEIGHTS + 1;
        }
      }
      this.n = n;
      return;
    }
    for (let i = start; i < last; i++) {
      const card = rest[i]!;
      this.held[at] = card;
      this.level(depth + 1, i + 1, keySum + key[card]!, suits + suitIncrement(card));
    }
  }

  /** The last card from rest[start..], by rank (no flush can come). */
  private lastByRank(start: number, keySum: number): void {
    const { nonFlush, groupOf, groupEnd, groupRank, groups } = this;
    let from = start;
    for (let g = groupOf[start]!; g < groups; g++) {
      this.tally(nonFlush[keySum + RANK_KEYS_7[groupRank[g]!]!]!, groupEnd[g]! - from);
      from = groupEnd[g]!;
    }
  }

  /** `hands` hands of one strength: into the histogram, or one entry with its weight. */
  private tally(strength: number, hands: number): void {
    if (this.byHistogram) this.histogram[strength]! += hands;
    else this.strengths[this.n++] = strength * WEIGHTS + hands;
  }

  /** The last two cards from rest[start..], by rank (no flush can come). */
  private lastTwoByRank(start: number, keySum: number): void {
    const { nonFlush, groupOf, groupEnd, groupRank, groups } = this;
    let from = start;
    for (let g = groupOf[start]!; g < groups; g++) {
      const here = groupEnd[g]! - from;
      const sum = keySum + RANK_KEYS_7[groupRank[g]!]!;
      if (here > 1)
        this.tally(nonFlush[sum + RANK_KEYS_7[groupRank[g]!]!]!, (here * (here - 1)) / 2);
      for (let later = g + 1; later < groups; later++) {
        const there = groupEnd[later]! - groupEnd[later - 1]!;
        this.tally(nonFlush[sum + RANK_KEYS_7[groupRank[later]!]!]!, here * there);
      }
      from = groupEnd[g]!;
    }
  }

  private sumByHistogram(): void {
    const { histogram } = this;
    const categoryOf = this.tables.categoryOfStrength;
    let below = 0;
    for (let v = 1; v <= STRENGTH_COUNT; v++) {
      const run = histogram[v]!;
      if (run === 0) continue;
      this.add(categoryOf[v]!, run, below);
      below += run;
    }
  }

  private sumBySorting(): void {
    const sorted = this.sorted();
    const n = this.n;
    const categoryOf = this.tables.categoryOfStrength;
    let below = 0;
    let start = 0;
    while (start < n) {
      const v = sorted[start]! >> WEIGHT_BITS;
      let run = sorted[start]! & (WEIGHTS - 1);
      let end = start + 1;
      while (end < n && sorted[end]! >> WEIGHT_BITS === v) run += sorted[end++]! & (WEIGHTS - 1);
      this.add(categoryOf[v]!, run, below);
      below += run;
      start = end;
    }
  }

  /**
   * The entries (strength · WEIGHTS + hands) in order of strength, without
   * a new array: by insertion for a few, else in place by `sortByStrength`.
   */
  private sorted(): Int32Array {
    const { strengths, ordered, n } = this;
    if (n <= 32) {
      insertionSortInto(strengths, ordered, n);
      return ordered;
    }
    sortByStrength(strengths, ordered, n, this.buckets, WEIGHT_BITS);
    return strengths;
  }

  /** A run of `run` hands of one strength with `below` weaker hands. */
  private add(category: number, run: number, below: number): void {
    this.wins[category]! += run * below;
    this.ties[category]! += run * run;
    this.hands[category]! += run;
  }
}

/** The rank mask, in the suit holding five or more, of the six cards in `held`. */
function flushMask(suitCounts: number, held: Int32Array): number {
  const suit = (31 - Math.clz32((suitCounts + FLUSH_PROBE) & FLUSH_BITS)) >> 2;
  let mask = 0;
  for (let i = 0; i < 6; i++) {
    const card = held[i]!;
    if ((card & 3) === suit) mask |= 1 << (card >> 2);
  }
  return mask;
}
