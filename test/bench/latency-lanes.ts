/**
 * Card latency of the built daemon against two relays, interleaved card by
 * card, as the deployment runs: all are child processes started with the
 * systemd unit's node flags, each reading its own socat pty (same kind), all
 * publishing to the same mosquitto, one subscriber here timing them. The
 * durable relay is the baseline (issue 36): it appends each card to a file
 * as durably as the journal (O_DSYNC, same disk), ACKs, then publishes at
 * QoS 1, the least a daemon that never loses an ACKed card can do. The bare
 * relay (ACK at once, write nothing) stays as a second reference, so that
 * the cost of durability itself stays visible. A shoe
 * simulator per lane writes a CARD frame; its latency runs from the frame
 * written to the card event received.
 *
 * Fairness: neither lane runs first (the order within each pair of cards is
 * drawn at random, seeded, so neither pays the warm-up or the machine's
 * moments of load more than the other), and a warm-up of a few cards per
 * lane is dealt and dropped before anything is counted.
 *
 * Three paces, each reported with min, p50, p99 and max and both ratios:
 * back to back (the next card once the last event arrived), a card every
 * 50 ms, and a dealer's pace (a card every 500 ms). CPU per card is each
 * child's own CPU (all threads, from /proc) over the phase, divided by its
 * cards: at a dealer's pace it includes what the daemon does between cards
 * (PINGs, timers), which is what a table pays.
 *
 * `compareDist` (`npm run bench -- --only latency --compare-dist DIR`) adds a
 * third lane: the daemon of another build (DIR is its dist/, e.g. built from
 * an older commit in a worktree), on a pty of its own, in the same seeded
 * random order card by card. Each phase then also reports the old build
 * against the relay and the new build against the old one (p50, p99, CPU
 * per card): a change to the card path shown in one run, on one machine's
 * moment, not across runs of a noisy machine.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { MqttClient } from 'mqtt';
import { formatPublicKey } from '../../device-protocol/auth/keys.ts';
// The same order on every run of the bench: the legal deals' seeded generator.
import { seededRandom } from '../../firmware-host/games/cards/table/legal-deal.ts';
import { tableTopics } from '../../firmware-host/mqtt/topics.ts';
import { type DeviceKey, deviceKey, generatedSigner } from '../../hardware/keys/device-key.ts';
import { openTransport } from '../../hardware/transports/url.ts';
import { SimulatedDevice } from '../../simulators/device.ts';
import type { ScriptStep } from '../../simulators/scenario.ts';
import { startTestBroker } from '../helpers/broker.ts';
import {
  type ChildDaemon,
  cpuMeter,
  type DaemonCode,
  daemonCommand,
  deployedNodeFlags,
  endChild,
  idleCpuFraction,
  LANE_BASE_TOPIC,
  LANE_RULESET,
  readyDaemon,
  round,
  sleep,
  spawnBuiltDaemon,
  spread,
} from './built-daemon.ts';
import { BenchPtyPair, SOCAT } from './pty.ts';

const RELAY_SCRIPT = resolve(import.meta.dirname, 'bare-relay.mjs');

export interface LaneFigures {
  cards: number;
  min_ms: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  /** The child's own CPU over the phase, per card dealt to it. */
  cpu_ms_per_card: number | null;
  /** The same less the child's idle CPU over the phase's duration: what the cards added. */
  cpu_ms_per_card_above_idle?: number | null;
  /** The child's CPU over the phase, in % of one core. */
  cpu_percent: number | null;
}

export interface PhaseFigures {
  /** Milliseconds between one lane's cards; 0: back to back. */
  pace_ms: number;
  daemon: LaneFigures;
  /** The bare relay (no write): the daemon's ratios to it are `ratio_p50`, `ratio_p99`, `ratio_cpu_per_card`. */
  relay: LaneFigures;
  /** The durable relay (O_DSYNC append before the ACK): the baseline of the targets. */
  durable: LaneFigures;
  ratio_p50: number;
  ratio_p99: number;
  ratio_cpu_per_card: number | null;
  ratio_durable_p50: number;
  ratio_durable_p99: number;
  ratio_durable_cpu_per_card: number | null;
  /** The durable relay against the bare one: what durability itself costs. */
  ratio_durability_p50: number;
  ratio_durability_p99: number;
  ratio_durability_cpu_per_card: number | null;
  /** The daemon with its shoe paired (protocol authentication on the line), and its ratios to the durable relay. */
  paired?: LaneFigures;
  ratio_paired_durable_p50?: number;
  ratio_paired_durable_p99?: number;
  ratio_paired_durable_cpu_per_card?: number | null;
  /** With `compareDist`: the other build's daemon, and its ratios to the durable relay and this build's to it. */
  old?: LaneFigures;
  ratio_old_p50?: number;
  ratio_old_p99?: number;
  ratio_old_cpu_per_card?: number | null;
  ratio_new_old_p50?: number;
  ratio_new_old_p99?: number;
  ratio_new_old_cpu_per_card?: number | null;
}

