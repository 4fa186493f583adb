/**
 * The fleet's baseline, measured on the same kind of floor in the same run:
 * no daemon, no shoe — one MQTT client per table publishing a card event
 * (QoS 1, in order, as the daemon's bridge does) at the same pace to the
 * same brokers, read by the same shared consumers. Its latency is what the
 * brokers and the bridges cost on this machine at this load; the daemons'
 * latency is compared with it, and its broker CPU per card with theirs.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { connectAsync, type MqttClient } from 'mqtt';
import {
  checkDeliveries,
  dealPaced,
  FLEET_BASE_TOPIC,
  type Floor,
  type FloorLoad,
  type Percentiles,
  type PlayedCard,
  percentiles,
  startFloor,
  sum,
  type Topology,
  tableId,
  until,
} from './fleet-floor.ts';
import { cpuSeconds, ProcessGroup, residentMegabytes } from './fleet-processes.ts';

export type RelayOptions = FloorLoad;

export interface RelayRun {
  tables: number;
  topology: Topology;
  brokers: number;
  cards_published: number;
  cards_received: number;
  problems: string[];
  /** Publish to the consumer's receipt. */
  latency: Percentiles;
  cpu: { brokers_s: number; central_broker_us_per_card: number };
  rss_mb: { brokers: number; central_broker: number };
}

const RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K'];
const SUITS = ['S', 'H', 'D', 'C'];
const cardAt = (position: number) =>
  `${RANKS[position % RANKS.length]}${SUITS[Math.floor(position / RANKS.length) % SUITS.length]}`;

export async function runRelay(options: RelayOptions): Promise<RelayRun> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const warmup = options.warmupCards ?? 3;
  const tables = Array.from({ length: options.tables }, (_, index) => tableId(index));
  const dir = await mkdtemp(join(options.tempRoot ?? tmpdir(), 'tableside-relay-'));
  const group = new ProcessGroup();
  group.removeOnExit(dir);
  const publishers: MqttClient[] = [];
  let floor: Floor | undefined;
  try {
    floor = await startFloor(group, dir, {
      tables: tables.length,
      topology: options.topology,
      tablesPerEdge: options.tablesPerEdge ?? 8,
      consumers: options.consumers ?? 2,
    });
    const { central, edges, deliveries } = floor;
    const played = new Map<string, PlayedCard[]>();
    const deals: (() => Promise<unknown>)[] = [];
    for (const [index, table] of tables.entries()) {
      const client = await connectAsync(floor.brokerOf(index).url, {
        clientId: `fleet-relay-${table}`,
        reconnectPeriod: 0,
      });
      publishers.push(client);
      const cards: PlayedCard[] = [];
      played.set(table, cards);
      deals.push(() => {
        const card = cardAt(cards.length);
        const seq = cards.length + 1;
        cards.push({ card, face: 'up', at: performance.now() });
        return client.publishAsync(
          `${FLEET_BASE_TOPIC}/${table}/events/card`,
          JSON.stringify({ seq, ts: Date.now(), type: 'card', topic: 'card', card }),
          { qos: 1 },
        );
      });
    }
    const received = () => deliveries.length;
    const intervalMs = 1000 / options.cardsPerSecond;
    const dealAll = async (cards: number, wait: number) => {
      const expected = received() + tables.length * cards;
      await dealPaced(deals, cards, wait);
      await until(() => received() >= expected, `${expected} relayed cards`, timeoutMs);
    };
    await dealAll(warmup, Math.min(intervalMs, 100));

    const brokerPids = [central, ...edges].map((broker) => broker.process.child.pid);
    const centralPid = central.process.child.pid;
    const brokersBefore = sum(brokerPids.map(cpuSeconds));
    const centralBefore = cpuSeconds(centralPid);
    await dealAll(options.cardsPerTable, intervalMs);
    const brokersCpu = sum(brokerPids.map(cpuSeconds)) - brokersBefore;
    const centralCpu = cpuSeconds(centralPid) - centralBefore;
    const check = checkDeliveries(tables, played, deliveries, warmup);
    const measured = tables.length * options.cardsPerTable;
    return {
      tables: tables.length,
      topology: options.topology,
      brokers: 1 + edges.length,
      cards_published: sum([...played.values()].map((cards) => cards.length)),
      cards_received: deliveries.length,
      problems: check.problems,
      latency: percentiles(check.frameLatencies),
      cpu: {
        brokers_s: Math.round(brokersCpu * 100) / 100,
        central_broker_us_per_card: Math.round((centralCpu * 1e6) / measured),
      },
      rss_mb: {
        brokers: Math.round(sum(brokerPids.map(residentMegabytes)) * 10) / 10,
        central_broker: Math.round(residentMegabytes(centralPid) * 10) / 10,
      },
    };
  } finally {
    await Promise.all(publishers.map((client) => client.endAsync(true).catch(() => undefined)));
    await floor?.close();
    await group.close();
    await rm(dir, { recursive: true, force: true });
  }
}
