/**
 * A small seeded PRNG (sfc32, seeded through splitmix32) so that a simulator
 * with the same seed plays the same session on every machine. Never
 * Math.random: reproducibility is the point of a simulator.
 */

export interface Random {
  /** The next 32-bit unsigned integer. */
  nextUint32(): number;
  /** A float in [0, 1). */
  float(): number;
  /** An integer in [0, bound); bound must be a positive safe integer. */
  int(bound: number): number;
  /** True with probability `p` (0..1). */
  chance(p: number): boolean;
  /** A new array holding `items` in a uniformly random order (Fisher-Yates). */
  shuffled<T>(items: readonly T[]): T[];
  /**
   * An independent stream derived from the seed and a label (not from the
   * draws so far), so adding draws in one place never shifts another.
   */
  fork(label: string): Random;
}

function splitmix32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** FNV-1a over a string, to turn labels into seeds. */
export function hashLabel(label: string, basis = 0x811c9dc5): number {
  let hash = basis >>> 0;
  for (let i = 0; i < label.length; i++) {
    hash ^= label.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** A PRNG for `seed` (any safe integer; negative and large values are folded to 32 bits twice). */
export function createRandom(seed: number): Random {
  if (!Number.isSafeInteger(seed)) {
    throw new RangeError(`bad seed ${seed}: expected a whole number`);
  }
  const high = Math.floor(seed / 0x1_0000_0000) >>> 0;
  const seedBasis = hashLabel(String(seed));
  const init = splitmix32((seed >>> 0) ^ Math.imul(high, 0x27d4eb2d));
  let a = init();
  let b = init();
  let c = init();
  let d = init() | 1;
  const nextUint32 = (): number => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) >>> 0;
    return t;
  };
  // Warm up: the first outputs of sfc32 are weakly mixed.
  for (let i = 0; i < 12; i++) nextUint32();

  const float = (): number => nextUint32() / 0x1_0000_0000;
  const int = (bound: number): number => {
    if (!Number.isSafeInteger(bound) || bound <= 0) {
      throw new RangeError(`bad bound ${bound}: expected a positive whole number`);
    }
    if (bound <= 0x1_0000_0000) {
      // Rejection sampling removes the modulo bias.
      const limit = 0x1_0000_0000 - (0x1_0000_0000 % bound);
      for (;;) {
        const value = nextUint32();
        if (value < limit) return value % bound;
      }
    }
    return Math.floor(float() * bound);
  };
  return {
    nextUint32,
    float,
    int,
    chance: (p) => (p <= 0 ? false : p >= 1 ? true : float() < p),
    shuffled<T>(items: readonly T[]): T[] {
      const out = items.slice();
      for (let i = out.length - 1; i > 0; i--) {
        const j = int(i + 1);
        const held = out[i]!;
        out[i] = out[j]!;
        out[j] = held;
      }
      return out;
    },
    fork: (label) => createRandom(hashLabel(label, seedBasis)),
  };
}