export interface LatencyLaneFigures {
  node_flags: string;
  broker: string;
  order: string;
  warmup_cards: number;
  idle_seconds: number;
  /** With the shoe connected and no cards, in % of one core. */
  daemon_idle_cpu_percent: number;
  relay_idle_cpu_percent: number;
  durable_idle_cpu_percent: number;
  /** With `compareDist`: the other build (its dist/ and commit) and its idle CPU. */
  compared_with?: string;
  old_idle_cpu_percent?: number;
  paired_idle_cpu_percent?: number;
  back_to_back: PhaseFigures;
  paced_50ms: PhaseFigures;
  dealer_pace: PhaseFigures;
  note?: string;
}

export interface LatencyLaneOptions {
  warmup?: number;
  backToBack?: number;
  paced50?: number;
  dealer?: number;
  dealerPaceMs?: number;
  idleSeconds?: number;
  seed?: number;
  /** The built daemon (default) or its source through tsx (the harness's smoke test). */
  daemon?: DaemonCode;
  /**
   * Another build's dist/ (with `daemon: 'source'`, another checkout) whose
   * daemon runs as a third lane, interleaved with the other two.
   */
  compareDist?: string;
  /** A lane whose daemon's shoe is paired (default true): the paired path against the same relays. */
  paired?: boolean;
}

type LaneName = 'daemon' | 'relay' | 'durable' | 'paired' | 'old';

/** One shoe simulator and the events of its lane. */
class Lane {
  readonly samples: number[] = [];
  private writtenAt: number | undefined;
  private arrived: ((at: number) => void) | undefined;

  constructor(
    readonly name: LaneName,
    readonly sim: SimulatedDevice,
    readonly topic: string,
    readonly pid: number,
    private readonly beforeShuffle?: () => Promise<void>,
  ) {
    sim.on('wrote', (line) => {
      if (this.writtenAt === undefined && /^\$SH,\d+,CARD,/.test(line))
        this.writtenAt = performance.now();
    });
  }

  /** Called by the subscriber for every message on this lane's topic. */
  heard(): void {
    this.arrived?.(performance.now());
  }

  /** Deals up to the next card and resolves with its latency in ms (shuffles and cut cards pass). */
  async dealOne(): Promise<number> {
    for (;;) {
      if (this.sim.steps[this.sim.nextStepIndex]?.kind === 'shuffle') await this.beforeShuffle?.();
      const paced = this.sim.upcoming();
      if (!paced) throw new Error(`${this.name} lane: the shoe simulator ran out of cards`);
      this.writtenAt = undefined;
      const received = new Promise<number>((resolve) => {
        this.arrived = resolve;
      });
      if (!(await this.sim.step())) throw new Error(`${this.name} lane: nothing left to deal`);
      const next = this.sim.steps
        .slice(0, this.sim.nextStepIndex)
        .findLast((step) => step.kind === 'card' || step.kind === 'cut');
      if (next?.kind !== 'card') {
        this.arrived = undefined;
        await sleep(5);
        continue;
      }
      const at = await Promise.race([received, sleep(5000).then(() => undefined)]);
      this.arrived = undefined;
      if (at === undefined || this.writtenAt === undefined)
        throw new Error(`${this.name} lane: no card event within 5 s`);
      return at - this.writtenAt;
    }
  }
}

function shoesScript(shoes: number): ScriptStep[] {
  const script: ScriptStep[] = [];
  for (let shoe = 0; shoe < shoes; shoe++)
    script.push({ op: 'shuffle' }, { op: 'deal', count: 'rest' });
  return script;
}

/** The lanes' indexes in an order drawn at random (Fisher-Yates). */
function shuffled(count: number, random: () => number): number[] {
  const order = Array.from({ length: count }, (_, index) => index);
  for (let index = count - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [order[index], order[other]] = [order[other]!, order[index]!];
  }
  return order;
}

const ratio = (a: number, b: number) => round(a / b, 2);
const cpuRatio = (a: LaneFigures, b: LaneFigures) =>
  a.cpu_ms_per_card !== null && b.cpu_ms_per_card
    ? round(a.cpu_ms_per_card / b.cpu_ms_per_card, 2)
    : null;

