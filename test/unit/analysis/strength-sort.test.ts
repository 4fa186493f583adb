/**
 * The counting sort the showdown counts share (strength-sort.ts): keys of a
 * 13-bit strength above some payload bits come out in the order a stable
 * comparison sort by strength gives, in the array they came in; a few keys
 * by insertion into another array.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  insertionSortInto,
  STRENGTH_SORT_BUCKETS,
  sortByStrength,
} from '../../../firmware-host/analysis/strength-sort.ts';

describe('sortByStrength', () => {
  it('orders keys by strength in place, keeping the order of keys of one strength', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 11 }),
        fc.array(fc.integer({ min: 0, max: 8191 }), { maxLength: 600 }),
        (shift, strengths) => {
          // The payload numbers the keys in their first order, so stability shows.
          const payloadMask = (1 << shift) - 1;
          const made = strengths.map((strength, i) => strength * 2 ** shift + (i & payloadMask));
          const keys = Int32Array.from([...made, -1]);
          const spare = new Int32Array(made.length);
          sortByStrength(keys, spare, made.length, new Int32Array(STRENGTH_SORT_BUCKETS), shift);
          const expected = made
            .map((key, i) => ({ key, i }))
            .sort((x, y) => (x.key >> shift) - (y.key >> shift) || x.i - y.i)
            .map(({ key }) => key);
          expect([...keys.subarray(0, made.length)]).toEqual(expected);
          // Only the first n keys are touched.
          expect(keys[made.length]).toBe(-1);
        },
      ),
      { numRuns: 200, seed: 16 },
    );
  });

  it('sorts the strengths of the widest payload the showdowns use (11 bits) past 2^23', () => {
    const keys = Int32Array.from([8191 * 2048 + 5, 1 * 2048 + 2047, 4096 * 2048, 1 * 2048]);
    sortByStrength(keys, new Int32Array(4), 4, new Int32Array(STRENGTH_SORT_BUCKETS), 11);
    expect([...keys]).toEqual([1 * 2048 + 2047, 1 * 2048, 4096 * 2048, 8191 * 2048 + 5]);
  });
});

describe('insertionSortInto', () => {
  it('copies the first n keys into the other array in ascending order, leaving the source as it was', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 2 ** 24 }), { maxLength: 80 }), (made) => {
        const from = Int32Array.from([...made, 7]);
        const to = new Int32Array(made.length + 1).fill(-1);
        insertionSortInto(from, to, made.length);
        expect([...to.subarray(0, made.length)]).toEqual([...made].sort((x, y) => x - y));
        expect(to[made.length]).toBe(-1);
        expect([...from]).toEqual([...made, 7]);
      }),
      { numRuns: 200, seed: 16 },
    );
  });
});
