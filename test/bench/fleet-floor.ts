/**
 * The floor a fleet run deals onto, the same for the daemons and for the
 * bare relay baseline: mosquitto brokers (one, or an edge broker per group
 * of tables bridging to a central one), the consumer instances reading
 * every table through one shared subscription on the central broker, and
 * the check that every card reached them once, in order, with its value.
 */
import { performance } from 'node:perf_hooks';
import { connectAsync, type MqttClient } from 'mqtt';
import { sleep } from './built-daemon.ts';
import { type Broker, type ProcessGroup, startMosquitto } from './fleet-processes.ts';

export const FLEET_BASE_TOPIC = 'fleet';
/** The consumers' shared subscription: every event of every table, split between the group. */
export const SHARED_SUBSCRIPTION = `$share/tms/${FLEET_BASE_TOPIC}/+/events/#`;

export type Topology = 'direct' | 'bridged';

export interface Percentiles {
  p50_ms: number | null;
  p99_ms: number | null;
  max_ms: number | null;
}

export interface Delivery {
  consumer: number;
  table: string;
  seq: number;
  ts: number;
  type: string;
  card: unknown;
  hidden: boolean;
  receivedAt: number;
  receivedWall: number;
}

export interface PlayedCard {
  card: string;
  face: string;
  /** When the shoe wrote its CARD frame (performance.now()). */
  at: number;
}

/** What a fleet run puts on the floor, the same for the daemons and for the bare relay baseline. */
export interface FloorLoad {
  tables: number;
  topology: Topology;
  /** Tables per edge broker when bridged. */
  tablesPerEdge?: number;
  /** Cards each shoe deals while measured (from a freshly shuffled 8-deck shoe: the burn first, then coups). */
  cardsPerTable: number;
  /** Cards each shoe deals before the measurement (default 3); checked, not timed. */
  warmupCards?: number;
  /** Each shoe's pace. */
  cardsPerSecond: number;
  /** Shared-subscription consumer instances. */
  consumers?: number;
  /** Where the run's temporary folder goes (default the OS temp dir); it is removed at the end. */
  tempRoot?: string;
  /** Milliseconds for every table to be ready (a daemon online), and again for every card to arrive. */
  timeoutMs?: number;
}

export const tableId = (index: number) => `table-${String(index + 1).padStart(2, '0')}`;

export { sleep };

export const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

export const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

export async function until(
  check: () => boolean,
  what: string,
  timeoutMs: number,
  detail = () => '',
): Promise<void> {
  const started = performance.now();
  while (!check()) {
    if (performance.now() - started > timeoutMs) {
      const more = detail();
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${more ? `: ${more}` : ''}`,
      );
    }
    await sleep(20);
  }
}

export function percentiles(values: readonly number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) =>
    sorted.length === 0
      ? null
      : Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! * 100) / 100;
  return { p50_ms: at(0.5), p99_ms: at(0.99), max_ms: at(1) };
}

export interface Floor {
  central: Broker;
  edges: Broker[];
  /** The broker table `index` publishes to. */
  brokerOf(index: number): Broker;
  /** Every event the consumers received, in order of receipt. */
  deliveries: Delivery[];
  /** Tables whose retained bridge/state is `online`, as the central broker has it. */
  online: Set<string>;
  /** Times a consumer connected again after its first connection. */
  consumerReconnects: number;
  /** Responses seen on the central broker, per table: `transaction`s in order of arrival. */
  responses: Map<string, string[]>;
  /**
   * Cuts consumer `index`'s connection as a crash would (no DISCONNECT); it
   * comes back a second later with the same client id and its persistent
   * session. Resolves once it is connected again.
   */
  dropConsumer(index: number): Promise<void>;
  /** Publishes a `health_check` request to every table on the central broker (through the bridges). */
  askEveryTable(tables: readonly string[]): Promise<void>;
  /** The consumers' and the watcher's connections (ended by `close`). */
  clients: MqttClient[];
  close(): Promise<void>;
}

export async function startFloor(
  group: ProcessGroup,
  dir: string,
  options: { tables: number; topology: Topology; tablesPerEdge: number; consumers: number },
): Promise<Floor> {
  const clients: MqttClient[] = [];
  const central = await startMosquitto(group, dir, 'central');
  const edges: Broker[] = [];
  if (options.topology === 'bridged') {
    for (let first = 0; first < options.tables; first += options.tablesPerEdge) {
      edges.push(
        await startMosquitto(group, dir, `edge-${edges.length + 1}`, {
          port: central.port,
          // Tables' topics out to the floor; requests from the floor in to the tables.
          topics: [`${FLEET_BASE_TOPIC}/# out 1`, `${FLEET_BASE_TOPIC}/+/bridge/request/# in 1`],
        }),
      );
    }
  }
  const floor: Floor = {
    central,
    edges,
    brokerOf: (index) =>
      options.topology === 'bridged' ? edges[Math.floor(index / options.tablesPerEdge)]! : central,
    deliveries: [],
    online: new Set(),
    responses: new Map(),
    consumerReconnects: 0,
    dropConsumer: async (index) => {
      const client = clients[index]!;
      const back = new Promise<void>((resolve) => client.once('connect', () => resolve()));
      client.stream.destroy();
      await back;
    },
    askEveryTable: async (tables) => {
      const watcher = clients.at(-1)!;
      for (const table of tables) {
        await watcher.publishAsync(
          `${FLEET_BASE_TOPIC}/${table}/bridge/request/health_check`,
          JSON.stringify({ transaction: `fleet-${table}` }),
          { qos: 1 },
        );
      }
    },
    clients,
    close: async () => {
      await Promise.all(clients.map((client) => client.endAsync(true).catch(() => undefined)));
    },
  };
  try {
    // The consumers (persistent sessions, as a table-management system keeps them), subscribed before anything is published.
    for (let consumer = 0; consumer < options.consumers; consumer++) {
      const client = await connectAsync(central.url, {
        clientId: `fleet-tms-${consumer + 1}`,
        clean: false,
        reconnectPeriod: 1000,
      });
      clients.push(client);
      client.on('connect', () => {
        floor.consumerReconnects++;
      });
      client.on('message', (topic, payload) => {
        const receivedAt = performance.now();
        const receivedWall = Date.now();
        const event = JSON.parse(payload.toString()) as Record<string, unknown>;
        floor.deliveries.push({
          consumer,
          table: topic.split('/')[1] ?? '',
          seq: Number(event.seq),
          ts: Number(event.ts),
          type: String(event.type),
          card: event.card,
          hidden: event.hidden === true,
          receivedAt,
          receivedWall,
        });
      });
      await client.subscribeAsync(SHARED_SUBSCRIPTION, { qos: 1 });
    }
    const watcher = await connectAsync(central.url, {
      clientId: 'fleet-watcher',
      reconnectPeriod: 1000,
    });
    clients.push(watcher);
    watcher.on('message', (topic, payload) => {
      const table = topic.split('/')[1] ?? '';
      if (topic.endsWith('/bridge/state')) {
        if (payload.toString() === 'online') floor.online.add(table);
        else floor.online.delete(table);
        return;
      }
      const { transaction } = JSON.parse(payload.toString()) as { transaction?: string };
      floor.responses.set(table, [...(floor.responses.get(table) ?? []), String(transaction)]);
    });
    await watcher.subscribeAsync(
      [`${FLEET_BASE_TOPIC}/+/bridge/state`, `${FLEET_BASE_TOPIC}/+/bridge/response/+`],
      { qos: 1 },
    );
  } catch (error) {
    await floor.close();
    throw error;
  }
  return floor;
}