/**
 * `cards` cards to each lane, the order within each round drawn at random;
 * paced: each lane gets a card every `paceMs`, the lanes evenly spread
 * within a pace. A late card is not caught up on (no burst after a stall).
 * Lanes: the daemon, the relay, and the other build's daemon when compared.
 */
async function runPhase(
  lanes: readonly Lane[],
  cards: number,
  paceMs: number,
  random: () => number,
  idle?: readonly number[],
): Promise<PhaseFigures> {
  const samples: number[][] = lanes.map(() => []);
  const meters = await Promise.all(lanes.map((lane, index) => cpuMeter(lane.pid, idle?.[index])));
  const slotMs = paceMs / lanes.length;
  let nextSlot = performance.now();
  for (let card = 0; card < cards; card++) {
    for (const index of shuffled(lanes.length, random)) {
      if (paceMs > 0) {
        const wait = nextSlot - performance.now();
        if (wait > 0) await sleep(wait);
        nextSlot = Math.max(nextSlot + slotMs, performance.now());
      }
      samples[index]!.push(await lanes[index]!.dealOne());
    }
  }
  const cpu = await Promise.all(meters.map((meter) => meter(cards)));
  const byName = new Map(
    lanes.map((lane, index): [LaneName, LaneFigures] => [
      lane.name,
      { ...spread(samples[index]!), ...cpu[index]! },
    ]),
  );
  const daemon = byName.get('daemon')!;
  const relay = byName.get('relay')!;
  const durable = byName.get('durable')!;
  const paired = byName.get('paired');
  const old = byName.get('old');
  return {
    pace_ms: paceMs,
    daemon,
    relay,
    durable,
    ratio_p50: ratio(daemon.p50_ms, relay.p50_ms),
    ratio_p99: ratio(daemon.p99_ms, relay.p99_ms),
    ratio_cpu_per_card: cpuRatio(daemon, relay),
    ratio_durable_p50: ratio(daemon.p50_ms, durable.p50_ms),
    ratio_durable_p99: ratio(daemon.p99_ms, durable.p99_ms),
    ratio_durable_cpu_per_card: cpuRatio(daemon, durable),
    ratio_durability_p50: ratio(durable.p50_ms, relay.p50_ms),
    ratio_durability_p99: ratio(durable.p99_ms, relay.p99_ms),
    ratio_durability_cpu_per_card: cpuRatio(durable, relay),
    ...(paired === undefined
      ? {}
      : {
          paired,
          ratio_paired_durable_p50: ratio(paired.p50_ms, durable.p50_ms),
          ratio_paired_durable_p99: ratio(paired.p99_ms, durable.p99_ms),
          ratio_paired_durable_cpu_per_card: cpuRatio(paired, durable),
        }),
    ...(old === undefined
      ? {}
      : {
          old,
          ratio_old_p50: ratio(old.p50_ms, durable.p50_ms),
          ratio_old_p99: ratio(old.p99_ms, durable.p99_ms),
          ratio_old_cpu_per_card: cpuRatio(old, durable),
          ratio_new_old_p50: ratio(daemon.p50_ms, old.p50_ms),
          ratio_new_old_p99: ratio(daemon.p99_ms, old.p99_ms),
          ratio_new_old_cpu_per_card: cpuRatio(daemon, old),
        }),
  };
}

async function spawnRelay(
  devicePath: string,
  brokerUrl: string,
  topic: string,
  code: DaemonCode,
  durableFile?: string,
) {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...daemonCommand(code).flags,
      RELAY_SCRIPT,
      devicePath,
      brokerUrl,
      topic,
      ...(durableFile === undefined ? [] : [durableFile]),
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, BENCH_RELAY_SOURCE: code === 'source' ? '1' : '0' },
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const stop = () => endChild(child, 3000);
  for (let waited = 0; !output.includes('ready\n'); waited += 10) {
    if (child.exitCode !== null || waited > 10_000) {
      await stop();
      throw new Error(
        `the ${durableFile === undefined ? 'bare' : 'durable'} relay did not start: ${output.trim()}`,
      );
    }
    await sleep(10);
  }
  return { pid: child.pid!, stop };
}

