/**
 * Reconnect burst on the built daemon, as deployed: a child process with the
 * systemd unit's node flags, its shoe on a socat pty, its events on a real
 * mosquitto. The pty is pulled (socat killed, both ends vanish), the dealer
 * deals a whole 8-deck shoe into the shoe's buffer, the pty is plugged in
 * again; from the shoe's HELLO ACKed to the last card event received, cards
 * per second. Several bursts on the same daemon (one dropped first as a
 * warm-up, as a daemon that has dealt for hours has warmed up), reported as
 * min / median / max, so a stall shows instead of hiding under a median.
 * The daemon's own CPU over each burst, per card, is the saturated CPU per
 * card.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { MqttClient } from 'mqtt';
import { openTransport } from '../../hardware/transports/url.ts';
import { SimulatedDevice } from '../../simulators/device.ts';
import type { ScriptStep } from '../../simulators/scenario.ts';
import { startTestBroker } from '../helpers/broker.ts';
import {
  type ChildDaemon,
  cpuMeter,
  type DaemonCode,
  deployedNodeFlags,
  LANE_RULESET,
  readyDaemon,
  round,
  sleep,
  spawnBuiltDaemon,
} from './built-daemon.ts';
import { BenchPtyPair, SOCAT } from './pty.ts';

/** The shoe of one series: its protocol version and its window of unacknowledged events. */
export interface BurstShoe {
  protocol: string;
  window: number;
}

export interface BuiltBurstSeries extends BurstShoe {
  node_flags: string;
  cards: number;
  runs: number;
  /** Median over the runs, with the extremes beside it. */
  cards_per_s: number;
  min_cards_per_s: number;
  max_cards_per_s: number;
  /** Every run, in order. */
  each_cards_per_s: number[];
  /** The daemon's own CPU over a burst, per card: the saturated cost. Median, min, max. */
  cpu_ms_per_card: number | null;
  min_cpu_ms_per_card: number | null;
  max_cpu_ms_per_card: number | null;
  note?: string;
}

function median(sorted: readonly number[]): number {
  return sorted[Math.ceil(sorted.length / 2) - 1] ?? Number.NaN;
}

export async function benchBuiltBursts(
  shoe: BurstShoe,
  runs: number,
  daemonCode: DaemonCode = 'built',
): Promise<BuiltBurstSeries> {
  if (!SOCAT) throw new Error('socat is not installed: the burst needs a pty pair');
  const buildNote = await readyDaemon(daemonCode);
  const broker = await startTestBroker();
  const pair = new BenchPtyPair();
  const dir = await mkdtemp(join(tmpdir(), 'tableside-bench-burst-'));
  const { connectAsync } = await import('mqtt');
  let client: MqttClient | undefined;
  let daemon: ChildDaemon | undefined;
  let sim: SimulatedDevice | undefined;
  try {
    await pair.start();
    client = await connectAsync(broker.url, {
      clientId: `bench-burst-${process.pid}`,
      reconnectPeriod: 0,
    });
    daemon = await spawnBuiltDaemon({
      dir,
      table: 'burst-1',
      devicePath: pair.a,
      brokerUrl: broker.url,
      client,
      code: daemonCode,
    });
    const cardTopic = daemon.topics.events('card');
    const availabilityTopic = daemon.topics.deviceAvailability('shoe');
    let received = 0;
    let online: ((at: number) => void) | undefined;
    client.on('message', (topic, payload) => {
      if (topic === cardTopic) received++;
      else if (topic === availabilityTopic && payload.toString() === 'online')
        online?.(performance.now());
    });
    await client.subscribeAsync([cardTopic, availabilityTopic], { qos: 1 });
    const script: ScriptStep[] = [];
    for (let run = 0; run <= runs; run++)
      script.push({ op: 'shuffle' }, { op: 'deal', count: 'rest' });
    sim = new SimulatedDevice({
      kind: 'shoe',
      ruleset: LANE_RULESET,
      seed: 5,
      transport: openTransport(pair.b),
      session: { maxInFlight: shoe.window },
      identity: { protocolVersion: shoe.protocol },
      scenario: { on: [], off: [], steps: script },
      reconnect: { initialDelayMs: 10, maxDelayMs: 100 },
    });
    sim.start();
    const rates: number[] = [];
    const cpus: number[] = [];
    let cards = 0;
    for (let run = -1; run < runs; run++) {
      await Promise.race([
        sim.whenReady(),
        sleep(15_000).then(() => {
          throw new Error('the shoe was not ACKed within 15 s');
        }),
      ]);
      await daemon.newShoe(client);
      await pair.unplug();
      await sleep(100);
      // The dealer deals the whole shoe into the shoe's buffer while the line is down.
      const from = sim.nextStepIndex;
      do {
        if (!(await sim.step())) break;
      } while (sim.upcoming() && sim.upcoming()!.kind !== 'shuffle');
      const dealt = sim.steps
        .slice(from, sim.nextStepIndex)
        .filter((s) => s.kind === 'card').length;
      const receivedBefore = received;
      // Timing starts when the daemon has heard the shoe's HELLO again, not at
      // the plug (both ends' reopen backoff is not the burst). Its `online`
      // comes over the same broker as the cards, so the broker's latency cancels.
      const ready = new Promise<number>((resolve) => {
        online = resolve;
      });
      const meter = await cpuMeter(daemon.pid);
      await pair.start();
      const started = await Promise.race([ready, sleep(15_000).then(() => undefined)]);
      online = undefined;
      if (started === undefined)
        throw new Error('burst: the daemon did not see the shoe online within 15 s of the plug');
      for (let waited = 0; received - receivedBefore < dealt; waited += 1) {
        if (waited > 60_000) {
          throw new Error(`burst: ${received - receivedBefore} of ${dealt} cards after 60 s`);
        }
        await sleep(1);
      }
      const seconds = (performance.now() - started) / 1000;
      const cpu = await meter(dealt);
      if (run < 0) continue;
      cards = dealt;
      rates.push(Math.round(dealt / seconds));
      if (cpu.cpu_ms_per_card !== null) cpus.push(cpu.cpu_ms_per_card);
    }
    const sortedRates = [...rates].sort((a, b) => a - b);
    const sortedCpu = [...cpus].sort((a, b) => a - b);
    return {
      ...shoe,
      node_flags: deployedNodeFlags().join(' '),
      cards,
      runs,
      cards_per_s: median(sortedRates),
      min_cards_per_s: sortedRates[0]!,
      max_cards_per_s: sortedRates.at(-1)!,
      each_cards_per_s: rates,
      cpu_ms_per_card: sortedCpu.length ? round(median(sortedCpu)) : null,
      min_cpu_ms_per_card: sortedCpu[0] ?? null,
      max_cpu_ms_per_card: sortedCpu.at(-1) ?? null,
      ...(buildNote ? { note: buildNote } : {}),
    };
  } finally {
    await sim?.stop().catch(() => undefined);
    await daemon?.stop();
    await client?.endAsync().catch(() => undefined);
    await pair.stop();
    await broker.close();
    await rm(dir, { recursive: true, force: true });
  }
}
