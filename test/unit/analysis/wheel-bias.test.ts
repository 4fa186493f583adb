/**
 * The wheel-bias watch: its tail probabilities against published values,
 * its false-alarm rate measured on fair simulated wheels, and each test
 * catching the fault it is for (a biased sector, a hot number, a wheel that
 * leans one way with the rotor turning one way, a number repeated).
 */
import { describe, expect, it } from 'vitest';
import {
  binomialLowerTail,
  binomialUpperTail,
  chiSquareSurvival,
  regularizedGammaQ,
} from '../../../firmware-host/analysis/distributions.ts';
import {
  analyzeWheel,
  repeatBound,
  repeatThreshold,
  type WheelSpin,
  wheelBiasOptionsSchema,
} from '../../../firmware-host/games/roulette/analysis/wheel-bias.ts';
import {
  wheelChartSvg,
  wheelChartText,
} from '../../../firmware-host/games/roulette/analysis/wheel-chart.ts';
import { getRouletteRuleset } from '../../../firmware-host/games/rulesets.ts';
import { createRandom } from '../../../simulators/random.ts';

const wheel = getRouletteRuleset('tdc-roulette').wheel;
const order = wheel.order;

/** The simulators' seeded generator, so every run sees the same spins. */
const random = (seed: number): (() => number) => createRandom(seed).float;

function fairSpins(count: number, seed: number): WheelSpin[] {
  const next = random(seed);
  return Array.from({ length: count }, (_, i) => ({
    number: Math.floor(next() * 37),
    rotor: i % 2 === 0 ? 'cw' : 'ccw',
  }));
}

const test = (report: ReturnType<typeof analyzeWheel>, name: string) =>
  report.tests.find((t) => t.test === name)!;

describe('tail probabilities', () => {
  it('gives the chi-square critical values of the tables (36 df: 50.998 at 5 %, 67.985 at 0.1 %)', () => {
    expect(chiSquareSurvival(50.998, 36)).toBeCloseTo(0.05, 5);
    expect(chiSquareSurvival(67.985, 36)).toBeCloseTo(0.001, 6);
    expect(chiSquareSurvival(3.841, 1)).toBeCloseTo(0.05, 4);
    expect(chiSquareSurvival(0, 36)).toBe(1);
  });

  it('gives Q(1, x) = e^-x and Q(a, x) for large x by the continued fraction', () => {
    for (const x of [0.1, 1, 5, 30]) expect(regularizedGammaQ(1, x)).toBeCloseTo(Math.exp(-x), 12);
    // Q(18, 50) = P(chi-square 36 ≥ 100): about 6.8e-8.
    expect(regularizedGammaQ(18, 50)).toBeGreaterThan(1e-8);
    expect(regularizedGammaQ(18, 50)).toBeLessThan(1e-7);
    expect(() => regularizedGammaQ(0, 1)).toThrow(RangeError);
  });

  it('sums the binomial tail exactly: P(Bin(10, 1/2) ≥ 8) = 56/1024', () => {
    expect(binomialUpperTail(10, 0.5, 8)).toBeCloseTo(56 / 1024, 14);
    expect(binomialUpperTail(10, 0.5, 0)).toBe(1);
    expect(binomialUpperTail(10, 0.5, 11)).toBe(0);
    expect(binomialUpperTail(3700, 1 / 37, 100)).toBeGreaterThan(0.45);
    expect(binomialLowerTail(10, 0.5, 2)).toBeCloseTo(56 / 1024, 14);
    expect(binomialLowerTail(10, 0.5, 10)).toBe(1);
    expect(binomialLowerTail(10, 0.5, -1)).toBe(0);
    expect(binomialLowerTail(3700, 1 / 37, 0) / (36 / 37) ** 3700).toBeCloseTo(1, 10);
  });

  it('bounds a run of one number: 5 in a row in 1000 spins at most 996/37^4', () => {
    expect(repeatBound(1000, 5)).toBeCloseTo(996 / 37 ** 4, 12);
    expect(repeatThreshold(1000, 1e-3)).toBe(5);
    expect(repeatThreshold(100, 1e-3)).toBe(5);
    expect(repeatThreshold(10, 1e-3)).toBe(4);
  });
});

describe('false alarms on a fair wheel', () => {
  it('keeps each test at or under its stated rate: 200 reports of 740 fair spins at 5 %', () => {
    const options = wheelBiasOptionsSchema.parse({ falseAlarm: 0.05 });
    const fired = new Map<string, number>();
    const reports = 200;
    for (let seed = 1; seed <= reports; seed++) {
      for (const t of analyzeWheel(order, fairSpins(740, seed), options).tests) {
        expect(t.ran).toBe(true); // 370 spins each way: 10 expected per number
        if (t.alarm) fired.set(t.test, (fired.get(t.test) ?? 0) + 1);
      }
    }
    // At most 5 % each; 200 reports: allow the binomial spread (mean 10, 3 sigma ≈ 9).
    for (const [, count] of fired) expect(count).toBeLessThanOrEqual(19);
    // The chi-square test's rate is 5 % itself (not a bound): it must fire sometimes.
    expect(fired.get('frequencies') ?? 0).toBeGreaterThan(2);
  });

  it('raises no alarm at the default 0.1 % on 20 fair wheels of 3,700 spins', () => {
    for (let seed = 1000; seed < 1020; seed++) {
      const report = analyzeWheel(order, fairSpins(3700, seed));
      expect(report.tests.every((t) => t.ran)).toBe(true);
      expect(report.alarms).toBe(0);
    }
  });
});