export async function benchLatencyLanes(
  options: LatencyLaneOptions = {},
): Promise<LatencyLaneFigures> {
  if (!SOCAT) throw new Error('socat is not installed: the latency lanes need pty pairs');
  const warmup = options.warmup ?? 30;
  const backToBack = options.backToBack ?? 300;
  const paced50 = options.paced50 ?? 150;
  const dealer = options.dealer ?? 40;
  const dealerPaceMs = options.dealerPaceMs ?? 500;
  const idleSeconds = options.idleSeconds ?? 3;
  const code = options.daemon ?? 'built';
  const buildNote = await readyDaemon(code);
  const compareDist = options.compareDist;
  if (compareDist !== undefined && !existsSync(daemonCommand(code, compareDist).cli)) {
    throw new Error(
      `--compare-dist ${compareDist}: no ${daemonCommand(code, compareDist).cli} (run npm run build in that checkout)`,
    );
  }

  const broker = await startTestBroker();
  const dir = await mkdtemp(join(tmpdir(), 'tableside-bench-lanes-'));
  const daemonPty = new BenchPtyPair();
  const relayPty = new BenchPtyPair();
  const durablePty = new BenchPtyPair();
  const pairedPty = options.paired === false ? undefined : new BenchPtyPair();
  const oldPty = compareDist === undefined ? undefined : new BenchPtyPair();
  const { connectAsync } = await import('mqtt');
  let client: MqttClient | undefined;
  let daemon: ChildDaemon | undefined;
  let old: ChildDaemon | undefined;
  let paired: ChildDaemon | undefined;
  let relay: Awaited<ReturnType<typeof spawnRelay>> | undefined;
  let durable: Awaited<ReturnType<typeof spawnRelay>> | undefined;
  const sims: SimulatedDevice[] = [];
  try {
    await Promise.all([
      daemonPty.start(),
      relayPty.start(),
      durablePty.start(),
      pairedPty?.start(),
      oldPty?.start(),
    ]);
    client = await connectAsync(broker.url, {
      clientId: `bench-lanes-${process.pid}`,
      reconnectPeriod: 0,
    });
    const activeClient = client;
    const relayTopic = tableTopics(LANE_BASE_TOPIC, 'relay-1').events('card');
    const durableTopic = tableTopics(LANE_BASE_TOPIC, 'durable-1').events('card');
    const spawnDaemon = (
      table: string,
      devicePath: string,
      more: { root?: string; pairedKey?: string } = {},
    ) =>
      spawnBuiltDaemon({
        dir,
        table,
        devicePath,
        brokerUrl: broker.url,
        client: activeClient,
        code,
        ...more,
      });
    daemon = await spawnDaemon('daemon-1', daemonPty.a);
    const shoeKey = pairedPty ? await deviceKey(generatedSigner('ed25519')) : undefined;
    if (pairedPty && shoeKey) {
      paired = await spawnDaemon('paired-1', pairedPty.a, {
        pairedKey: formatPublicKey(shoeKey.publicKey),
      });
    }
    if (oldPty) old = await spawnDaemon('old-1', oldPty.a, { root: compareDist });
    relay = await spawnRelay(relayPty.a, broker.url, relayTopic, code);
    // In the daemons' folder: the same disk as their journals.
    durable = await spawnRelay(
      durablePty.a,
      broker.url,
      durableTopic,
      code,
      join(dir, 'durable-relay.jsonl'),
    );
    const simulator = (devicePath: string, key?: DeviceKey) => {
      const sim = new SimulatedDevice({
        kind: 'shoe',
        ruleset: LANE_RULESET,
        seed: 11,
        transport: openTransport(devicePath),
        ...(key === undefined ? {} : { key }),
        scenario: { on: [], off: [], steps: shoesScript(3) },
        reconnect: { initialDelayMs: 20, maxDelayMs: 200 },
      });
      sims.push(sim);
      return sim;
    };
    const daemonLane = (name: LaneName, child: ChildDaemon, devicePath: string, key?: DeviceKey) =>
      new Lane(name, simulator(devicePath, key), child.topics.events('card'), child.pid, () =>
        child.newShoe(activeClient),
      );
    // The idle figures read index 0 as the daemon, 1 as the bare relay, 2 as the durable relay.
    const lanes: Lane[] = [
      daemonLane('daemon', daemon, daemonPty.b),
      new Lane('relay', simulator(relayPty.b), relayTopic, relay.pid),
      new Lane('durable', simulator(durablePty.b), durableTopic, durable.pid),
      ...(paired && pairedPty ? [daemonLane('paired', paired, pairedPty.b, shoeKey)] : []),
      ...(old && oldPty ? [daemonLane('old', old, oldPty.b)] : []),
    ];
    client.on('message', (topic) => {
      for (const lane of lanes) if (topic === lane.topic) lane.heard();
    });
    await client.subscribeAsync(
      lanes.map((lane) => lane.topic),
      { qos: 1 },
    );
    for (const lane of lanes) lane.sim.start();
    await Promise.race([
      Promise.all(lanes.map((lane) => lane.sim.whenReady())),
      sleep(10_000).then(() => {
        throw new Error('a shoe simulator was not ACKed within 10 s');
      }),
    ]);

    const random = seededRandom(options.seed ?? 16);
    await runPhase(lanes, warmup, 0, random);
    // Each child's CPU with the shoe connected and no cards (the daemon PINGs
    // its shoe, both keep their MQTT connection alive), all at once.
    const idle = await Promise.all(lanes.map((lane) => idleCpuFraction(lane.pid, idleSeconds)));
    const back = await runPhase(lanes, backToBack, 0, random, idle);
    const paced = await runPhase(lanes, paced50, 50, random, idle);
    const slow = await runPhase(lanes, dealer, dealerPaceMs, random, idle);
    return {
      node_flags: deployedNodeFlags().join(' '),
      broker: broker.kind,
      order: `${lanes.map((lane) => lane.name).join(', ')} card by card, the order within each round seeded-random`,
      warmup_cards: warmup,
      idle_seconds: idleSeconds,
      daemon_idle_cpu_percent: round(idle[0]! * 100, 2),
      relay_idle_cpu_percent: round(idle[1]! * 100, 2),
      durable_idle_cpu_percent: round(idle[2]! * 100, 2),
      ...(paired
        ? {
            paired_idle_cpu_percent: round(
              idle[lanes.findIndex((lane) => lane.name === 'paired')]! * 100,
              2,
            ),
          }
        : {}),
      ...(compareDist === undefined
        ? {}
        : {
            compared_with: `${compareDist} (${commitOf(compareDist)})`,
            old_idle_cpu_percent: round(
              idle[lanes.findIndex((lane) => lane.name === 'old')]! * 100,
              2,
            ),
          }),
      back_to_back: back,
      paced_50ms: paced,
      dealer_pace: slow,
      ...(buildNote ? { note: buildNote } : {}),
    };
  } finally {
    await Promise.all(sims.map((sim) => sim.stop().catch(() => undefined)));
    await daemon?.stop();
    await old?.stop();
    await paired?.stop();
    await relay?.stop();
    await durable?.stop();
    await client?.endAsync().catch(() => undefined);
    await Promise.all([
      daemonPty.stop(),
      relayPty.stop(),
      durablePty.stop(),
      pairedPty?.stop(),
      oldPty?.stop(),
    ]);
    await broker.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The commit a compared build's checkout is at, for the results; `unknown` outside git. */
function commitOf(dir: string): string {
  try {
    return execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    // Not inside a git checkout: the folder alone names the build.
    return 'unknown commit';
  }
}

/** The ratios the targets read, per phase: each one's median over the runs, with its min and max. */
const MEDIAN_RATIOS = [
  'ratio_durable_p50',
  'ratio_durable_p99',
  'ratio_durable_cpu_per_card',
  'ratio_paired_durable_p50',
  'ratio_paired_durable_p99',
  'ratio_paired_durable_cpu_per_card',
  'ratio_p50',
  'ratio_p99',
  'ratio_durability_p50',
  'ratio_durability_p99',
] as const;

const PHASES = ['back_to_back', 'paced_50ms', 'dealer_pace'] as const;

/**
 * Each phase's ratios over several runs of the lanes: `{ ratio, min_ratio,
 * max_ratio }` per ratio, the ratio being the median (the middle run's, or
 * the mean of the two middle ones). A ratio a run lacks is left out.
 */
export function medianRatios(
  runs: readonly LatencyLaneFigures[],
): Record<(typeof PHASES)[number], Record<string, number>> {
  const result = {} as Record<(typeof PHASES)[number], Record<string, number>>;
  for (const phase of PHASES) {
    const row: Record<string, number> = { runs: runs.length };
    for (const key of MEDIAN_RATIOS) {
      const values = runs
        .map((run) => run[phase][key])
        .filter((value): value is number => typeof value === 'number' && Number.isFinite(value))
        .sort((a, b) => a - b);
      if (values.length === 0) continue;
      const middle = values.length >> 1;
      row[key] = round(
        values.length % 2 ? values[middle]! : (values[middle - 1]! + values[middle]!) / 2,
        2,
      );
      row[`min_${key}`] = values[0]!;
      row[`max_${key}`] = values.at(-1)!;
    }
    result[phase] = row;
  }
  return result;
}
