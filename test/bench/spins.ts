/**
 * Spin latency through the whole daemon (TableDaemon in this process: the
 * wheel driver, the roulette session, the fsynced journal, the MQTT bridge)
 * against a real broker: from the wheel writing its RESULT to a subscriber
 * receiving the `spin` event. One game at a time; the rotor, the ball and
 * "no more bets" are stored first, so each figure is the result's path alone.
 * The baseline, in the same run on the same broker: a shoe's CARD to its
 * `card` event through a card table's daemon, the path every card takes.
 * Both devices are simulators on in-memory wires.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { connectAsync } from 'mqtt';
import { resolveConfig } from '../../firmware-host/config/loader.ts';
import { TableDaemon } from '../../firmware-host/daemon/table-daemon.ts';
import { memoryWire, releaseMemoryWire } from '../../hardware/transports/memory.ts';
import { SimulatedDevice } from '../../simulators/device.ts';
import { SimulatedWheel } from '../../simulators/wheel.ts';
import { startTestBroker } from '../helpers/broker.ts';
import { percentile } from './pipeline.ts';

export interface SpinFigures {
  spins: number;
  p50_ms: number;
  p99_ms: number;
  baseline: { cards: number; p50_ms: number; p99_ms: number };
  ratio_p50: number;
  ratio_p99: number;
  broker: string;
}

const round = (value: number) => Math.round(value * 100) / 100;

async function until(predicate: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!predicate()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

async function table(ruleset: string, device: 'wheel' | 'shoe', brokerUrl: string) {
  const dir = await mkdtemp(join(tmpdir(), `tableside-bench-${device}-`));
  const wireName = `bench-${device}-${Math.random().toString(36).slice(2)}`;
  const wire = memoryWire(wireName);
  const { config } = resolveConfig(
    {
      table: `bench-${device}`,
      ruleset,
      devices: { [device]: { kind: device, transport: 'simulate' } },
      mqtt: { url: brokerUrl, baseTopic: 'bench' },
      journal: { dir, rotateDaily: false },
      session: { autoRound: device === 'shoe' },
    },
    { env: {} },
  );
  // The daemon's own `simulate` wire is not used: the bench drives the device itself.
  config.devices[device]!.transport = `memory://${wireName}`;
  const daemon = new TableDaemon({ config, simulate: false });
  await daemon.start();
  const arrivals: number[] = [];
  const client = await connectAsync(brokerUrl, { clientId: `bench-sub-${device}-${process.pid}` });
  const topic = `bench/bench-${device}/events/${device === 'wheel' ? 'spin' : 'card'}`;
  client.on('message', (_topic, payload) => {
    const type = (JSON.parse(payload.toString()) as { type: string }).type;
    if (type === 'spin' || type === 'card') arrivals.push(performance.now());
  });
  await client.subscribeAsync(topic, { qos: 1 });
  return {
    daemon,
    wire,
    arrivals,
    async close() {
      await client.endAsync();
      await daemon.stop();
      releaseMemoryWire(wireName);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export async function benchSpins(spins = 100): Promise<SpinFigures> {
  const broker = await startTestBroker();
  try {
    // The figure: the wheel's RESULT to the published spin.
    const roulette = await table('tdc-roulette', 'wheel', broker.url);
    const wheel = new SimulatedWheel({ transport: roulette.wire.device, seed: 1 });
    const samples: number[] = [];
    try {
      wheel.start();
      await wheel.whenReady();
      let sentAt = 0;
      wheel.on('wrote', (line) => {
        if (line.includes(',RESULT,')) sentAt = performance.now();
      });
      for (let game = 0; game < spins; game++) {
        const before = roulette.arrivals.length;
        // 40 ms between the spin's events: the rotor, the ball and "no more
        // bets" are durable before the RESULT goes, so only its path is timed.
        await wheel.playGame(40);
        await until(() => roulette.arrivals.length > before, `spin ${game + 1}`);
        samples.push(roulette.arrivals.at(-1)! - sentAt);
        await wheel.whenSettled(1);
      }
    } finally {
      await wheel.stop();
      await roulette.close();
    }

    // The baseline: a shoe's CARD to the published card, one at a time.
    const cards = await table('tdc-baccarat-no-commission', 'shoe', broker.url);
    const shoe = new SimulatedDevice({
      kind: 'shoe',
      ruleset: 'tdc-baccarat-no-commission',
      seed: 1,
      transport: cards.wire.device,
    });
    const baseline: number[] = [];
    try {
      await cards.daemon.newShoe('bench');
      shoe.start();
      await shoe.whenReady();
      let sentAt = 0;
      shoe.on('wrote', (line) => {
        if (line.includes(',CARD,')) sentAt = performance.now();
      });
      for (let card = 0; card < spins; card++) {
        const before = cards.arrivals.length;
        if (!(await shoe.step())) break;
        await until(() => cards.arrivals.length > before, `card ${card + 1}`);
        baseline.push(cards.arrivals.at(-1)! - sentAt);
        await until(() => shoe.pending.inFlight === 0, 'the card ACKed');
      }
    } finally {
      await shoe.stop();
      await cards.close();
    }
    const sorted = [...samples].sort((a, b) => a - b);
    const sortedBaseline = [...baseline].sort((a, b) => a - b);
    const p50 = percentile(sorted, 50);
    const p99 = percentile(sorted, 99);
    const b50 = percentile(sortedBaseline, 50);
    const b99 = percentile(sortedBaseline, 99);
    return {
      spins: samples.length,
      p50_ms: round(p50),
      p99_ms: round(p99),
      baseline: { cards: baseline.length, p50_ms: round(b50), p99_ms: round(b99) },
      ratio_p50: round(p50 / b50),
      ratio_p99: round(p99 / b99),
      broker: broker.kind,
    };
  } finally {
    await broker.close();
  }
}
