/**
 * The benchmark lanes still run: a tiny run of the latency lanes (the
 * daemon, the daemon with a paired shoe, the durable relay and the bare
 * relay as children with the unit's node flags, each on a socat pty,
 * interleaved) and of the reconnect burst on the built daemon.
 * Nothing about speed is asserted (benchmarks are not tests); what is checked
 * is that every pace reports every card with a spread that is a spread, both
 * ratios, each child's CPU, and that nothing is left behind in the temp dir.
 * The daemon runs from source (tsx, with the unit's node flags): the lanes
 * are the same code either way, and a test does not build dist/. The
 * comparison lane (`--compare-dist`) runs this checkout's source as the
 * "other build": a lane with its spread and the old/durable and new/old
 * ratios. The medians the targets read are taken over two such runs.
 */
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchBuiltBursts } from '../bench/burst-lane.ts';
import { benchLatencyLanes, type LaneFigures, medianRatios } from '../bench/latency-lanes.ts';
import { mosquittoMissing, skipReason, socatMissing } from '../helpers/tools.ts';

const benchLeftovers = () =>
  readdirSync(tmpdir()).filter((name) => name.startsWith('tableside-bench-'));

function expectSpread(lane: LaneFigures, cards: number) {
  expect(lane.cards).toBe(cards);
  expect(lane.min_ms).toBeGreaterThan(0);
  expect(lane.min_ms).toBeLessThanOrEqual(lane.p50_ms);
  expect(lane.p50_ms).toBeLessThanOrEqual(lane.p99_ms);
  expect(lane.p99_ms).toBeLessThanOrEqual(lane.max_ms);
  expect(lane.cpu_ms_per_card).toBeGreaterThan(0);
}

const missing = skipReason(
  socatMissing('the bench lanes deal over ptys'),
  mosquittoMissing('the bench lanes publish to a real broker'),
);

describe.skipIf(missing !== undefined)('the bench lanes on the daemon', () => {
  it('report every pace with min, p50, p99, max, the ratios to both relays and CPU per card, a paired shoe and an older build beside them', async () => {
    const before = benchLeftovers();
    const lanes = await benchLatencyLanes({
      warmup: 2,
      backToBack: 8,
      paced50: 4,
      dealer: 3,
      dealerPaceMs: 100,
      idleSeconds: 0.5,
      daemon: 'source',
      compareDist: resolve(import.meta.dirname, '..', '..'),
    });
    expect(lanes.node_flags).toContain('--no-turbofan');
    expect(lanes.broker).toBe('mosquitto');
    for (const [phase, cards, pace] of [
      [lanes.back_to_back, 8, 0],
      [lanes.paced_50ms, 4, 50],
      [lanes.dealer_pace, 3, 100],
    ] as const) {
      expect(phase.pace_ms).toBe(pace);
      expectSpread(phase.daemon, cards);
      expectSpread(phase.relay, cards);
      expectSpread(phase.durable, cards);
      expectSpread(phase.paired!, cards);
      expectSpread(phase.old!, cards);
      expect(phase.ratio_durable_p50).toBeCloseTo(phase.daemon.p50_ms / phase.durable.p50_ms, 1);
      expect(phase.ratio_durable_p99).toBeCloseTo(phase.daemon.p99_ms / phase.durable.p99_ms, 1);
      expect(phase.ratio_durable_cpu_per_card).toBeGreaterThan(0);
      expect(phase.ratio_paired_durable_p50).toBeCloseTo(
        phase.paired!.p50_ms / phase.durable.p50_ms,
        1,
      );
      expect(phase.ratio_durability_p50).toBeCloseTo(phase.durable.p50_ms / phase.relay.p50_ms, 1);
      expect(phase.ratio_old_p50).toBeCloseTo(phase.old!.p50_ms / phase.durable.p50_ms, 1);
      expect(phase.ratio_new_old_p50).toBeCloseTo(phase.daemon.p50_ms / phase.old!.p50_ms, 1);
      expect(phase.ratio_new_old_cpu_per_card).toBeGreaterThan(0);
      expect(phase.ratio_p50).toBeCloseTo(phase.daemon.p50_ms / phase.relay.p50_ms, 1);
      expect(phase.ratio_p99).toBeCloseTo(phase.daemon.p99_ms / phase.relay.p99_ms, 1);
      expect(phase.daemon.cpu_ms_per_card_above_idle).toBeLessThanOrEqual(
        phase.daemon.cpu_ms_per_card!,
      );
    }
    expect(lanes.daemon_idle_cpu_percent).toBeGreaterThanOrEqual(0);
    expect(lanes.old_idle_cpu_percent).toBeGreaterThanOrEqual(0);
    expect(lanes.compared_with).toMatch(/\(/);
    expect(lanes.durable_idle_cpu_percent).toBeGreaterThanOrEqual(0);
    expect(lanes.paired_idle_cpu_percent).toBeGreaterThanOrEqual(0);

    const ratios = [lanes.dealer_pace.ratio_durable_p50, lanes.dealer_pace.ratio_durable_p50 * 3];
    const medians = medianRatios([
      lanes,
      { ...lanes, dealer_pace: { ...lanes.dealer_pace, ratio_durable_p50: ratios[1]! } },
    ]);
    expect(medians.dealer_pace.ratio_durable_p50).toBeCloseTo((ratios[0]! + ratios[1]!) / 2, 1);
    expect(medians.dealer_pace.min_ratio_durable_p50).toBe(ratios[0]);
    expect(medians.dealer_pace.max_ratio_durable_p50).toBe(ratios[1]);

    const burst = await benchBuiltBursts({ protocol: '1.2', window: 32 }, 1, 'source');
    expect(burst.cards).toBeGreaterThan(400);
    expect(burst.each_cards_per_s).toHaveLength(1);
    expect(burst.min_cards_per_s).toBeLessThanOrEqual(burst.cards_per_s);
    expect(burst.cards_per_s).toBeLessThanOrEqual(burst.max_cards_per_s);
    expect(burst.cpu_ms_per_card).toBeGreaterThan(0);

    expect(benchLeftovers().filter((name) => !before.includes(name))).toEqual([]);
  }, 240_000);
});
