/**
 * `npm run bench -- --only fleet [--fleet 1,8,16,32]`: a casino floor on
 * this machine. For each N, N real processes of the built daemon (`npm run
 * build`, started with the systemd unit's node flags), each with its shoe
 * simulator on its own socat pty dealing at a fast dealer's pace, publish to
 * one mosquitto; two consumer instances read every table through one shared
 * subscription. Then the same N through Mosquitto bridges: an edge broker
 * per TABLES_PER_EDGE tables bridging to a central broker, the consumers on
 * the central one.
 *
 * Every run checks that each card reached exactly one consumer once, with
 * its value, in `seq` order per table, and that each table answers once a
 * request sent on the central broker (fleet-harness.ts); the figures are
 * latency, CPU and memory as N grows. Baselines from the same run: right
 * before each fleet, a bare relay on the same kind of floor (a client per
 * table publishing the same cards at the same pace: fleet-relay.ts) for
 * latency and broker CPU; N = 1 for the growth ratios; the direct topology
 * for the bridged one.
 */
import { existsSync } from 'node:fs';
import { BUILT_CLI, build, deployedNodeFlags, REPO } from './built-daemon.ts';
import type { Topology } from './fleet-floor.ts';
import { type FleetRun, runFleet } from './fleet-harness.ts';
import { type RelayRun, runRelay } from './fleet-relay.ts';

export const DEFAULT_FLEET_SIZES = [1, 8, 16, 32];
export const TABLES_PER_EDGE = 8;
/** One card every 500 ms: the fast end of a dealer's pace (0.5-2 s a card). */
export const FLEET_CARDS_PER_SECOND = 2;
/** Cards a run measures in all at least (small fleets deal longer shoes), and each table at least. */
const MIN_CARDS_PER_RUN = 30;
const MIN_CARDS_PER_TABLE = 10;

/** `--fleet 1,8` or TABLESIDE_FLEET=1,8: the fleet sizes to run. */
export function fleetSizes(argv: readonly string[], env = process.env): number[] {
  const at = argv.indexOf('--fleet');
  const text = at >= 0 ? argv[at + 1] : env.TABLESIDE_FLEET;
  if (text === undefined) return DEFAULT_FLEET_SIZES;
  const sizes = text.split(',').map((part) => Number(part.trim()));
  if (sizes.length === 0 || sizes.some((size) => !Number.isInteger(size) || size < 1 || size > 200))
    throw new Error(`--fleet "${text}": expected table counts between 1 and 200, e.g. 1,8,16,32`);
  return sizes;
}

export interface FleetGrowth {
  tables: number;
  topology: Topology;
  /** Daemons + brokers, % of one core per table. */
  cpu_percent_per_table: number;
  ms_per_card: number;
  rss_mb_per_table: number;
  p50_ms: number | null;
  p99_ms: number | null;
  /** The bare relay on the same floor, same N, same pace, just before. */
  relay_p50_ms: number | null;
  relay_p99_ms: number | null;
  p50_ratio_to_relay: number | null;
  p99_ratio_to_relay: number | null;
  /** Against N = 1 of the same topology, same run. */
  cpu_per_table_ratio_to_1: number | null;
  rss_per_table_ratio_to_1: number | null;
  p50_ratio_to_1: number | null;
  p99_ratio_to_1: number | null;
  /** Bridged only: against the direct run of the same N. */
  p50_ratio_to_direct?: number | null;
  p99_ratio_to_direct?: number | null;
  cpu_ratio_to_direct?: number | null;
}

export interface FleetFigures {
  node_flags: string;
  daemon: string;
  shoes: string;
  cards_per_second_per_table: number;
  tables_per_edge: number;
  runs: FleetRun[];
  relays: RelayRun[];
  growth: FleetGrowth[];
  /** Every run: every card once, in order, with its value, and no alarm. */
  exactly_once_in_order: boolean;
  note?: string;
}

const ratio = (value: number | null | undefined, base: number | null | undefined) =>
  value === null || value === undefined || !base ? null : Math.round((value / base) * 100) / 100;

function growthOf(runs: readonly FleetRun[], relays: readonly RelayRun[]): FleetGrowth[] {
  const rows: FleetGrowth[] = runs.map((run, index) => ({
    tables: run.tables,
    topology: run.topology,
    cpu_percent_per_table: Math.round((run.cpu.percent_of_a_core / run.tables) * 100) / 100,
    ms_per_card: run.cpu.ms_per_card,
    rss_mb_per_table: Math.round((run.rss_mb.total / run.tables) * 10) / 10,
    p50_ms: run.latency.frame_to_consumer.p50_ms,
    p99_ms: run.latency.frame_to_consumer.p99_ms,
    relay_p50_ms: relays[index]?.latency.p50_ms ?? null,
    relay_p99_ms: relays[index]?.latency.p99_ms ?? null,
    p50_ratio_to_relay: ratio(run.latency.frame_to_consumer.p50_ms, relays[index]?.latency.p50_ms),
    p99_ratio_to_relay: ratio(run.latency.frame_to_consumer.p99_ms, relays[index]?.latency.p99_ms),
    cpu_per_table_ratio_to_1: null,
    rss_per_table_ratio_to_1: null,
    p50_ratio_to_1: null,
    p99_ratio_to_1: null,
  }));
  for (const row of rows) {
    const one = rows.find((other) => other.topology === row.topology && other.tables === 1);
    if (one) {
      row.cpu_per_table_ratio_to_1 = ratio(row.cpu_percent_per_table, one.cpu_percent_per_table);
      row.rss_per_table_ratio_to_1 = ratio(row.rss_mb_per_table, one.rss_mb_per_table);
      row.p50_ratio_to_1 = ratio(row.p50_ms, one.p50_ms);
      row.p99_ratio_to_1 = ratio(row.p99_ms, one.p99_ms);
    }
    if (row.topology === 'bridged') {
      const direct = rows.find(
        (other) => other.topology === 'direct' && other.tables === row.tables,
      );
      row.p50_ratio_to_direct = ratio(row.p50_ms, direct?.p50_ms);
      row.p99_ratio_to_direct = ratio(row.p99_ms, direct?.p99_ms);
      row.cpu_ratio_to_direct = ratio(row.cpu_percent_per_table, direct?.cpu_percent_per_table);
    }
  }
  return rows;
}

