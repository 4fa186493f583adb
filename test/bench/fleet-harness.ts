/**
 * One fleet run: N real daemon processes, each with a simulated shoe on its
 * own socat pty (the shoe simulators run in this process, as the shoes'
 * own microcontrollers would run beside the Pi), all publishing to real
 * mosquitto brokers — one broker, or edge brokers of `tablesPerEdge` tables
 * each bridging to a central one — and two consumer instances reading every
 * table through one shared subscription on the broker consumers use.
 *
 * It checks what a table-management system relies on: every card dealt
 * reaches exactly one of the consumers, exactly once, with its value (or
 * hidden), and each consumer sees each table's events in journal `seq`
 * order. It measures each card's latency (the journal `ts` in the event to
 * the consumer's clock; and the CARD frame written on the pty to the
 * consumer, on this process's monotonic clock), the CPU the daemons and
 * brokers spent while the shoes dealt, and their resident memory at the end.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { connectAsync, type MqttClient } from 'mqtt';
import { SerialTransport } from '../../hardware/transports/serial.ts';
import { SimulatedDevice } from '../../simulators/device.ts';
import { parseScenarioText } from '../../simulators/scenario.ts';
import {
  type Broker,
  cpuSeconds,
  ProcessGroup,
  residentMegabytes,
  type Spawned,
  startMosquitto,
  startPtyPair,
} from './fleet-processes.ts';

export const FLEET_BASE_TOPIC = 'fleet';
export const FLEET_RULESET = 'tdc-baccarat-no-commission';
/** The consumers' shared subscription: every event of every table, split between the group. */
export const SHARED_SUBSCRIPTION = `$share/tms/${FLEET_BASE_TOPIC}/+/events/#`;

export type Topology = 'direct' | 'bridged';

export interface FleetOptions {
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
  /** How to start the daemon: a command and its arguments, before `run --config FILE`. */
  daemon: { command: string; args: readonly string[]; cwd: string };
  /** Shared-subscription consumer instances. */
  consumers?: number;
  /** Where the run's temporary folder goes (default the OS temp dir); it is removed at the end. */
  tempRoot?: string;
  /** Milliseconds for every daemon to be online, and again for every card to arrive. */
  timeoutMs?: number;
}

export interface Percentiles {
  p50_ms: number | null;
  p99_ms: number | null;
  max_ms: number | null;
}

export interface FleetRun {
  tables: number;
  topology: Topology;
  brokers: number;
  /** Every card dealt, the warm-up cards included. */
  cards_dealt: number;
  cards_received: number;
  events_received: number;
  /** Events each consumer instance received (the shared subscription's split). */
  per_consumer: number[];
  /** Deliveries of a (table, seq) already received by either consumer. */
  duplicates: number;
  alarms: number;
  /** What failed the exactly-once, in-order, same-value check (empty when it held). */
  problems: string[];
  latency: {
    /** The journal `ts` carried by the card event to the consumer's receipt (ms clock). */
    journal_to_consumer: Percentiles;
    /** The CARD frame written on the shoe's pty to the consumer's receipt. */
    frame_to_consumer: Percentiles;
  };
  /** Seconds from every daemon spawned to every daemon online. */
  startup_s: number;
  /** Seconds from the first measured card dealt to the last received. */
  deal_s: number;
  cpu: {
    daemons_s: number;
    /** All brokers (central and edges). */
    brokers_s: number;
    /** The central broker alone (the one broker when direct): what the floor's broker must carry. */
    central_broker_s: number;
    /** The central broker per card, in microseconds. */
    central_broker_us_per_card: number;
    /** Daemons + brokers, as a share of one core over the deal. */
    percent_of_a_core: number;
    /** Daemons + brokers, per card dealt. */
    ms_per_card: number;
    /** This process (shoe simulators, consumers), for comparison: not in the figures above. */
    harness_s: number;
  };
  /** The child processes' ids (daemons, brokers, socats): all ended when the run returns. */
  pids: number[];
  rss_mb: {
    daemons: number;
    brokers: number;
    central_broker: number;
    total: number;
    per_daemon: number;
  };
}

const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
  });

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

export const tableId = (index: number) => `table-${String(index + 1).padStart(2, '0')}`;

async function until(check: () => boolean, what: string, timeoutMs: number, detail = () => '') {
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

function percentiles(values: readonly number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) =>
    sorted.length === 0
      ? null
      : Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! * 100) / 100;
  return { p50_ms: at(0.5), p99_ms: at(0.99), max_ms: at(1) };
}

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