/**
 * Calls each table's `deal` `cards` times, `intervalMs` apart, the tables
 * staggered across one interval: the tables of a floor do not deal in step.
 */
export async function dealPaced(
  deals: readonly (() => Promise<unknown>)[],
  cards: number,
  intervalMs: number,
): Promise<void> {
  await Promise.all(
    deals.map(async (deal, index) => {
      await sleep((index * intervalMs) / deals.length);
      let next = performance.now();
      for (let card = 0; card < cards; card++) {
        await deal();
        next += intervalMs;
        await sleep(next - performance.now());
      }
    }),
  );
}

/**
 * Every card once across the consumers, with the value the shoe dealt (or
 * hidden), and each consumer's share of each table in `seq` order.
 */
export function checkDeliveries(
  tables: readonly string[],
  played: ReadonlyMap<string, readonly PlayedCard[]>,
  deliveries: readonly Delivery[],
  /** Each table's first cards, left out of the latencies. */
  warmup = 0,
): {
  problems: string[];
  duplicates: number;
  journalLatencies: number[];
  frameLatencies: number[];
} {
  const problems: string[] = [];
  let duplicates = 0;
  const journalLatencies: number[] = [];
  const frameLatencies: number[] = [];
  for (const table of tables) {
    const mine = deliveries.filter((d) => d.table === table);
    const seen = new Set<number>();
    for (const delivery of mine) {
      if (seen.has(delivery.seq)) duplicates++;
      seen.add(delivery.seq);
    }
    const consumers = new Set(mine.map((d) => d.consumer));
    for (const consumer of consumers) {
      // A redelivery (the same seq again, after a reconnect) is a duplicate, counted above, not disorder.
      const seqs = [...new Set(mine.filter((d) => d.consumer === consumer).map((d) => d.seq))];
      const backwards = seqs.findIndex((seq, i) => i > 0 && seq <= seqs[i - 1]!);
      if (backwards > 0)
        problems.push(
          `${table}: consumer ${consumer + 1} got seq ${seqs[backwards]} after ${seqs[backwards - 1]}`,
        );
    }
    const cards = [
      ...new Map(mine.filter((d) => d.type === 'card').map((d) => [d.seq, d])).values(),
    ].sort((a, b) => a.seq - b.seq);
    const dealt = played.get(table) ?? [];
    if (cards.length !== dealt.length)
      problems.push(`${table}: ${dealt.length} cards dealt, ${cards.length} received`);
    for (const [position, card] of cards.entries()) {
      const physical = dealt[position];
      if (!physical) break;
      // A hidden card carries no value; any other carries the one the shoe dealt.
      if (card.hidden ? card.card !== null : card.card !== physical.card) {
        problems.push(
          `${table}: card ${position + 1} is ${String(card.card)}${card.hidden ? ' (hidden)' : ''}, the shoe dealt ${physical.card}`,
        );
      }
      if (position < warmup) continue;
      journalLatencies.push(card.receivedWall - card.ts);
      frameLatencies.push(card.receivedAt - physical.at);
    }
  }
  if (duplicates > 0) problems.push(`${duplicates} events delivered more than once`);
  return { problems, duplicates, journalLatencies, frameLatencies };
}
