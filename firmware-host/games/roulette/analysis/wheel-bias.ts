/**
 * The wheel-bias watch: tests a run of spins for the faults a surveillance
 * officer looks for on a roulette wheel, each test with a stated
 * false-alarm rate (the chance it fires on a fair wheel, per report):
 *
 * - `frequencies`: Pearson's chi-square of the 37 counts against 1/37 each
 *   (36 degrees of freedom; the p-value from the chi-square law by the
 *   regularized gamma function, valid once every number expects 5 spins).
 * - `hot_number`: the most frequent number, by its exact binomial tail,
 *   times 37 for having picked the largest (a union bound).
 * - `cold_number`: the least frequent number (a dead pocket: a raised fret,
 *   a damaged pocket), by its exact lower binomial tail, times 37.
 * - `sector`: the busiest arc of the wheel of each width (3, 5, 9, 12, 18
 *   pockets by default), by its exact binomial tail, times 37 positions
 *   times the widths.
 * - `direction_split`: the numbers against the rotor's direction, a 2 × 37
 *   chi-square of homogeneity and each direction's own goodness of fit,
 *   the smallest p-value times 3.
 * - `repeat`: the longest run of one number on consecutive spins; at most
 *   (n - L + 1) · 37^-(L-1) for a run of L on a fair wheel.
 *
 * A test fires when its p-value (or bound) is below `falseAlarm`. The
 * derivations are in docs/operator/wheel-bias.md. Pure: spins in, a report out.
 */
import { z } from 'zod';
import {
  binomialLowerTail,
  binomialUpperTail,
  chiSquareSurvival,
} from '../../../analysis/distributions.ts';

export const wheelBiasOptionsSchema = z.strictObject({
  /** Largest accepted false-alarm probability per report, per test. */
  falseAlarm: z.number().positive().max(0.5).default(1e-3),
  /** Arc widths, in pockets, the sector test looks at. */
  sectorWidths: z.array(z.number().int().min(2).max(36)).min(1).default([3, 5, 9, 12, 18]),
  /** Spins each number must expect before the chi-square tests run. */
  minExpected: z.number().min(1).max(100).default(5),
});
export type WheelBiasOptions = z.infer<typeof wheelBiasOptionsSchema>;

export type Direction = 'cw' | 'ccw';

export interface WheelSpin {
  readonly number: number;
  readonly rotor?: Direction;
  readonly ball?: Direction;
  readonly revolutions?: number;
}

export type WheelTest =
  | 'frequencies'
  | 'hot_number'
  | 'cold_number'
  | 'sector'
  | 'direction_split'
  | 'repeat';

export interface WheelTestResult {
  readonly test: WheelTest;
  /** False when there were too few spins for the test; `reason` says why. */
  readonly ran: boolean;
  readonly reason?: string;
  /** The p-value (corrected for the choices the test made), or the bound; 1 when not run. */
  readonly pValue: number;
  readonly alarm: boolean;
  /** The test's false-alarm rate per report. */
  readonly falseAlarm: number;
  readonly detail: string;
  /** The numbers the finding points at (the hot number, the sector, the repeated number). */
  readonly numbers?: readonly number[];
}

export interface WheelReport {
  readonly spins: number;
  /** Spins per number, 0-36. */
  readonly counts: readonly number[];
  readonly byRotor: Readonly<Record<Direction, readonly number[]>>;
  readonly tests: readonly WheelTestResult[];
  readonly alarms: number;
}

const POCKETS = 37;

function zeros(): number[] {
  return new Array<number>(POCKETS).fill(0);
}

function pearson(counts: readonly number[]): number {
  const total = counts.reduce((a, b) => a + b, 0);
  const expected = total / POCKETS;
  return counts.reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0);
}