export async function runFleet(options: FleetOptions): Promise<FleetRun> {
  const consumersWanted = options.consumers ?? 2;
  const timeoutMs = options.timeoutMs ?? 120_000;
  const perEdge = options.tablesPerEdge ?? 8;
  const tables = Array.from({ length: options.tables }, (_, index) => tableId(index));
  const dir = await mkdtemp(join(options.tempRoot ?? tmpdir(), 'tableside-fleet-'));
  const group = new ProcessGroup();
  const clients: MqttClient[] = [];
  const shoes: SimulatedDevice[] = [];
  try {
    // Brokers: the one consumers read (central), and the ones daemons write to.
    const central = await startMosquitto(group, dir, 'central');
    const edges: Broker[] = [];
    if (options.topology === 'bridged') {
      for (let first = 0; first < tables.length; first += perEdge) {
        edges.push(
          await startMosquitto(group, dir, `edge-${edges.length + 1}`, {
            port: central.port,
            // Tables' topics out to the floor; requests from the floor in to the tables.
            topics: [`${FLEET_BASE_TOPIC}/# out 1`, `${FLEET_BASE_TOPIC}/+/bridge/request/# in 1`],
          }),
        );
      }
    }
    const brokerOf = (index: number) =>
      options.topology === 'bridged' ? edges[Math.floor(index / perEdge)]! : central;

    // The consumers, subscribed before anything is published; a watcher for the tables' state.
    const deliveries: Delivery[] = [];
    for (let consumer = 0; consumer < consumersWanted; consumer++) {
      const client = await connectAsync(central.url, {
        clientId: `fleet-tms-${consumer + 1}`,
        clean: false,
        reconnectPeriod: 1000,
      });
      clients.push(client);
      client.on('message', (topic, payload) => {
        const receivedAt = performance.now();
        const receivedWall = Date.now();
        const table = topic.split('/')[1] ?? '';
        const event = JSON.parse(payload.toString()) as Record<string, unknown>;
        deliveries.push({
          consumer,
          table,
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
    const online = new Set<string>();
    const watcher = await connectAsync(central.url, {
      clientId: 'fleet-watcher',
      reconnectPeriod: 1000,
    });
    clients.push(watcher);
    watcher.on('message', (topic, payload) => {
      const table = topic.split('/')[1] ?? '';
      if (payload.toString() === 'online') online.add(table);
      else online.delete(table);
    });
    await watcher.subscribeAsync(`${FLEET_BASE_TOPIC}/+/bridge/state`, { qos: 1 });

    // One cable and one daemon per table.
    const daemons: Spawned[] = [];
    const ptys: { a: string; b: string }[] = [];
    for (const [index, table] of tables.entries()) {
      const pty = await startPtyPair(group, dir, table);
      ptys.push(pty);
      const config = join(dir, `${table}.json`);
      await writeFile(
        config,
        JSON.stringify({
          table,
          ruleset: FLEET_RULESET,
          devices: { shoe: { kind: 'shoe', transport: pty.a } },
          mqtt: { url: brokerOf(index).url, baseTopic: FLEET_BASE_TOPIC },
          journal: { dir: join(dir, table, 'journal') },
          // A shoe-only Punto Banco table: a card between coups starts the next coup.
          session: { autoRound: true },
        }),
      );
    }
    const spawnedAt = performance.now();
    for (const table of tables) {
      daemons.push(
        group.spawn(
          `daemon ${table}`,
          options.daemon.command,
          [...options.daemon.args, 'run', '--no-view', '--config', join(dir, `${table}.json`)],
          options.daemon.cwd,
        ),
      );
    }
    await until(
      () => online.size === tables.length || daemons.some((d) => d.child.exitCode !== null),
      `${tables.length} daemons online`,
      timeoutMs,
      () => `${online.size} online`,
    );
    const dead = daemons.find((d) => d.child.exitCode !== null);
    if (dead)
      throw new Error(`${dead.name} exited: ${dead.output().split('\n').slice(-3).join(' | ')}`);
    const startupSeconds = (performance.now() - spawnedAt) / 1000;

    // The shoes. Each deals its warm-up cards first (a daemon's first card
    // loads the game's code: a once-a-day cost, not a card's), then the
    // measured cards, paced, staggered across one card interval: the tables
    // of a floor do not deal in step.
    const warmup = options.warmupCards ?? 3;
    const played = new Map<string, PlayedCard[]>();
    const intervalMs = 1000 / options.cardsPerSecond;
    const steps = `  - shuffle\n  - lid: closed\n  - deal: ${warmup + options.cardsPerTable}\n`;
    for (const [index, table] of tables.entries()) {
      const cards: PlayedCard[] = [];
      played.set(table, cards);
      const shoe = new SimulatedDevice({
        kind: 'shoe',
        transport: new SerialTransport({ path: ptys[index]!.b, baudRate: 115_200 }),
        ruleset: FLEET_RULESET,
        seed: 1000 + index,
        scenario: parseScenarioText(`steps:\n${steps}`),
      });
      shoe.on('played', (step) => {
        if (step.kind === 'card')
          cards.push({ card: step.card, face: step.face, at: performance.now() });
      });
      shoes.push(shoe);
      shoe.start();
    }
    const cardsReceived = () => deliveries.filter((d) => d.type === 'card').length;
    const dealtSoFar = () => sum([...played.values()].map((cards) => cards.length));
    const dealAll = async (cards: number, wait: number) => {
      const expected = cardsReceived() + tables.length * cards;
      await Promise.all(
        shoes.map(async (shoe, index) => {
          await shoe.whenReady();
          await sleep((index * wait) / tables.length);
          let next = performance.now();
          for (let card = 0; card < cards; card++) {
            await shoe.step();
            next += wait;
            await sleep(next - performance.now());
          }
        }),
      );
      await until(
        () => cardsReceived() >= expected,
        `${expected} card events`,
        timeoutMs,
        () => `${cardsReceived()} received, ${dealtSoFar()} dealt`,
      );
    };
    const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
    await dealAll(warmup, Math.min(intervalMs, 100));

    const brokerPids = [central, ...edges].map((b) => b.process.child.pid);
    const daemonPids = daemons.map((d) => d.child.pid);
    const daemonCpuBefore = sum(daemonPids.map(cpuSeconds));
    const brokerCpuBefore = sum(brokerPids.map(cpuSeconds));
    const centralCpuBefore = cpuSeconds(central.process.child.pid);
    const harnessBefore = process.cpuUsage();
    const dealStarted = performance.now();
    await dealAll(options.cardsPerTable, intervalMs);
    const dealSeconds = (performance.now() - dealStarted) / 1000;
    const daemonCpu = sum(daemonPids.map(cpuSeconds)) - daemonCpuBefore;
    const brokerCpu = sum(brokerPids.map(cpuSeconds)) - brokerCpuBefore;
    const centralCpu = cpuSeconds(central.process.child.pid) - centralCpuBefore;
    const centralRss = residentMegabytes(central.process.child.pid);
    const harness = process.cpuUsage(harnessBefore);
    const daemonRss = sum(daemonPids.map(residentMegabytes));
    const brokerRss = sum(brokerPids.map(residentMegabytes));
    // Anything late (a duplicate) would arrive now.
    await sleep(300);

    const check = checkDeliveries(tables, played, deliveries, warmup);
    const cardsDealt = dealtSoFar();
    const measuredCards = tables.length * options.cardsPerTable;
    return {
      tables: tables.length,
      topology: options.topology,
      brokers: 1 + edges.length,
      pids: group.pids(),
      cards_dealt: cardsDealt,
      cards_received: deliveries.filter((d) => d.type === 'card').length,
      events_received: deliveries.length,
      per_consumer: Array.from(
        { length: consumersWanted },
        (_, consumer) => deliveries.filter((d) => d.consumer === consumer).length,
      ),
      duplicates: check.duplicates,
      alarms: deliveries.filter((d) => d.type === 'alarm').length,
      problems: check.problems,
      latency: {
        journal_to_consumer: percentiles(check.journalLatencies),
        frame_to_consumer: percentiles(check.frameLatencies),
      },
      startup_s: round(startupSeconds, 1),
      deal_s: round(dealSeconds, 1),
      cpu: {
        daemons_s: round(daemonCpu),
        brokers_s: round(brokerCpu),
        central_broker_s: round(centralCpu),
        central_broker_us_per_card: Math.round((centralCpu * 1e6) / measuredCards),
        percent_of_a_core: round(((daemonCpu + brokerCpu) / dealSeconds) * 100, 1),
        ms_per_card: round(((daemonCpu + brokerCpu) * 1000) / measuredCards),
        harness_s: round((harness.user + harness.system) / 1e6),
      },
      rss_mb: {
        daemons: round(daemonRss, 1),
        brokers: round(brokerRss, 1),
        central_broker: round(centralRss, 1),
        total: round(daemonRss + brokerRss, 1),
        per_daemon: round(daemonRss / tables.length, 1),
      },
    };
  } finally {
    await Promise.all(shoes.map((shoe) => shoe.stop().catch(() => undefined)));
    await Promise.all(clients.map((client) => client.endAsync(true).catch(() => undefined)));
    await group.close();
    await rm(dir, { recursive: true, force: true });
  }
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
      const seqs = mine.filter((d) => d.consumer === consumer).map((d) => d.seq);
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
