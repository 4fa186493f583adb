/**
 * Exact arithmetic for the analyses: counts are bigint, ratios are exact
 * fractions of bigints, turned into floating point only for display.
 */
import { AnalysisError } from './errors.ts';

/** n * (n-1) * ... * (n-k+1): ordered draws of k cards from n. */
export function falling(n: number | bigint, k: number): bigint {
  let product = 1n;
  const top = BigInt(n);
  for (let i = 0n; i < BigInt(k); i++) product *= top - i;
  return product;
}

/** n choose k. */
export function choose(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  return falling(n, k) / falling(k, k);
}

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

/** An exact fraction, always reduced, denominator positive. */
export class Fraction {
  readonly numerator: bigint;
  readonly denominator: bigint;
  constructor(numerator: bigint, denominator: bigint = 1n) {
    if (denominator === 0n) throw new RangeError('fraction with a zero denominator');
    const sign = denominator < 0n ? -1n : 1n;
    const divisor = gcd(numerator, denominator) || 1n;
    this.numerator = (sign * numerator) / divisor;
    this.denominator = (sign * denominator) / divisor;
  }
  static of(value: bigint | number): Fraction {
    return new Fraction(BigInt(value));
  }
  /** A decimal payout like 0.95 or 0.5, taken exactly as written (up to 9 decimals). */
  static ofDecimal(value: number): Fraction {
    const scaled = Math.round(value * 1e9);
    if (Math.abs(scaled / 1e9 - value) > 1e-12) {
      throw new AnalysisError('bad_parameter', `payout ${value} has more than 9 decimals`);
    }
    return new Fraction(BigInt(scaled), 1_000_000_000n);
  }
  plus(other: Fraction): Fraction {
    return new Fraction(
      this.numerator * other.denominator + other.numerator * this.denominator,
      this.denominator * other.denominator,
    );
  }
  times(other: Fraction): Fraction {
    return new Fraction(this.numerator * other.numerator, this.denominator * other.denominator);
  }
  negate(): Fraction {
    return new Fraction(-this.numerator, this.denominator);
  }
  /** Nearest double (exact to about 17 significant digits). */
  toNumber(): number {
    return ratio(this.numerator, this.denominator);
  }
  toString(): string {
    return this.denominator === 1n ? `${this.numerator}` : `${this.numerator}/${this.denominator}`;
  }
}

/** numerator / denominator as a double, without losing precision on huge bigints. */
export function ratio(numerator: bigint, denominator: bigint): number {
  if (denominator === 0n) return Number.NaN;
  // Both exact as doubles: one division, correctly rounded.
  const safe = BigInt(Number.MAX_SAFE_INTEGER);
  const magnitude = numerator < 0n ? -numerator : numerator;
  if (magnitude <= safe && denominator <= safe && denominator >= -safe) {
    return Number(numerator) / Number(denominator);
  }
  const scale = 10n ** 30n;
  const scaled = (numerator * scale) / denominator;
  return Number(scaled) / 1e30;
}

/** Sum of `weight * payout` over outcomes, divided by the total: an exact expectation. */
export function expectation(
  outcomes: readonly { readonly count: bigint; readonly payout: Fraction }[],
  total: bigint,
): Fraction {
  let sum = new Fraction(0n);
  for (const { count, payout } of outcomes) sum = sum.plus(payout.times(Fraction.of(count)));
  return sum.times(new Fraction(1n, total));
}

/** Counts print as decimal strings in JSON: exact at any size, one type for every count. */
export function countJson(count: bigint): string {
  return count.toString();
}

/** Groups digits for human tables: 133784560 -> 133,784,560. */
export function groupDigits(count: bigint | number): string {
  return count.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * Human table rows of named counts: the grouped count and its probability out
 * of `total` to `digits` places, then a `total` row when asked.
 */
export function countRows(
  entries: readonly (readonly [string, bigint])[],
  total: bigint,
  digits: number,
  totalRow = false,
): string[][] {
  const rows = entries.map(([name, count]) => [
    name,
    groupDigits(count),
    ratio(count, total).toFixed(digits),
  ]);
  return totalRow ? [...rows, ['total', groupDigits(total), '1']] : rows;
}

/** The JSON of named counts: each one's count (a decimal string) and probability out of `total`. */
export function countsJson(entries: readonly (readonly [string, bigint])[], total: bigint) {
  return Object.fromEntries(
    entries.map(([name, count]) => [
      name,
      { count: count.toString(), probability: ratio(count, total) },
    ]),
  );
}
