import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRandom } from '../../../simulators/random.ts';

describe('the seeded random stream repeats for the same seed', () => {
  it('gives the same numbers for the same seed and different ones for another', () => {
    const draw = (seed: number) =>
      Array.from({ length: 16 }, () => createRandom(seed).nextUint32());
    const a = createRandom(42);
    const b = createRandom(42);
    const c = createRandom(43);
    const sequenceA = Array.from({ length: 32 }, () => a.nextUint32());
    expect(Array.from({ length: 32 }, () => b.nextUint32())).toEqual(sequenceA);
    expect(Array.from({ length: 32 }, () => c.nextUint32())).not.toEqual(sequenceA);
    expect(draw(1)).toEqual(draw(1));
  });

  it('int stays within its bound and shuffled is a permutation', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 40 }),
        fc.integer({ min: 1, max: 1000 }),
        (seed, bound) => {
          const random = createRandom(seed);
          for (let i = 0; i < 20; i++) {
            const value = random.int(bound);
            expect(value).toBeGreaterThanOrEqual(0);
            expect(value).toBeLessThan(bound);
          }
          const items = Array.from({ length: 30 }, (_, index) => index);
          expect(random.shuffled(items).sort((x, y) => x - y)).toEqual(items);
        },
      ),
    );
  });

  it('a fork depends on the seed and its label, not on draws made before it', () => {
    const first = createRandom(7);
    const second = createRandom(7);
    second.nextUint32();
    second.nextUint32();
    expect(first.fork('wire').nextUint32()).toBe(second.fork('wire').nextUint32());
    expect(first.fork('wire').nextUint32()).not.toBe(first.fork('shoe').nextUint32());
  });

  it('refuses a seed that is not a whole number', () => {
    expect(() => createRandom(1.5)).toThrow(/bad seed/);
  });
});
