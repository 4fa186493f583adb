/**
 * A test subscriber that records what a table-management system would see:
 * every message on the table's topics, the retained values, and the events
 * deduplicated by `seq` as docs/integrator/mqtt.md tells consumers to do. It keeps its own
 * reconnects (the broker may be stopped under it) and, with a persistent
 * session, gets the QoS 1 events it missed while the broker was down.
 */
import { connectAsync, type MqttClient } from 'mqtt';
import { until } from '../../helpers/until.ts';

export interface PublishedEvent {
  seq: number;
  ts: number;
  type: string;
  /** The topic kind: card, hand, shoe, alarm. */
  topic: string;
  [field: string]: unknown;
}

export interface Received {
  topic: string;
  payload: string;
  retain: boolean;
}

export interface ConsumerOptions {
  url: string;
  /** `<base>/<table>` */
  root: string;
  clientId?: string;
}

export class Consumer {
  readonly root: string;
  readonly messages: Received[] = [];
  /** The last value seen on each topic, retained or not. */
  readonly latest = new Map<string, string>();
  /** Events in the order of their first arrival, each seq once. */
  readonly events: PublishedEvent[] = [];
  /** Deliveries of a seq already seen. */
  duplicates = 0;
  /** A new seq arriving below one already seen (an ordering fault), as "seq after seq". */
  readonly outOfOrder: string[] = [];
  /** Events whose payload lacked a numeric seq or ts. */
  readonly malformed: string[] = [];
  private readonly seen = new Set<number>();
  private highest = 0;
  private readonly client: MqttClient;

  private constructor(client: MqttClient, root: string) {
    this.client = client;
    this.root = root;
    client.on('message', (topic, payload, packet) => this.receive(topic, payload, packet.retain));
  }

  static async connect(options: ConsumerOptions): Promise<Consumer> {
    const client = await connectAsync(options.url, {
      clientId:
        options.clientId ?? `e2e-consumer-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
      // A persistent session: the broker queues QoS 1 events for us while we are away.
      clean: false,
      reconnectPeriod: 200,
      connectTimeout: 5_000,
      protocolVersion: 4,
    });
    const consumer = new Consumer(client, options.root);
    await client.subscribeAsync(`${options.root}/#`, { qos: 1 });
    // After a broker restart without persistence the subscription is gone: renew it.
    client.on('connect', (connack) => {
      if (!connack.sessionPresent) client.subscribe(`${options.root}/#`, { qos: 1 });
    });
    return consumer;
  }

  get connected(): boolean {
    return this.client.connected;
  }

  private receive(topic: string, payload: Buffer, retain: boolean): void {
    const text = payload.toString();
    this.messages.push({ topic, payload: text, retain });
    this.latest.set(topic, text);
    const prefix = `${this.root}/events/`;
    if (!topic.startsWith(prefix)) return;
    let event: PublishedEvent;
    try {
      event = { ...JSON.parse(text), topic: topic.slice(prefix.length) };
    } catch {
      this.malformed.push(`${topic}: ${text}`);
      return;
    }
    if (typeof event.seq !== 'number' || typeof event.ts !== 'number') {
      this.malformed.push(`${topic}: ${text}`);
      return;
    }
    if (this.seen.has(event.seq)) {
      this.duplicates++;
      return;
    }
    if (event.seq < this.highest) this.outOfOrder.push(`${event.seq} after ${this.highest}`);
    this.seen.add(event.seq);
    this.highest = Math.max(this.highest, event.seq);
    this.events.push(event);
  }

  /** The deduplicated events of one type, in arrival order. */
  ofType(type: string): PublishedEvent[] {
    return this.events.filter((event) => event.type === type);
  }

  /** The last value of a topic below the table root (`bridge/state`, `state`, ...). */
  value(subtopic: string): string | undefined {
    return this.latest.get(`${this.root}/${subtopic}`);
  }

  /** Whether a retained message arrived on the topic since `fromIndex` in `messages`. */
  retainedSince(subtopic: string, fromIndex: number): Received | undefined {
    const topic = `${this.root}/${subtopic}`;
    return this.messages.slice(fromIndex).find((m) => m.topic === topic && m.retain);
  }

  /**
   * Sends a request and resolves with its response (matched by the
   * transaction it echoes); `raw` sends the payload as given (bad JSON).
   */
  async request(
    op: string,
    body: Record<string, unknown> | { raw: string },
    timeoutMs = 15_000,
  ): Promise<Record<string, unknown>> {
    const responseTopic = `${this.root}/bridge/response/${op}`;
    const from = this.messages.length;
    const payload = 'raw' in body && typeof body.raw === 'string' ? body.raw : JSON.stringify(body);
    const transaction = 'raw' in body ? undefined : (body as { transaction?: unknown }).transaction;
    await this.client.publishAsync(`${this.root}/bridge/request/${op}`, payload, { qos: 1 });
    const answer = () =>
      this.messages.slice(from).find((message) => {
        if (message.topic !== responseTopic) return false;
        if (transaction === undefined) return true;
        try {
          return JSON.parse(message.payload).transaction === transaction;
        } catch {
          return false;
        }
      });
    await until(() => answer() !== undefined, `a response on ${responseTopic}`, timeoutMs);
    return JSON.parse(answer()!.payload) as Record<string, unknown>;
  }

  async close(): Promise<void> {
    await this.client.endAsync(true).catch(() => undefined);
  }
}
