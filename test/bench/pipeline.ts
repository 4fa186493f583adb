/**
 * Card latency and reconnect burst, through the whole daemon (TableDaemon in
 * this process: framer, validation, fsynced journal, MQTT bridge) against a
 * real broker (mosquitto via test/helpers/broker.ts, aedes where missing).
 *
 * Latency: the shoe simulator writes a CARD frame on one end of a socat pty
 * pair; the daemon reads the other end; a subscriber times the arrival of
 * the card event. One card at a time (the next once the event arrived), so
 * each figure is one card's path, not a queue. The baseline, in the same
 * run, on the same pty and broker: a bare relay that only reframes (link
 * session, immediate ACK) and publishes at QoS 1.
 *
 * Simulator, daemon and subscriber share this process's event loop, as do
 * simulator, relay and subscriber for the baseline: the comparison is fair,
 * and the absolute figures are upper bounds of the daemon's own share.
 *
 * Burst: the shoe's line is pulled (an in-memory wire severed), the dealer
 * deals a whole 8-deck shoe (416 cards) into the shoe's buffer, the line is
 * mended; from the moment the shoe's HELLO is ACKed again to the moment the
 * subscriber has all 416 card events (published from the journal, so
 * durable), cards per second.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { MqttClient } from 'mqtt';
import type { TablesideConfig } from '../../firmware-host/config/schema.ts';
import type { TableDaemon } from '../../firmware-host/daemon/table-daemon.ts';
import type { ScriptStep } from '../../simulators/scenario.ts';
import { startTestBroker, type TestBroker } from '../helpers/broker.ts';
import { BenchPtyPair, SOCAT } from './pty.ts';

export const RULESET = 'tdc-baccarat-no-commission';
const BASE_TOPIC = 'bench';
const TABLE = 'bench-1';

/** Unref'd: a timeout raced against an answer must not keep the process alive after it. */
const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
  });

export interface LatencyFigures {
  cards: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  baseline: { cards: number; p50_ms: number; p99_ms: number; max_ms: number };
  ratio_p99: number;
  broker: string;
}

export interface BurstFigures {
  cards: number;
  cards_per_s: number;
  seconds: number;
}

/** The shoe of one burst: its protocol version and its window of unacknowledged events. */
export interface BurstShoe {
  protocol: string;
  window: number;
}

export interface BurstSeries {
  protocol: string;
  window: number;
  cards: number;
  /** The median over the runs (the machine is shared: one run is noise). */
  cards_per_s: number;
  min_cards_per_s: number;
  max_cards_per_s: number;
  runs: number;
}

/**
 * `runs` bursts of one shoe, each on a fresh daemon and broker; the median
 * and the spread. One burst first, not counted: the first in the process
 * also measures the JIT compiling the pipeline, which a daemon that has been
 * dealing for hours has long done.
 */
