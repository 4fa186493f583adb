/**
 * Card latency through the whole daemon in this process (TableDaemon:
 * framer, validation, fsynced journal, MQTT bridge) against a real broker,
 * over a socat pty. `npm run bench -- --only auth` uses it to compare a
 * paired shoe with an unpaired one in the same process; the deployed
 * latency, burst and CPU per card are measured on the built daemon by
 * latency-lanes.ts and burst-lane.ts.
 *
 * The shoe simulator writes a CARD frame on one end of the pty; the daemon
 * reads the other end; a subscriber times the arrival of the card event. One
 * card at a time (the next once the event arrived). The baseline, in the same
 * run, on the same pty and broker: a bare relay that only reframes (link
 * session, immediate ACK) and publishes at QoS 1.
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
import { relayCards } from './relay-cards.mjs';

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
          // The unpaired lane is a bench: it says so, or the table refuses the shoe.
          ...(pairedKey === undefined ? { unpaired: 'allow' } : { key: pairedKey }),
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
  key?: import('../../hardware/keys/device-key.ts').DeviceKey;
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
  relayCards({ session, transport, publisher, cardTopic });
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
    key?: import('../../hardware/keys/device-key.ts').DeviceKey;
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