describe('catching a biased wheel', () => {
  it('finds a 9-pocket sector taking 8 % more spins, and names its pockets', () => {
    const next = random(7);
    const sector = order.slice(5, 14);
    const spins: WheelSpin[] = Array.from({ length: 3000 }, () => ({
      number: next() < 0.08 ? sector[Math.floor(next() * 9)]! : Math.floor(next() * 37),
    }));
    const report = analyzeWheel(order, spins);
    const found = test(report, 'sector');
    expect(found.alarm).toBe(true);
    expect(found.pValue).toBeLessThan(1e-6);
    expect(found.numbers?.filter((n) => sector.includes(n)).length).toBeGreaterThanOrEqual(7);
  });

  it('finds one hot number', () => {
    const next = random(11);
    const spins = Array.from({ length: 2000 }, () => ({
      number: next() < 0.03 ? 23 : Math.floor(next() * 37),
    }));
    const found = test(analyzeWheel(order, spins), 'hot_number');
    expect(found.alarm).toBe(true);
    expect(found.numbers).toEqual([23]);
  });

  it('finds a dead pocket: one number coming up at a third of its rate', () => {
    const next = random(13);
    const spins: WheelSpin[] = [];
    while (spins.length < 3000) {
      const number = Math.floor(next() * 37);
      if (number === 19 && next() < 2 / 3) continue;
      spins.push({ number });
    }
    const found = test(analyzeWheel(order, spins), 'cold_number');
    expect(found.alarm).toBe(true);
    expect(found.numbers).toEqual([19]);
    expect(test(analyzeWheel(order, fairSpins(3000, 13)), 'cold_number').alarm).toBe(false);
  });

  it('finds a wheel that leans only when the rotor turns clockwise', () => {
    const next = random(3);
    const spins: WheelSpin[] = Array.from({ length: 4000 }, (_, i) => {
      const rotor = i % 2 === 0 ? 'cw' : 'ccw';
      const lean = rotor === 'cw' && next() < 0.1;
      return {
        rotor,
        number: lean ? order[20 + Math.floor(next() * 5)]! : Math.floor(next() * 37),
      };
    });
    const report = analyzeWheel(order, spins);
    expect(test(report, 'direction_split').alarm).toBe(true);
    expect(test(report, 'direction_split').detail).toMatch(/clockwise 2000 spins/);
  });

  it('finds one number five times in a row in 1,000 spins', () => {
    const spins = fairSpins(1000, 5).map((spin, i) =>
      i >= 500 && i < 505 ? { ...spin, number: 8 } : spin,
    );
    const found = test(analyzeWheel(order, spins), 'repeat');
    expect(found.alarm).toBe(true);
    expect(found.numbers).toEqual([8]);
    expect(found.detail).toMatch(/8 5 time\(s\) in a row ending at spin 505/);
  });

  it('does not run the chi-square tests on too few spins, and says so', () => {
    const report = analyzeWheel(order, fairSpins(100, 1));
    expect(test(report, 'frequencies')).toMatchObject({ ran: false, alarm: false });
    expect(test(report, 'frequencies').reason).toMatch(/needs 185 spins/);
    expect(() => analyzeWheel(order, [{ number: 37 }])).toThrow(/not a pocket/);
  });
});

describe('the chart', () => {
  const next = random(7);
  const sector = order.slice(5, 14);
  const spins: WheelSpin[] = Array.from({ length: 3000 }, (_, i) => ({
    number: next() < 0.08 ? sector[Math.floor(next() * 9)]! : Math.floor(next() * 37),
    rotor: i % 2 === 0 ? 'cw' : 'ccw',
  }));
  const report = analyzeWheel(order, spins);

  it('draws one line per pocket in wheel order, flagging the sector found', () => {
    const lines = wheelChartText(report, wheel).trimEnd().split('\n');
    expect(lines).toHaveLength(2 + 37);
    const numbers = lines.slice(2).map((line) => Number(line.slice(0, 3)));
    expect(numbers).toEqual(order);
    const flagged = lines
      .filter((line) => line.includes('◀ flagged'))
      .map((line) => Number(line.slice(0, 3)));
    expect(flagged.length).toBeGreaterThan(0);
    expect(flagged.every((n) => test(report, 'sector').numbers?.includes(n))).toBe(true);
    expect(lines[2]).toMatch(/^ {2}0 G/);
  });

  it('draws an SVG with a bar per pocket in its colour and the findings listed', () => {
    const svg = wheelChartSvg(report, wheel, 'Table 7 <wheel>');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).toContain('Table 7 &lt;wheel&gt;');
    expect(svg.match(/<rect x="[0-9.]+" y="[0-9.]+" width="18"/g)).toHaveLength(37);
    expect(svg).toContain('fill="#1a7f37"'); // zero, green
    expect(svg).toMatch(/sector: ALARM/);
    expect(svg.match(/stroke="#ff8c00"/g)?.length).toBe(test(report, 'sector').numbers?.length);
  });
});