/** Chi-square of homogeneity of two rows of counts; numbers never seen drop out. */
function homogeneity(
  a: readonly number[],
  b: readonly number[],
): { statistic: number; df: number } {
  const na = a.reduce((x, y) => x + y, 0);
  const nb = b.reduce((x, y) => x + y, 0);
  const n = na + nb;
  let statistic = 0;
  let columns = 0;
  for (let i = 0; i < POCKETS; i++) {
    const column = (a[i] as number) + (b[i] as number);
    if (column === 0) continue;
    columns++;
    const ea = (na * column) / n;
    const eb = (nb * column) / n;
    statistic += ((a[i] as number) - ea) ** 2 / ea + ((b[i] as number) - eb) ** 2 / eb;
  }
  return { statistic, df: Math.max(1, columns - 1) };
}

function result(
  test: WheelTest,
  options: WheelBiasOptions,
  pValue: number,
  detail: string,
  numbers?: readonly number[],
): WheelTestResult {
  const p = Math.min(1, pValue);
  return {
    test,
    ran: true,
    pValue: p,
    alarm: p < options.falseAlarm,
    falseAlarm: options.falseAlarm,
    detail,
    ...(numbers ? { numbers } : {}),
  };
}

function notRun(test: WheelTest, options: WheelBiasOptions, reason: string): WheelTestResult {
  return {
    test,
    ran: false,
    reason,
    pValue: 1,
    alarm: false,
    falseAlarm: options.falseAlarm,
    detail: reason,
  };
}

function format(p: number): string {
  return p < 1e-3 ? p.toExponential(1) : p.toFixed(4);
}

function frequencies(counts: readonly number[], n: number, options: WheelBiasOptions) {
  const need = Math.ceil(options.minExpected * POCKETS);
  if (n < need)
    return notRun(
      'frequencies',
      options,
      `needs ${need} spins (${options.minExpected} expected per number), has ${n}`,
    );
  const statistic = pearson(counts);
  const p = chiSquareSurvival(statistic, POCKETS - 1);
  return result(
    'frequencies',
    options,
    p,
    `chi-square ${statistic.toFixed(1)} on 36 degrees of freedom, p = ${format(p)}`,
  );
}

function hotNumber(counts: readonly number[], n: number, options: WheelBiasOptions) {
  if (n === 0) return notRun('hot_number', options, 'no spins');
  const top = Math.max(...counts);
  const number = counts.indexOf(top);
  const p = POCKETS * binomialUpperTail(n, 1 / POCKETS, top);
  return result(
    'hot_number',
    options,
    p,
    `${number} came ${top} times in ${n} spins (${(n / POCKETS).toFixed(1)} expected); corrected p = ${format(Math.min(1, p))}`,
    [number],
  );
}

function coldNumber(counts: readonly number[], n: number, options: WheelBiasOptions) {
  if (n === 0) return notRun('cold_number', options, 'no spins');
  const bottom = Math.min(...counts);
  const number = counts.indexOf(bottom);
  const p = POCKETS * binomialLowerTail(n, 1 / POCKETS, bottom);
  return result(
    'cold_number',
    options,
    p,
    `${number} came ${bottom} times in ${n} spins (${(n / POCKETS).toFixed(1)} expected); corrected p = ${format(Math.min(1, p))}`,
    [number],
  );
}

function sector(
  order: readonly number[],
  counts: readonly number[],
  n: number,
  options: WheelBiasOptions,
) {
  if (n === 0) return notRun('sector', options, 'no spins');
  const widths = options.sectorWidths;
  let best = { p: 2, start: 0, width: 0, count: 0 };
  for (const width of widths) {
    for (let start = 0; start < POCKETS; start++) {
      let count = 0;
      for (let k = 0; k < width; k++)
        count += counts[order[(start + k) % POCKETS] as number] as number;
      const p = binomialUpperTail(n, width / POCKETS, count);
      if (p < best.p) best = { p, start, width, count };
    }
  }
  const numbers = Array.from(
    { length: best.width },
    (_, k) => order[(best.start + k) % POCKETS] as number,
  );
  const corrected = best.p * POCKETS * widths.length;
  return result(
    'sector',
    options,
    corrected,
    `the ${best.width}-pocket sector ${numbers[0]}..${numbers.at(-1)} took ${best.count} of ${n} spins (${((n * best.width) / POCKETS).toFixed(1)} expected); corrected p = ${format(Math.min(1, corrected))}`,
    numbers,
  );
}

