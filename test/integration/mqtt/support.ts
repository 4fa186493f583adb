import { chmodSync, writeFileSync } from 'node:fs';
import { createServer, connect as netConnect, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import mqtt, { type IClientOptions, type IPublishPacket, type MqttClient } from 'mqtt';
import { pino } from 'pino';
import { afterEach } from 'vitest';
import type { CardCode } from '../../../device-protocol/cards.ts';
import { CursorStore } from '../../../firmware-host/journal/cursor.ts';
import { Journal } from '../../../firmware-host/journal/journal.ts';
import { type BridgeOptions, MqttBridge } from '../../../firmware-host/mqtt/bridge.ts';
import type { DomainEvent } from '../../../firmware-host/table/events.ts';
import { startTestBroker, type TestBrokerOptions } from '../../helpers/broker.ts';
import { tempDir as makeTempDir } from '../../helpers/temp.ts';
import { mosquittoMissing as mosquittoMissingBecause } from '../../helpers/tools.ts';
import { until } from '../../helpers/until.ts';

export const BASE = 'tableside';
export const TABLE = 't1';

export interface Received {
  topic: string;
  text: string;
  retain: boolean;
  /** MQTT 5 properties, as the consumer received them. */
  properties: IPublishPacket['properties'];
}

export class Recorder {
  readonly messages: Received[] = [];
  /** sessionPresent of every (re)connect after the first. */
  readonly reconnects: boolean[] = [];
  constructor(readonly client: MqttClient) {
    client.on('message', (topic, payload, packet) => {
      this.messages.push({
        topic,
        text: payload.toString(),
        retain: packet.retain,
        properties: packet.properties,
      });
    });
  }

  static async connect(url: string, options: IClientOptions = {}, filter = `${BASE}/${TABLE}/#`) {
    const client = await mqtt.connectAsync(url, {
      reconnectPeriod: 100,
      protocolVersion: 4,
      ...options,
    });
    const recorder = new Recorder(client);
    await client.subscribeAsync(filter, { qos: 1 });
    // A reconnect with a clean session needs the subscription again.
    client.on('connect', (connack) => {
      recorder.reconnects.push(connack.sessionPresent);
      if (!connack.sessionPresent)
        void client.subscribeAsync(filter, { qos: 1 }).catch(() => undefined);
    });
    return recorder;
  }

  on(topicSuffix: string): Received[] {
    return this.messages.filter((message) => message.topic === `${BASE}/${TABLE}/${topicSuffix}`);
  }

  /** Events (any events/<kind>) parsed, deduplicated by seq, in arrival order. */
  events(): Record<string, unknown>[] {
    const seen = new Set<number>();
    const events: Record<string, unknown>[] = [];
    for (const message of this.messages) {
      if (!message.topic.startsWith(`${BASE}/${TABLE}/events/`)) continue;
      const event = JSON.parse(message.text) as Record<string, unknown>;
      if (seen.has(event.seq as number)) continue;
      seen.add(event.seq as number);
      events.push({ ...event, topic: message.topic.slice(`${BASE}/${TABLE}/`.length) });
    }
    return events;
  }

  async close() {
    await this.client.endAsync(true);
  }
}

/** The suite's one wait (test/helpers/until.ts), under the name these tests use. */
export const waitFor = until;

export function tempDir(prefix = 'tableside-bridge-'): string {
  return makeTempDir(prefix);
}

export async function openStore(dir: string) {
  let now = Date.UTC(2025, 0, 1, 12);
  const journal = await Journal.open({
    dir: join(dir, 'journal'),
    clock: () => now++,
    table: TABLE,
  });
  const cursor = await CursorStore.open(join(dir, 'mqtt-cursor.json'));
  return { journal, cursor };
}

export function makeBridge(
  url: string,
  store: { journal: Journal; cursor: CursorStore },
  overrides: Partial<BridgeOptions> = {},
) {
  return new MqttBridge({
    url,
    table: TABLE,
    baseTopic: BASE,
    clientId: `tableside-test-${Math.floor(Math.random() * 1e9)}`,
    journal: store.journal,
    cursor: store.cursor,
    onRequest: () => ({}),
    backoff: { initialMs: 100, maxMs: 800 },
    connectTimeoutMs: 3000,
    ...overrides,
  });
}

export const cardEvent = (card: string, index: number): DomainEvent => ({
  type: 'card',
  card,
  to: index % 2 === 0 ? 'player' : 'banker',
  face: 'up',
  index,
});

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A logger whose records a test can read back (what an operator would see in the log). */
export function capturingLog() {
  const records: { level: number; msg: string; [field: string]: unknown }[] = [];
  const log = pino(
    { level: 'debug', base: undefined },
    {
      write: (line: string) => {
        records.push(JSON.parse(line));
      },
    },
  );
  return {
    log,
    records,
    /** Messages at warn (40) or above. */
    problems: () => records.filter((record) => record.level >= 40).map((record) => record.msg),
  };
}

/**
 * A TCP relay in front of a broker that a test can cut: every relayed
 * connection dies at once without an MQTT DISCONNECT, as when a cable is
 * pulled or a daemon is killed; `refuse` keeps new connections out.
 */
export async function cuttableRelay(brokerPort: number) {
  const sockets = new Set<Socket>();
  let refusing = false;
  const server: Server = createServer((inbound) => {
    if (refusing) {
      inbound.destroy();
      return;
    }
    const outbound = netConnect(brokerPort, '127.0.0.1');
    sockets.add(inbound);
    sockets.add(outbound);
    const drop = () => {
      inbound.destroy();
      outbound.destroy();
      sockets.delete(inbound);
      sockets.delete(outbound);
    };
    inbound.on('error', drop).on('close', drop);
    outbound.on('error', drop).on('close', drop);
    inbound.pipe(outbound);
    outbound.pipe(inbound);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `mqtt://127.0.0.1:${port}`,
    cut() {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
    },
    refuse(value: boolean) {
      refusing = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** What a scenario starts, stopped in reverse order after it (register with `later`). */
export function cleanupList() {
  const cleanups: (() => Promise<unknown>)[] = [];
  return {
    later<T>(value: T, cleanup: (value: T) => Promise<unknown>): T {
      cleanups.push(() => cleanup(value));
      return value;
    },
    async run() {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
    },
  };
}

/** An MQTT 5 client for a test (a consumer or a requester), with no reconnects of its own. */
export async function v5Client(url: string, options: IClientOptions = {}): Promise<MqttClient> {
  return await mqtt.connectAsync(url, { protocolVersion: 5, reconnectPeriod: 0, ...options });
}

/** Deals `count` face-up cards, one journal group commit per card (input and event). */
export async function dealCards(journal: Journal, count: number, from = 0): Promise<void> {
  const codes: CardCode[] = [
    '9H',
    '2C',
    'TD',
    '7S',
    'KH',
    'AS',
    '4D',
    '6C',
    'QS',
    '3H',
    '8D',
    'JC',
    '5S',
  ];
  for (let index = from; index < from + count; index++) {
    const card = codes[index % codes.length]!;
    await journal.append([
      { kind: 'input', data: { t: 'card', card, back: 'red', face: 'up' } },
      { kind: 'event', data: cardEvent(card, index) },
    ]);
  }
}

/** Why the MQTT 5 scenarios cannot run here (mosquitto missing), or undefined. */
export function mosquittoMissing(): string | undefined {
  return mosquittoMissingBecause('the MQTT 5 scenarios need a real broker');
}

/** A `cleanupList` run after each test of the file that calls this. */
export function cleanupAfterEach(): Cleanup {
  const cleanup = cleanupList();
  afterEach(() => cleanup.run());
  return cleanup;
}

export type Cleanup = ReturnType<typeof cleanupList>;

/** A test broker (mosquitto where installed), closed after the test. */
export async function brokerFor(cleanup: Cleanup, options: TestBrokerOptions = {}) {
  return cleanup.later(await startTestBroker(options), (broker) => broker.close());
}

/**
 * A started MQTT 5 bridge to `url` over a journal and cursor in a fresh
 * folder, logging where the test can read it back; all stopped after the
 * test. It is not yet connected when this returns.
 */
export async function startMqtt5Bridge(
  cleanup: Cleanup,
  url: string,
  overrides: Partial<BridgeOptions> = {},
) {
  const store = cleanup.later(await openStore(tempDir()), (s) => s.journal.close());
  const captured = capturingLog();
  const bridge = cleanup.later(
    makeBridge(url, store, { protocolVersion: 5, log: captured.log, ...overrides }),
    (b) => b.stop(),
  );
  await bridge.start();
  return { store, bridge, captured };
}

/** How most MQTT 5 scenarios begin: a test broker and a started MQTT 5 bridge to it. */
export async function startMqtt5Table(
  cleanup: Cleanup,
  options: { broker?: TestBrokerOptions; bridge?: Partial<BridgeOptions> } = {},
) {
  const broker = await brokerFor(cleanup, options.broker);
  return { broker, ...(await startMqtt5Bridge(cleanup, broker.url, options.bridge)) };
}

/**
 * A mosquitto ACL file with these lines, in a fresh folder. Both are made
 * readable because mosquitto started as root reads them as its own user;
 * `write` replaces the lines (reload the broker to apply them).
 */
export function aclFile(lines: readonly string[]) {
  const dir = tempDir('tableside-acl-');
  chmodSync(dir, 0o755);
  const path = join(dir, 'acl');
  const write = (next: readonly string[]) => {
    writeFileSync(path, `${next.join('\n')}\n`);
    chmodSync(path, 0o644);
  };
  write(lines);
  return { path, write };
}

/** An MQTT 5 `Recorder` on the table's topics, closed after the test. */
export async function v5Recorder(cleanup: Cleanup, url: string, options: IClientOptions = {}) {
  return cleanup.later(await Recorder.connect(url, { protocolVersion: 5, ...options }), (r) =>
    r.close(),
  );
}

/** An MQTT 5 requester (see `v5Client`), ended after the test. */
export async function v5Requester(cleanup: Cleanup, url: string) {
  return cleanup.later(await v5Client(url), (client) => client.endAsync(true));
}
