/**
 * Tail probabilities for the wheel-bias tests, in double precision: the
 * regularized upper incomplete gamma Q(a, x) (the chi-square survival
 * function is Q(k/2, x/2)) by its series below a + 1 and its continued
 * fraction above (Lentz's method), and the exact binomial upper tail summed
 * term by term in log space.
 */

const EPSILON = 1e-15;
const TINY = 1e-300;

/** ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9; about 15 digits). */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
    -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
    1.5056327351493116e-7,
  ];
  const z = x - 1;
  let sum = c[0] as number;
  for (let i = 1; i < 9; i++) sum += (c[i] as number) / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** P(a, x) by its power series; converges fast for x < a + 1. */
function lowerSeries(a: number, x: number): number {
  let term = 1 / a;
  let sum = term;
  for (let n = 1; n < 10_000; n++) {
    term *= x / (a + n);
    sum += term;
    if (Math.abs(term) < Math.abs(sum) * EPSILON) break;
  }
  return sum * Math.exp(-x + a * Math.log(x) - logGamma(a));
}

/** Q(a, x) by its continued fraction; converges fast for x ≥ a + 1. */
function upperFraction(a: number, x: number): number {
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 10_000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPSILON) break;
  }
  return Math.exp(-x + a * Math.log(x) - logGamma(a)) * h;
}

/** The regularized upper incomplete gamma function Q(a, x) = Γ(a, x) / Γ(a). */
export function regularizedGammaQ(a: number, x: number): number {
  if (!(a > 0)) throw new RangeError(`Q(a, x) needs a > 0, got ${a}`);
  if (!(x >= 0)) throw new RangeError(`Q(a, x) needs x ≥ 0, got ${x}`);
  if (x === 0) return 1;
  if (x < a + 1) return Math.max(0, 1 - lowerSeries(a, x));
  return Math.min(1, upperFraction(a, x));
}

/** P(χ²_k ≥ statistic). */
export function chiSquareSurvival(statistic: number, degreesOfFreedom: number): number {
  return regularizedGammaQ(degreesOfFreedom / 2, Math.max(0, statistic) / 2);
}

function logChoose(n: number, k: number): number {
  return logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1);
}

/** P(Bin(n, p) ≥ k), exact up to rounding: the terms summed from k upward. */
export function binomialUpperTail(n: number, p: number, k: number): number {
  if (k <= 0) return 1;
  if (k > n) return 0;
  let sum = 0;
  for (let i = k; i <= n; i++) {
    const term = Math.exp(logChoose(n, i) + i * Math.log(p) + (n - i) * Math.log1p(-p));
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return Math.min(1, sum);
}

/** P(Bin(n, p) ≤ k), summed term by term from k downward. */
export function binomialLowerTail(n: number, p: number, k: number): number {
  if (k < 0) return 0;
  if (k >= n) return 1;
  let sum = 0;
  for (let i = k; i >= 0; i--) {
    const term = Math.exp(logChoose(n, i) + i * Math.log(p) + (n - i) * Math.log1p(-p));
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return Math.min(1, sum);
}