function directionSplit(byRotor: Record<Direction, number[]>, options: WheelBiasOptions) {
  const cw = byRotor.cw.reduce((a, b) => a + b, 0);
  const ccw = byRotor.ccw.reduce((a, b) => a + b, 0);
  const need = Math.ceil(options.minExpected * POCKETS);
  if (cw < need || ccw < need) {
    return notRun(
      'direction_split',
      options,
      `needs ${need} spins each way (${options.minExpected} expected per number), has ${cw} clockwise and ${ccw} counter-clockwise`,
    );
  }
  const split = homogeneity(byRotor.cw, byRotor.ccw);
  const pSplit = chiSquareSurvival(split.statistic, split.df);
  const pCw = chiSquareSurvival(pearson(byRotor.cw), POCKETS - 1);
  const pCcw = chiSquareSurvival(pearson(byRotor.ccw), POCKETS - 1);
  const p = 3 * Math.min(pSplit, pCw, pCcw);
  return result(
    'direction_split',
    options,
    p,
    `clockwise ${cw} spins (fit p = ${format(pCw)}), counter-clockwise ${ccw} (fit p = ${format(pCcw)}), the two against each other p = ${format(pSplit)}; corrected p = ${format(Math.min(1, p))}`,
  );
}

/** The bound on a run of `length` or more of one number somewhere in `spins` fair spins. */
export function repeatBound(spins: number, length: number): number {
  if (length <= 1) return 1;
  if (length > spins) return 0;
  return Math.min(1, (spins - length + 1) * POCKETS ** -(length - 1));
}

/** The shortest run that fires on `spins` spins at the false-alarm rate. */
export function repeatThreshold(spins: number, falseAlarm: number): number {
  let length = 2;
  while (repeatBound(spins, length) >= falseAlarm) length++;
  return length;
}

function repeat(spins: readonly WheelSpin[], options: WheelBiasOptions) {
  if (spins.length < 2) return notRun('repeat', options, 'needs 2 spins');
  let best = { length: 1, number: spins[0]?.number ?? 0, end: 0 };
  let run = 1;
  for (let i = 1; i < spins.length; i++) {
    run = spins[i]?.number === spins[i - 1]?.number ? run + 1 : 1;
    if (run > best.length) best = { length: run, number: spins[i]?.number ?? 0, end: i };
  }
  const bound = repeatBound(spins.length, best.length);
  const threshold = repeatThreshold(spins.length, options.falseAlarm);
  return result(
    'repeat',
    options,
    bound,
    `longest run: ${best.number} ${best.length} time(s) in a row${best.length > 1 ? ` ending at spin ${best.end + 1}` : ''}; ${threshold} in a row would fire; bound ${format(bound)}`,
    [best.number],
  );
}

/** Runs every test on the spins, in the order given (oldest first). */
export function analyzeWheel(
  order: readonly number[],
  spins: readonly WheelSpin[],
  options: WheelBiasOptions = wheelBiasOptionsSchema.parse({}),
): WheelReport {
  const counts = zeros();
  const byRotor: Record<Direction, number[]> = { cw: zeros(), ccw: zeros() };
  for (const spin of spins) {
    if (!Number.isInteger(spin.number) || spin.number < 0 || spin.number > 36) {
      throw new RangeError(`spin number ${spin.number} is not a pocket 0-36`);
    }
    counts[spin.number] = (counts[spin.number] as number) + 1;
    if (spin.rotor)
      byRotor[spin.rotor][spin.number] = (byRotor[spin.rotor][spin.number] as number) + 1;
  }
  const n = spins.length;
  const tests = [
    frequencies(counts, n, options),
    hotNumber(counts, n, options),
    coldNumber(counts, n, options),
    sector(order, counts, n, options),
    directionSplit(byRotor, options),
    repeat(spins, options),
  ];
  return { spins: n, counts, byRotor, tests, alarms: tests.filter((t) => t.alarm).length };
}