export async function benchFleet(
  options: { sizes?: readonly number[]; log?: (line: string) => void } = {},
): Promise<FleetFigures> {
  const sizes = options.sizes ?? DEFAULT_FLEET_SIZES;
  const log = options.log ?? (() => undefined);
  const nodeFlags = deployedNodeFlags();
  // A fleet of a build with errors would measure the wrong thing: refuse it.
  const buildError = build();
  if (buildError) throw new Error(`npm run build failed: ${buildError}`);
  if (!existsSync(BUILT_CLI)) throw new Error(`npm run build left no ${BUILT_CLI}`);
  const runs: FleetRun[] = [];
  const relays: RelayRun[] = [];
  for (const topology of ['direct', 'bridged'] as const) {
    for (const tables of sizes) {
      const cardsPerTable = Math.max(MIN_CARDS_PER_TABLE, Math.ceil(MIN_CARDS_PER_RUN / tables));
      const relay = await runRelay({
        tables,
        topology,
        tablesPerEdge: TABLES_PER_EDGE,
        cardsPerTable,
        cardsPerSecond: FLEET_CARDS_PER_SECOND,
      });
      relays.push(relay);
      const run = await runFleet({
        tables,
        topology,
        tablesPerEdge: TABLES_PER_EDGE,
        cardsPerTable,
        cardsPerSecond: FLEET_CARDS_PER_SECOND,
        daemon: { command: process.execPath, args: [...nodeFlags, BUILT_CLI], cwd: REPO },
      });
      runs.push(run);
      log(
        `  ${topology} ${tables} tables: ${run.cards_received}/${run.cards_dealt} cards, p50 ${run.latency.frame_to_consumer.p50_ms} ms, p99 ${run.latency.frame_to_consumer.p99_ms} ms (bare relay ${relay.latency.p50_ms} / ${relay.latency.p99_ms} ms), ${run.cpu.percent_of_a_core}% of a core, ${run.rss_mb.total} MB${run.problems.length ? `; PROBLEMS: ${run.problems.slice(0, 3).join('; ')}` : ''}`,
      );
    }
  }
  return {
    node_flags: nodeFlags.join(' '),
    daemon: 'built dist/firmware-host/cli.js, one process per table, the systemd unit flags',
    shoes:
      'a socat pty pair per table; the shoe simulators (each paired with its own key) run in the bench process',
    cards_per_second_per_table: FLEET_CARDS_PER_SECOND,
    tables_per_edge: TABLES_PER_EDGE,
    runs,
    relays,
    growth: growthOf(runs, relays),
    exactly_once_in_order:
      runs.every((run) => run.problems.length === 0 && run.alarms === 0) &&
      relays.every((relay) => relay.problems.length === 0),
  };
}

/** The growth table, for the bench's text output. */
export function formatFleet(figures: FleetFigures): string {
  const header = [
    'topology',
    'tables',
    'cards',
    'p50 ms',
    'p99 ms',
    'relay p50',
    'relay p99',
    'p99 ×N=1',
    'CPU %core',
    '%/table',
    'ms/card',
    'MB total',
    'MB/table',
    'central µs/card',
    'relay µs/card',
    'central MB',
    'exactly once',
  ];
  const rows = figures.runs.map((run, index) => {
    const growth = figures.growth[index]!;
    return [
      run.topology === 'bridged' ? `bridged (${run.brokers - 1} edge)` : 'one broker',
      String(run.tables),
      `${run.cards_received}/${run.cards_dealt}`,
      String(run.latency.frame_to_consumer.p50_ms ?? '-'),
      String(run.latency.frame_to_consumer.p99_ms ?? '-'),
      String(growth.relay_p50_ms ?? '-'),
      String(growth.relay_p99_ms ?? '-'),
      String(growth.p99_ratio_to_1 ?? '-'),
      String(run.cpu.percent_of_a_core),
      String(growth.cpu_percent_per_table),
      String(run.cpu.ms_per_card),
      String(run.rss_mb.total),
      String(growth.rss_mb_per_table),
      String(run.cpu.central_broker_us_per_card),
      String(figures.relays[index]?.cpu.central_broker_us_per_card ?? '-'),
      String(run.rss_mb.central_broker),
      run.problems.length === 0 ? 'yes' : `NO: ${run.problems[0]}`,
    ];
  });
  const widths = header.map((_, column) =>
    Math.max(header[column]!.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (cells: readonly string[]) =>
    cells.map((cell, column) => cell.padStart(widths[column]!)).join('  ');
  return [
    `fleet: ${figures.cards_per_second_per_table} cards/s per table, ${figures.daemon}; latency = CARD frame on the pty to a shared consumer (relay: publish to consumer); CPU and memory = daemons + brokers; the machine was shared with other work`,
    line(header),
    ...rows.map(line),
    '',
  ].join('\n');
}
