/**
 * The sort every poker showdown count shares: keys that hold a hand
 * strength (below 8192, 13 bits) above `strengthShift` low bits of payload
 * (a hand index, a weight), ordered by strength. Two stable counting passes
 * of 7 and 6 bits cost a few linear sweeps, several times less than the
 * typed array's comparison sort for a few hundred to a few thousand keys,
 * and need no new array: these sorts run once per suit pattern or board,
 * millions of times in one study.
 */

/** Buckets `sortByStrength` needs: one per value of its wider (7-bit) digit. */
export const STRENGTH_SORT_BUCKETS = 128;

/**
 * Sorts the first `n` keys of `keys` by strength, in place (stable: keys of
 * one strength keep their order). `spare` (at least `n` long) and `buckets`
 * (STRENGTH_SORT_BUCKETS long) are scratch space, overwritten.
 */
export function sortByStrength(
  keys: Int32Array,
  spare: Int32Array,
  n: number,
  buckets: Int32Array,
  strengthShift: number,
): void {
  // Low 7 bits of the strength into `spare`, then its high 6 bits back into `keys`.
  countingPass(keys, spare, n, buckets, strengthShift, 127);
  countingPass(spare, keys, n, buckets, strengthShift + 7, 63);
}

/**
 * The first `n` keys of `from`, in ascending order, into `to`, by insertion:
 * for a few dozen keys cheaper than `sortByStrength`'s passes over its
 * buckets. Whole keys compare, so keys of one strength come in payload order.
 */
export function insertionSortInto(from: Int32Array, to: Int32Array, n: number): void {
  for (let i = 0; i < n; i++) {
    const key = from[i]!;
    let j = i;
    while (j > 0 && to[j - 1]! > key) {
      to[j] = to[j - 1]!;
      j--;
    }
    to[j] = key;
  }
}

/** One stable pass: `from`'s first `n` keys into `to`, by the digit (key >> shift) & digitMask. */
function countingPass(
  from: Int32Array,
  to: Int32Array,
  n: number,
  buckets: Int32Array,
  shift: number,
  digitMask: number,
): void {
  buckets.fill(0);
  for (let i = 0; i < n; i++) buckets[(from[i]! >> shift) & digitMask]!++;
  let sum = 0;
  for (let d = 0; d <= digitMask; d++) {
    const count = buckets[d]!;
    buckets[d] = sum;
    sum += count;
  }
  for (let i = 0; i < n; i++) {
    const entry = from[i]!;
    to[buckets[(entry >> shift) & digitMask]!++] = entry;
  }
}
