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
import {
  nonFlush6Table,
  STRENGTH_COUNT,
  strengthTables,
} from '../engine/poker/evaluator-tables.ts';
import { AnalysisError } from './errors.ts';
import { choose } from './exact.ts';
import type { ProgressListener } from './poker.ts';
import {
  FULL_DECK,
  fullDeckSuitPatterns,
  type SuitPattern,
  suitPatterns,
} from './suit-patterns.ts';

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
/** Above this many hands a pattern's strengths are counted in a histogram, below it sorted. */
const HISTOGRAM_FROM = 1024;

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

  for (let size = 0; size <= 5; size++) {
    const sign = size % 2 === 0 ? 1n : -1n;
    // Suit patterns of shared sets of this size, with how many sets each stands for.
    const patterns: SuitPattern[] = full ? fullDeckSuitPatterns(size) : suitPatterns(deck, size);
    const perPattern = Number(choose(deck.length - size, 6 - size));
    for (const { representative, multiplicity } of patterns) {
      let least = 0;
      for (let p = 1; p < parts; p++) if (load[p]! < load[least]!) least = p;
      load[least]! += perPattern;
      done += perPattern * multiplicity;
      if (least !== part) continue;
      const sums = counter.count(deck, representative);
      const weight = BigInt(multiplicity) * sign;
      for (let c = 0; c < 10; c++) {
        wins[c]! += weight * BigInt(sums.wins[c]!);
        ties[c]! += weight * BigInt(sums.ties[c]!);
      }
      if (size === 0) hands = [...sums.hands].map((count) => BigInt(count));
      onProgress?.(done, totalWork);
    }
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
  private readonly strengths = new Int32Array(Number(choose(52, 6)));
  private readonly histogram = new Uint32Array(STRENGTH_COUNT + 1);
  private readonly held = new Int32Array(6);
  private readonly rest = new Int32Array(52);
  private n = 0;
  private restLength = 0;
  private size = 0;
  private completions = 0;
  readonly wins = new Float64Array(10);
  readonly ties = new Float64Array(10);
  readonly hands = new Float64Array(10);

  count(deck: readonly number[], shared: readonly number[]): PatternCounter {
    const key = this.tables.cardKey7;
    const inShared = new Uint8Array(52);
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
    for (const card of deck) if (inShared[card] === 0) this.rest[this.restLength++] = card;
    this.completions = 6 - shared.length;
    this.n = 0;
    this.level(0, 0, sharedKey, sharedSuits);
    this.wins.fill(0);
    this.ties.fill(0);
    this.hands.fill(0);
    if (this.n >= HISTOGRAM_FROM) this.sumByHistogram();
    else this.sumBySorting();
    return this;
  }

  /** Chooses the completion's card at `depth` from rest[start..]; the last level evaluates. */
  private level(depth: number, start: number, keySum: number, suits: number): void {
    const rest = this.rest;
    const key = this.tables.cardKey7;
    const last = this.restLength - (this.completions - depth - 1);
    const at = this.size + depth;
    if (depth === this.completions - 1) {
      const nonFlush = this.nonFlush;
      const flush = this.tables.flush;
      const strengths = this.strengths;
      const held = this.held;
      let n = this.n;
      for (let i = start; i < last; i++) {
        const card = rest[i]!;
        const handSuits = suits + suitIncrement(card);
        if (((handSuits + FLUSH_PROBE) & FLUSH_BITS) === 0) {
          strengths[n++] = nonFlush[keySum + key[card]!]!;
        } else {
          held[at] = card;
          strengths[n++] = flush[flushMask(handSuits, held)]!;
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

  private sumByHistogram(): void {
    const { histogram, strengths, n } = this;
    const categoryOf = this.tables.categoryOfStrength;
    histogram.fill(0);
    for (let i = 0; i < n; i++) histogram[strengths[i]!]!++;
    let below = 0;
    for (let v = 1; v <= STRENGTH_COUNT; v++) {
      const run = histogram[v]!;
      if (run === 0) continue;
      this.add(categoryOf[v]!, run, below);
      below += run;
    }
  }

  private sumBySorting(): void {
    const sorted = this.strengths.subarray(0, this.n).sort();
    const categoryOf = this.tables.categoryOfStrength;
    let start = 0;
    while (start < sorted.length) {
      const v = sorted[start]!;
      let end = start + 1;
      while (end < sorted.length && sorted[end] === v) end++;
      this.add(categoryOf[v]!, end - start, start);
      start = end;
    }
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
