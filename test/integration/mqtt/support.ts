import { join } from 'node:path';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { CursorStore } from '../../../firmware-host/journal/cursor.ts';
import { Journal } from '../../../firmware-host/journal/journal.ts';
import { type BridgeOptions, MqttBridge } from '../../../firmware-host/mqtt/bridge.ts';
import type { DomainEvent } from '../../../firmware-host/table/events.ts';
import { tempDir as makeTempDir } from '../../helpers/temp.ts';

export const BASE = 'tableside';
export const TABLE = 't1';

export interface Received {
  topic: string;
  text: string;
  retain: boolean;
}

export class Recorder {
  readonly messages: Received[] = [];
  /** sessionPresent of every (re)connect after the first. */
  readonly reconnects: boolean[] = [];
  constructor(readonly client: MqttClient) {
    client.on('message', (topic, payload, packet) => {
      this.messages.push({ topic, text: payload.toString(), retain: packet.retain });
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

export async function waitFor(
  condition: () => boolean,
  what: string,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

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