export async function benchBursts(shoe: BurstShoe, runs: number): Promise<BurstSeries> {
  const rates: number[] = [];
  let cards = 0;
  await benchBurst(shoe, -1);
  for (let run = 0; run < runs; run++) {
    const burst = await benchBurst(shoe, run);
    rates.push(burst.cards_per_s);
    cards = burst.cards;
  }
  rates.sort((a, b) => a - b);
  return {
    ...shoe,
    cards,
    cards_per_s: percentile(rates, 50),
    min_cards_per_s: rates[0]!,
    max_cards_per_s: rates[rates.length - 1]!,
    runs,
  };
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

function summary(samples: readonly number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    cards: sorted.length,
    p50_ms: round(percentile(sorted, 50)),
    p99_ms: round(percentile(sorted, 99)),
    max_ms: round(sorted[sorted.length - 1] ?? Number.NaN),
  };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** Shoes of `rest`, each preceded by a shuffle: `shoes × 416` cards for an 8-deck ruleset. */
function shoesScript(shoes: number): ScriptStep[] {
  const script: ScriptStep[] = [];
  for (let shoe = 0; shoe < shoes; shoe++)
    script.push({ op: 'shuffle' }, { op: 'deal', count: 'rest' });
  return script;
}

async function subscriber(url: string, topic: string): Promise<MqttClient> {
  const { connectAsync } = await import('mqtt');
  const client = await connectAsync(url, {
    clientId: `bench-sub-${process.pid}`,
    reconnectPeriod: 0,
  });
  await client.subscribeAsync(topic, { qos: 1 });
  return client;
}

async function daemonConfig(
  shoeTransport: string,
  brokerUrl: string,
  journalDir: string,
  pairedKey?: string,
) {
  const { resolveConfig } = await import('../../firmware-host/config/loader.ts');
  return resolveConfig(
    {
      table: TABLE,
      ruleset: RULESET,
      devices: {
        shoe: {
          kind: 'shoe',
          transport: shoeTransport,
          ...(pairedKey === undefined ? {} : { key: pairedKey }),
        },
      },
      mqtt: { url: brokerUrl, baseTopic: BASE_TOPIC },
      journal: { dir: journalDir, rotateDaily: false },
      session: { autoRound: true },
    },
    { env: {} },
  ).config;
}

async function startDaemon(config: TablesideConfig, client: MqttClient): Promise<TableDaemon> {
  const { TableDaemon } = await import('../../firmware-host/daemon/table-daemon.ts');
  const { tableTopics } = await import('../../firmware-host/mqtt/topics.ts');
  const topics = tableTopics(BASE_TOPIC, TABLE);
  const online = new Promise<void>((resolve) => {
    const listener = (topic: string, payload: Buffer) => {
      if (topic === topics.bridgeState && payload.toString() === 'online') {
        client.off('message', listener);
        resolve();
      }
    };
    client.on('message', listener);
  });
  await client.subscribeAsync(topics.bridgeState, { qos: 1 });
  const daemon = new TableDaemon({ config, simulate: false });
  await daemon.start();
  await Promise.race([
    online,
    sleep(10_000).then(() => {
      throw new Error('the daemon did not publish bridge/state online within 10 s');
    }),
  ]);
  return daemon;
}

/** Deals `script` one card at a time and times each CARD frame written → card event received. */
async function timeCards(options: {
  devicePath: string;
  client: MqttClient;
  cardTopic: string;
  shoes: number;
  /** Called before a shuffle step is played (the daemon declares the new shoe). */
  beforeShuffle?: () => Promise<unknown>;
  warmup: number;
  /** The shoe's own key (protocol 1.4): it authenticates and MACs every frame. */
  key?: import('../../hardware/device/device-auth.ts').DeviceKey;
}): Promise<number[]> {
  const { SimulatedDevice } = await import('../../simulators/device.ts');
  const { openTransport } = await import('../../hardware/transports/url.ts');
  const sim = new SimulatedDevice({
    kind: 'shoe',
    ruleset: RULESET,
    seed: 11,
    transport: openTransport(options.devicePath),
    scenario: { on: [], off: [], steps: shoesScript(options.shoes) },
    reconnect: { initialDelayMs: 20, maxDelayMs: 200 },
    ...(options.key === undefined ? {} : { key: options.key }),
  });
  let writtenAt: number | undefined;
  sim.on('wrote', (line) => {
    if (writtenAt === undefined && /^\$SH,\d+,CARD,/.test(line)) writtenAt = performance.now();
  });
  let arrived: (() => void) | undefined;
  const listener = (topic: string) => {
    if (topic === options.cardTopic) arrived?.();
  };
  options.client.on('message', listener);
  const samples: number[] = [];
  try {
    sim.start();
    await sim.whenReady();
    for (let card = 0; ; card++) {
      if (sim.steps[sim.nextStepIndex]?.kind === 'shuffle') await options.beforeShuffle?.();
      // step() plays up to the next card or cut card; only a card makes a card event.
      const paced = sim.steps
        .slice(sim.nextStepIndex)
        .find((step) => step.kind === 'card' || step.kind === 'cut');
      if (!paced) break;
      writtenAt = undefined;
      const received = new Promise<number>((resolve) => {
        arrived = () => resolve(performance.now());
      });
      if (!(await sim.step())) break;
      if (paced.kind !== 'card') {
        arrived = undefined;
        await sleep(5);
        continue;
      }
      const at = await Promise.race([received, sleep(5000).then(() => undefined)]);
      if (at === undefined || writtenAt === undefined) {
        throw new Error(`card ${card + 1}: no card event within 5 s`);
      }
      if (card >= options.warmup) samples.push(at - writtenAt);
    }
  } finally {
    options.client.off('message', listener);
    await sim.stop();
  }
  return samples;
}

/** The baseline: reframe (link session with immediate ACKs) and publish, nothing else. */
async function startBareRelay(hostPath: string, brokerUrl: string, cardTopic: string) {
  const [{ LinkSession }, { openTransport }, { connectAsync }] = await Promise.all([
    import('../../device-protocol/link.ts'),
    import('../../hardware/transports/url.ts'),
    import('mqtt'),
  ]);
  const publisher = await connectAsync(brokerUrl, {
    clientId: `bench-relay-${process.pid}`,
    reconnectPeriod: 0,
  });
  const transport = openTransport(hostPath);
  await transport.open();
  const session = new LinkSession({ localTalker: 'HO', peerTalker: 'SH' });
  let seq = 0;
  transport.on('data', (chunk) => {
    for (const action of session.receiveBytes(chunk, performance.now())) {
      if (action.kind === 'send') {
        transport.write(Buffer.from(action.line, 'latin1')).catch(() => undefined);
      } else if (action.kind === 'deliver' && action.message.type === 'CARD') {
        const { card, back, face } = action.message;
        publisher.publish(
          cardTopic,
          JSON.stringify({ seq: ++seq, ts: Date.now(), type: 'card', card, back, face }),
          {
            qos: 1,
          },
        );
      }
    }
  });
  return {
    async stop() {
      await transport.close();
      await publisher.endAsync();
    },
  };
}

export async function benchLatency(
  options: {
    shoes?: number;
    warmup?: number;
    /** A paired shoe (protocol 1.4) for the daemon lane; the bare relay's shoe has no key. */
    key?: import('../../hardware/device/device-auth.ts').DeviceKey;
  } = {},
): Promise<LatencyFigures> {
  if (!SOCAT) throw new Error('socat is not installed: the latency benchmark needs a pty pair');
  const shoes = options.shoes ?? 5;
  const warmup = options.warmup ?? 20;
  const { tableTopics } = await import('../../firmware-host/mqtt/topics.ts');
  const topics = tableTopics(BASE_TOPIC, TABLE);
  const cardTopic = topics.events('card');
  const broker: TestBroker = await startTestBroker();
  const pair = new BenchPtyPair();
  const journalDir = await mkdtemp(join(tmpdir(), 'tableside-bench-'));
  let client: MqttClient | undefined;
  try {
    await pair.start();
    client = await subscriber(broker.url, cardTopic);

    const relay = await startBareRelay(pair.a, broker.url, cardTopic);
    let baselineSamples: number[];
    try {
      baselineSamples = await timeCards({ devicePath: pair.b, client, cardTopic, shoes, warmup });
    } finally {
      await relay.stop();
    }

    const { formatPublicKey } = await import('../../device-protocol/auth/keys.ts');
    const config = await daemonConfig(
      pair.a,
      broker.url,
      journalDir,
      options.key === undefined ? undefined : formatPublicKey(options.key.publicKey),
    );
    const daemon = await startDaemon(config, client);
    let daemonSamples: number[];
    try {
      daemonSamples = await timeCards({
        devicePath: pair.b,
        client,
        cardTopic,
        shoes,
        warmup,
        beforeShuffle: () => daemon.newShoe('bench'),
        ...(options.key === undefined ? {} : { key: options.key }),
      });
    } finally {
      await daemon.stop();
    }
    const ours = summary(daemonSamples);
    const baseline = summary(baselineSamples);
    return {
      ...ours,
      baseline,
      ratio_p99: round(ours.p99_ms / baseline.p99_ms),
      broker: broker.kind,
    };
  } finally {
    await client?.endAsync().catch(() => undefined);
    await pair.stop();
    await broker.close();
    await rm(journalDir, { recursive: true, force: true });
  }
}

/**
 * A shoe that dealt a whole 8-deck shoe into its buffer while its line was
 * pulled reconnects: cards per second from its HELLO until the last card is
 * durable and published. A 1.1 shoe replays stop and wait (one round trip a
 * card); a 1.2 shoe with a window replays in order several at a time
 * (PROTOCOL.md § 4 item 9).
 */
export async function benchBurst(shoe: BurstShoe, run = 0): Promise<BurstFigures> {
  const window = shoe.window;
  const [{ memoryWire, releaseMemoryWire }, { SimulatedDevice }, { tableTopics }] =
    await Promise.all([
      import('../../hardware/transports/memory.ts'),
      import('../../simulators/device.ts'),
      import('../../firmware-host/mqtt/topics.ts'),
    ]);
  const topics = tableTopics(BASE_TOPIC, TABLE);
  const cardTopic = topics.events('card');
  const broker = await startTestBroker();
  const journalDir = await mkdtemp(join(tmpdir(), 'tableside-bench-'));
  const wireName = `bench-burst-${process.pid}-${shoe.protocol}-${window}-${run}`;
  let client: MqttClient | undefined;
  let daemon: TableDaemon | undefined;
  try {
    client = await subscriber(broker.url, cardTopic);
    const config = await daemonConfig(`memory://${wireName}`, broker.url, journalDir);
    daemon = await startDaemon(config, client);
    const wire = memoryWire(wireName);
    const sim = new SimulatedDevice({
      kind: 'shoe',
      ruleset: RULESET,
      seed: 5,
      transport: wire.device,
      session: { maxInFlight: window },
      identity: { protocolVersion: shoe.protocol },
      scenario: { on: [], off: [], steps: shoesScript(1) },
      reconnect: { initialDelayMs: 10, maxDelayMs: 100 },
    });
    try {
      sim.start();
      await sim.whenReady();
      await daemon.newShoe('bench');
      wire.sever('bench: line pulled');
      await sleep(50);
      // The dealer deals the whole shoe into the shoe's buffer while the line is down.
      while (await sim.step()) {}
      const dealt = sim.steps.filter((step) => step.kind === 'card').length;
      let received = 0;
      let allArrived: (() => void) | undefined;
      const done = new Promise<number>((resolve) => {
        allArrived = () => resolve(performance.now());
      });
      client.on('message', (topic) => {
        if (topic === cardTopic && ++received === dealt) allArrived?.();
      });
      // Timing starts when the daemon hears the shoe's HELLO again (not the reconnect backoff).
      const running = daemon;
      const ready = new Promise<number>((resolve) => {
        const listener = (device: string, availability: string) => {
          if (device !== 'shoe' || availability !== 'online') return;
          running.off('availability', listener);
          resolve(performance.now());
        };
        running.on('availability', listener);
      });
      wire.restore();
      const started = await ready;
      const finished = await Promise.race([done, sleep(60_000).then(() => undefined)]);
      if (finished === undefined)
        throw new Error(`burst: ${received} of ${dealt} cards after 60 s`);
      const seconds = (finished - started) / 1000;
      return { cards: dealt, cards_per_s: Math.round(dealt / seconds), seconds: round(seconds) };
    } finally {
      await sim.stop();
    }
  } finally {
    await daemon?.stop();
    await client?.endAsync().catch(() => undefined);
    await broker.close();
    releaseMemoryWire(wireName);
    await rm(journalDir, { recursive: true, force: true });
  }
}
