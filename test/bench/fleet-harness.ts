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
import { formatPublicKey } from '../../device-protocol/auth/keys.ts';
import { type DeviceKey, deviceKey, generatedSigner } from '../../hardware/keys/device-key.ts';
import { SerialTransport } from '../../hardware/transports/serial.ts';
import { SimulatedDevice } from '../../simulators/device.ts';
import { parseScenarioText } from '../../simulators/scenario.ts';
import {
  checkDeliveries,
  dealPaced,
  FLEET_BASE_TOPIC,
  type Floor,
  type FloorLoad,
  type Percentiles,
  type PlayedCard,
  percentiles,
  round,
  sleep,
  startFloor,
  sum,
  type Topology,
  tableId,
  until,
} from './fleet-floor.ts';
import {
  cpuSeconds,
  ProcessGroup,
  residentMegabytes,
  type Spawned,
  startPtyPair,
} from './fleet-processes.ts';

export const FLEET_RULESET = 'tdc-baccarat-no-commission';

export interface FleetOptions extends FloorLoad {
  /** How to start the daemon: a command and its arguments, before `run --config FILE`. */
  daemon: { command: string; args: readonly string[]; cwd: string };
  /**
   * Halfway through the measured cards, cut the second consumer's connection
   * (it reconnects a second later to its persistent session): its share must
   * still arrive, late, each event at least once (a redelivery is allowed:
   * consumers dedupe by `seq`).
   */
  dropConsumerMidDeal?: boolean;
  /** The group the children are started in (a test may look at it after a failure); closed at the end. */
  group?: ProcessGroup;
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
  /** Times a consumer instance connected again (1 with `dropConsumerMidDeal`, else 0). */
  consumer_reconnects: number;
  /** Deliveries of a (table, seq) already received by either consumer. */
  duplicates: number;
  alarms: number;
  /**
   * What failed the exactly-once, in-order, same-value check, or the request
   * every table is sent after the deal (one answer each): empty when all held.
   */
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

export async function runFleet(options: FleetOptions): Promise<FleetRun> {
  const consumersWanted = options.consumers ?? 2;
  const timeoutMs = options.timeoutMs ?? 120_000;
  const perEdge = options.tablesPerEdge ?? 8;
  const tables = Array.from({ length: options.tables }, (_, index) => tableId(index));
  const dir = await mkdtemp(join(options.tempRoot ?? tmpdir(), 'tableside-fleet-'));
  const group = options.group ?? new ProcessGroup();
  group.removeOnExit(dir);
  const shoes: SimulatedDevice[] = [];
  let floor: Floor | undefined;
  try {
    floor = await startFloor(group, dir, {
      tables: tables.length,
      topology: options.topology,
      tablesPerEdge: perEdge,
      consumers: consumersWanted,
    });
    const { central, edges, deliveries, online } = floor;
    const brokerOf = floor.brokerOf;

    // One cable and one daemon per table.
    const daemons: Spawned[] = [];
    const ptys: { a: string; b: string }[] = [];
    // Each shoe paired with its own key, as a live table's (an unpaired one is refused).
    const keys: DeviceKey[] = [];
    for (const [index, table] of tables.entries()) {
      const pty = await startPtyPair(group, dir, table);
      ptys.push(pty);
      const key = await deviceKey(generatedSigner('ed25519'));
      keys.push(key);
      const config = join(dir, `${table}.json`);
      await writeFile(
        config,
        JSON.stringify({
          table,
          ruleset: FLEET_RULESET,
          devices: {
            shoe: { kind: 'shoe', transport: pty.a, key: formatPublicKey(key.publicKey) },
          },
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
        key: keys[index]!,
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
    await Promise.all(shoes.map((shoe) => shoe.whenReady()));
    const dealAll = async (cards: number, wait: number) => {
      const expected = cardsReceived() + tables.length * cards;
      await dealPaced(
        shoes.map((shoe) => () => shoe.step()),
        cards,
        wait,
      );
      await until(
        () => cardsReceived() >= expected,
        `${expected} card events`,
        timeoutMs,
        () => `${cardsReceived()} received, ${dealtSoFar()} dealt`,
      );
    };
    await dealAll(warmup, Math.min(intervalMs, 100));

    const brokerPids = [central, ...edges].map((b) => b.process.child.pid);
    const daemonPids = daemons.map((d) => d.child.pid);
    const daemonCpuBefore = sum(daemonPids.map(cpuSeconds));
    const brokerCpuBefore = sum(brokerPids.map(cpuSeconds));
    const centralCpuBefore = cpuSeconds(central.process.child.pid);
    const harnessBefore = process.cpuUsage();
    const dealStarted = performance.now();
    const dropped = options.dropConsumerMidDeal
      ? sleep((options.cardsPerTable * intervalMs) / 2).then(() => floor?.dropConsumer(1))
      : Promise.resolve();
    await dealAll(options.cardsPerTable, intervalMs);
    await dropped;
    const dealSeconds = (performance.now() - dealStarted) / 1000;
    const daemonCpu = sum(daemonPids.map(cpuSeconds)) - daemonCpuBefore;
    const brokerCpu = sum(brokerPids.map(cpuSeconds)) - brokerCpuBefore;
    const centralCpu = cpuSeconds(central.process.child.pid) - centralCpuBefore;
    const centralRss = residentMegabytes(central.process.child.pid);
    const harness = process.cpuUsage(harnessBefore);
    const daemonRss = sum(daemonPids.map(residentMegabytes));
    const brokerRss = sum(brokerPids.map(residentMegabytes));
    // A request to every table from the central broker (through the bridges
    // when bridged): each answers once, on the central broker.
    await floor.askEveryTable(tables);
    await until(
      () => tables.every((table) => (floor?.responses.get(table)?.length ?? 0) >= 1),
      'an answer from every table',
      timeoutMs,
      () => `${floor?.responses.size} tables answered`,
    ).catch(() => undefined);
    // Anything late (a duplicate event or answer) would arrive now.
    await sleep(300);

    const check = checkDeliveries(tables, played, deliveries, warmup);
    if (options.dropConsumerMidDeal)
      check.problems = check.problems.filter(
        (problem) => !/delivered more than once/.test(problem),
      );
    for (const table of tables) {
      const answers = floor.responses.get(table) ?? [];
      if (answers.length !== 1 || answers[0] !== `fleet-${table}`)
        check.problems.push(
          `${table}: ${answers.length} answers to its health_check (${answers.join(', ') || 'none'})`,
        );
    }
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
      consumer_reconnects: floor.consumerReconnects,
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
    await floor?.close();
    await group.close();
    await rm(dir, { recursive: true, force: true });
  }
}
