/**
 * Roulette figures: the wheel-bias report over a shift's and a month's
 * spins, against a bare tally of the same spins (the least any report must
 * do); and settling the 18-bet slip, against parsing it alone.
 */
import { performance } from 'node:perf_hooks';
import {
  analyzeWheel,
  type WheelSpin,
} from '../../firmware-host/games/roulette/analysis/wheel-bias.ts';
import { settleSpin } from '../../firmware-host/games/roulette/engine/settle.ts';
import { parseSlip } from '../../firmware-host/games/roulette/engine/slip.ts';
import { getRouletteRuleset } from '../../firmware-host/games/rulesets.ts';

export interface WheelFigures {
  report_3700_spins_ms: number;
  report_37000_spins_ms: number;
  tally_37000_spins_ms: number;
  report_ratio_to_tally: number;
  slips_settled_per_s: number;
  slips_parsed_per_s: number;
}

const SLIP =
  'straight:17=10 split:17-20=5 street:16=5 corner:13-17=4 sixline:13-18=6 dozen:2=10 column:2=10 red=10 black=10 even=10 odd=10 low=10 high=10 neighbours:17=5 voisins=9 tiers=6 orphelins=5 zero-spiel=4';

function spins(count: number): WheelSpin[] {
  let seed = 1;
  return Array.from({ length: count }, (_, i) => {
    seed = (seed * 48271) % 2147483647;
    return { number: seed % 37, rotor: i % 2 === 0 ? 'cw' : 'ccw' };
  });
}

function best(runs: number, body: () => void): number {
  let fastest = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    body();
    fastest = Math.min(fastest, performance.now() - started);
  }
  return Math.round(fastest * 100) / 100;
}

export function benchWheel(): WheelFigures {
  const ruleset = getRouletteRuleset('tdc-roulette');
  const order = ruleset.wheel.order;
  const shift = spins(3700);
  const month = spins(37_000);
  const report3700 = best(5, () => analyzeWheel(order, shift));
  const report37000 = best(5, () => analyzeWheel(order, month));
  const tally = best(5, () => {
    const counts = new Array<number>(37).fill(0);
    for (const spin of month) counts[spin.number]! += 1;
    if (counts.reduce((a, b) => a + b, 0) !== month.length) throw new Error('tally lost a spin');
  });
  const slips = 2000;
  const settleMs = best(3, () => {
    for (let i = 0; i < slips; i++) settleSpin(ruleset, i % 37, parseSlip(SLIP));
  });
  const parseMs = best(3, () => {
    for (let i = 0; i < slips; i++) parseSlip(SLIP);
  });
  return {
    report_3700_spins_ms: report3700,
    report_37000_spins_ms: report37000,
    tally_37000_spins_ms: tally,
    report_ratio_to_tally: Math.round((report37000 / Math.max(tally, 0.01)) * 10) / 10,
    slips_settled_per_s: Math.round((slips / settleMs) * 1000),
    slips_parsed_per_s: Math.round((slips / parseMs) * 1000),
  };
}
