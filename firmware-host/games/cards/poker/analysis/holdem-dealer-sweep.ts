/**
 * The sweep both of hold'em's one-board counts end in: card by card
 * (holdem-showdown.ts's `countHoldemBoard`, every card a class of one) and
 * by card classes (holdem-board-classes.ts). The unseen cards fall into
 * classes of `classCards[c]` cards each; an entry is a pair of classes
 * {first, second} (the same class twice for two cards of it) holding
 * `hands` two-card hands of one strength. For a player hand of entry
 * {a, b}, the dealer hands below a strength t that share no card with it are
 *   below(t) − below_a(t) − below_b(t) (+ 1 if the hand itself is below t),
 * where below_c counts the hands below t holding one given card of class c
 * (the same for every card of the class), so one sweep up the entries,
 * sorted by strength, counts every pairing.
 *
 * Every count is an integer below 2^53 (the grand total is 2.78·10^12), so
 * the running sums in doubles are exact.
 */
import { STRENGTH_SORT_BUCKETS, sortByStrength } from '../../../../analysis/strength-sort.ts';

const DEALER_PAIRS = 990; // C(45, 2)
const ENTRY_BITS = 11;
const ENTRY_MASK = (1 << ENTRY_BITS) - 1;

/** Entries a board may have (C(47, 2) = 1,081 card by card); a key is strength · SWEEP_ENTRIES + entry. */
export const SWEEP_ENTRIES = 1 << ENTRY_BITS;

/**
 * One board's entries, filled by the caller before `sweepDealerHands`, and
 * the per-class counters the sweep reuses. One class of buffers for both
 * counts, so the sweep's property loads stay monomorphic.
 */
export class DealerSweep {
  /** strength · SWEEP_ENTRIES + entry, as made; sorted by strength in place by the sweep. */
  readonly keys: Int32Array;
  readonly spare: Int32Array;
  readonly buckets = new Int32Array(STRENGTH_SORT_BUCKETS);
  /** Per entry: its two classes and how many two-card hands it holds. */
  readonly first: Int32Array;
  readonly second: Int32Array;
  readonly hands: Int32Array;
  /** Per class: unseen cards in it, and the sweep's per-card counters. */
  readonly classCards: Int32Array;
  readonly belowClass: Int32Array;
  readonly runClass: Int32Array;
  readonly qualifierClass: Int32Array;

  constructor(entries: number, classes: number) {
    this.keys = new Int32Array(entries);
    this.spare = new Int32Array(entries);
    this.first = new Int32Array(entries);
    this.second = new Int32Array(entries);
    this.hands = new Int32Array(entries);
    this.classCards = new Int32Array(classes);
    this.belowClass = new Int32Array(classes);
    this.runClass = new Int32Array(classes);
    this.qualifierClass = new Int32Array(classes);
  }
}

/**
 * Sorts the first `entries` entries by strength and adds their counts into
 * `into` (4 slots per category of the player's hand, by `categoryOf` a
 * strength: not qualified, win, tie, lose) times `weight`. `qualifier`: the
 * least strength that qualifies the dealer (1 for no qualifier).
 */
export function sweepDealerHands(
  sweep: DealerSweep,
  entries: number,
  qualifier: number,
  categoryOf: Uint8Array,
  into: Float64Array,
  weight: number,
): void {
  const { keys, first, second, hands, classCards, belowClass, runClass, qualifierClass } = sweep;
  sortByStrength(keys, sweep.spare, entries, sweep.buckets, ENTRY_BITS);

  // Dealer hands below the qualifier, in all and per card of each class.
  belowClass.fill(0);
  runClass.fill(0);
  qualifierClass.fill(0);
  let qualifierTotal = 0;
  for (let i = 0; i < entries; i++) {
    if (keys[i]! >> ENTRY_BITS >= qualifier) break;
    const entry = keys[i]! & ENTRY_MASK;
    qualifierTotal += hands[entry]!;
    addCards(qualifierClass, first, second, classCards, entry);
  }

  // One sweep up the strengths, a run of equal strengths at a time.
  let below = 0;
  let start = 0;
  while (start < entries) {
    const strength = keys[start]! >> ENTRY_BITS;
    let end = start + 1;
    while (end < entries && keys[end]! >> ENTRY_BITS === strength) end++;
    let run = 0;
    for (let i = start; i < end; i++) {
      const entry = keys[i]! & ENTRY_MASK;
      run += hands[entry]!;
      addCards(runClass, first, second, classCards, entry);
    }
    const slot = categoryOf[strength]! * 4;
    const playerQualifies = strength >= qualifier;
    let notQualified = 0;
    let wins = 0;
    let ties = 0;
    for (let i = start; i < end; i++) {
      const entry = keys[i]! & ENTRY_MASK;
      const a = first[entry]!;
      const b = second[entry]!;
      const entryHands = hands[entry]!;
      const unqualified =
        qualifierTotal - qualifierClass[a]! - qualifierClass[b]! + (playerQualifies ? 0 : 1);
      notQualified += entryHands * unqualified;
      if (playerQualifies) {
        wins += entryHands * (below - belowClass[a]! - belowClass[b]! - unqualified);
        ties += entryHands * (run - runClass[a]! - runClass[b]! + 1);
      }
    }
    const losses = run * DEALER_PAIRS - notQualified - wins - ties;
    into[slot]! += weight * notQualified;
    into[slot + 1]! += weight * wins;
    into[slot + 2]! += weight * ties;
    into[slot + 3]! += weight * losses;
    for (let i = start; i < end; i++) {
      const entry = keys[i]! & ENTRY_MASK;
      const a = first[entry]!;
      const b = second[entry]!;
      belowClass[a]! += runClass[a]!;
      runClass[a] = 0;
      belowClass[b]! += runClass[b]!;
      runClass[b] = 0;
    }
    below += run;
    start = end;
  }
}

/** Adds an entry's hands holding one given card of class c to `counter[c]`, for both its classes. */
function addCards(
  counter: Int32Array,
  first: Int32Array,
  second: Int32Array,
  classCards: Int32Array,
  entry: number,
): void {
  const c = first[entry]!;
  const d = second[entry]!;
  if (c === d) counter[c]! += classCards[c]! - 1;
  else {
    counter[c]! += classCards[d]!;
    counter[d]! += classCards[c]!;
  }
}
