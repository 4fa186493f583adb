/**
 * CPU per card of the built daemon, as the Pi runs it: `node <unit flags>
 * dist/firmware-host/cli.js run --config <bench config>`, a shoe simulator
 * on the other end of a socat pty pair, a real broker (mosquitto, see
 * test/helpers/broker.ts).
 *
 * The shoe deals `cards` cards stop and wait (the next once the card event
 * reached a subscriber on the broker), one every `paceMs` (0: back to back,
 * i.e. saturated for one shoe). The daemon's own CPU time divided by the
 * cards: the whole cost of a card at that
 * pace, its share of the link's keep-alive included (schedstat of every
 * thread: the fsyncs of the libuv pool count). The idle rate, measured
 * first with the shoe connected and nothing dealt, is reported beside it so
 * the per-card cost net of idling can be read too.
 *
 * `npm run build` is the caller's (BENCH's lanes, or `main()` below).
 * Run alone: `npx tsx test/bench/card-cpu.ts [paceMs|burst|after-busy ...]`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startTestBroker } from '../helpers/broker.ts';
import {
  cpuSeconds,
  type DaemonProcess,
  deployedNodeFlags,
  LANE_BASE_TOPIC,
  LANE_RULESET,
  sleep,
  startDaemonProcess,
  untilOnline,
  writeDaemonConfig,
} from './built-daemon.ts';
import { BenchPtyPair, SOCAT } from './pty.ts';

const TABLE = 'card-cpu-1';

export interface CardCpuOptions {
  /** Milliseconds from one card written to the next; 0: the next as soon as the last arrived. */
  paceMs: number;
  /** Cards dealt and measured (at most one 8-deck shoe: 400). */
  cards: number;
  /** Node flags; default the systemd unit's (hardware/deploy/tableside.service). */
  flags?: readonly string[];
  /** The built CLI to run; default dist/firmware-host/cli.js of this checkout. */
  cli?: string;
  /** Cards dealt first and not counted (the daemon's first cards load code). Default 20. */
  warmup?: number;
  /**
   * The warm-up's pace; default `paceMs`. 0 deals it back to back: a dealer's
   * pace measured after a busy spell, when V8 finds the allocation rate
   * dropped and may collect the heap to shrink it.
   */
  warmupPaceMs?: number;
  /** Milliseconds of idling measured before dealing. Default 2000. */
  idleMs?: number;
  /**
   * Saturated: after the warm-up the shoe deals all `cards` at once (its
   * window of unacknowledged frames is the only brake), not stop and wait;
   * `paceMs` is then ignored and the figures include the rate and the
   * longest gap between two card events (a stall).
   */
  burst?: boolean;
  /** Called as the counted cards start and once they have all arrived (a profile's window: profile-card-path.ts). */
  mark?: (moment: 'idling' | 'idled' | 'dealing' | 'dealt', pid: number) => void;
}

export interface CardCpuFigures {
  pace_ms: number;
  cards: number;
  node_flags: string;
  /** Daemon CPU (user + system) while dealing, divided by the cards. */
  cpu_ms_per_card: number;
  /** Daemon CPU per second with the shoe connected and no card. */
  idle_cpu_ms_per_s: number;
  /** cpu_ms_per_card less the idle rate over the time dealing. */
  cpu_ms_per_card_net_of_idle: number;
  /** CARD frame written on the pty to the card event from the broker (stop and wait only). */
  latency_ms: { p50: number; p99: number; min: number; max: number };
  /** Burst only: cards per second from the first card written to the last card event. */
  cards_per_s?: number;
  /** Burst only: the longest wait between two consecutive card events. */
  max_gap_ms?: number;
}

/** CPU time of every thread of `pid` (main, libuv pool, V8's helpers), in milliseconds. */
const cpuMs = (pid: number) => cpuSeconds(pid) * 1000;

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;

export async function measureCardCpu(options: CardCpuOptions): Promise<CardCpuFigures> {
  if (!SOCAT) throw new Error('socat is not installed: the shoe needs a pty pair');
  const warmup = options.warmup ?? 20;
  if (options.cards + warmup > 400) throw new Error('cards + warmup must fit one shoe (400)');
  const flags = [...(options.flags ?? deployedNodeFlags())];
  const [{ SimulatedDevice }, { openTransport }, { tableTopics }, { connectAsync }] =
    await Promise.all([
      import('../../simulators/device.ts'),
      import('../../hardware/transports/url.ts'),
      import('../../firmware-host/mqtt/topics.ts'),
      import('mqtt'),
    ]);
  const dir = await mkdtemp(join(tmpdir(), 'tableside-card-cpu-'));
  const broker = await startTestBroker();
  const pair = new BenchPtyPair();
  const topics = tableTopics(LANE_BASE_TOPIC, TABLE);
  const client = await connectAsync(broker.url, {
    clientId: `bench-card-cpu-${process.pid}`,
    reconnectPeriod: 0,
  });
  let daemon: DaemonProcess | undefined;
  try {
    await pair.start();
    const configFile = join(dir, 'config.json');
    await writeDaemonConfig(configFile, {
      table: TABLE,
      devicePath: pair.a,
      brokerUrl: broker.url,
      journal: { dir: join(dir, 'journal'), rotateDaily: false },
    });
    let online = false;
    let received = 0;
    const arrivals: number[] = [];
    let waiter: { count: number; resolve: () => void } | undefined;
    client.on('message', (topic, payload) => {
      if (topic === topics.bridgeState && payload.toString() === 'online') online = true;
      if (topic === topics.events('card')) {
        received++;
        arrivals.push(performance.now());
        if (waiter && received >= waiter.count) {
          waiter.resolve();
          waiter = undefined;
        }
      }
    });
    await client.subscribeAsync([topics.bridgeState, topics.events('card')], { qos: 1 });
    daemon = startDaemonProcess({
      configFile,
      cwd: dir,
      flags,
      ...(options.cli ? { cli: options.cli } : {}),
    });
    const stderr = daemon.stderr;
    if (!(await untilOnline(() => online, daemon.child, 15_000)))
      throw new Error(`the built daemon did not come online: ${stderr()}`);

    const sim = new SimulatedDevice({
      kind: 'shoe',
      ruleset: LANE_RULESET,
      seed: 5,
      transport: openTransport(pair.b),
      scenario: { on: [], off: [], steps: [{ op: 'shuffle' }, { op: 'deal', count: 'rest' }] },
      reconnect: { initialDelayMs: 20, maxDelayMs: 200 },
    });
    let writtenAt: number | undefined;
    sim.on('wrote', (line) => {
      if (writtenAt === undefined && /^\$SH,\d+,CARD,/.test(line)) writtenAt = performance.now();
    });
    const pid = daemon.child.pid!;
    const latencies: number[] = [];
    try {
      sim.start();
      await Promise.race([sim.whenReady(), sleep(10_000)]);
      if (!sim.ready) throw new Error('the simulated shoe was not ACKed by the daemon');
      await client.publishAsync(topics.request('new_shoe'), JSON.stringify({ reason: 'bench' }), {
        qos: 1,
      });
      // The new shoe's events published; the deferred MQTT cursor's write (5 s) falls in the warm-up.
      await sleep(1500);
      const idleMs = options.idleMs ?? 2000;
      options.mark?.('idling', pid);
      const idleFrom = await cpuMs(pid);
      const idleStarted = performance.now();
      await sleep(idleMs);
      options.mark?.('idled', pid);
      const idleRate = ((await cpuMs(pid)) - idleFrom) / ((performance.now() - idleStarted) / 1000);

      let dealt = 0;
      let cpuFrom = 0;
      let dealStarted = 0;
      const stopAndWait = options.burst ? warmup : warmup + options.cards;
      for (let card = 0; card < stopAndWait; card++) {
        if (card === warmup) {
          options.mark?.('dealing', pid);
          cpuFrom = await cpuMs(pid);
          dealStarted = performance.now();
        }
        const startedAt = performance.now();
        writtenAt = undefined;
        // Steps up to the next card (the cut card is a step of its own).
        const arrived = new Promise<void>((done) => {
          waiter = { count: dealt + 1, resolve: done };
        });
        let isCard = false;
        while (!isCard) {
          const next = sim.upcoming();
          if (!next) throw new Error('the shoe ran out of cards');
          isCard = next.kind === 'card';
          if (!(await sim.step())) throw new Error('the shoe ran out of steps');
        }
        dealt++;
        const timeout = sleep(5000).then(() => {
          throw new Error(`card ${dealt} did not reach the broker within 5 s: ${stderr()}`);
        });
        await Promise.race([arrived, timeout]);
        if (card >= warmup && writtenAt !== undefined)
          latencies.push(performance.now() - writtenAt);
        const pace = card < warmup ? (options.warmupPaceMs ?? options.paceMs) : options.paceMs;
        const rest = pace - (performance.now() - startedAt);
        if (rest > 0) await sleep(rest);
      }
      let burst: { cards_per_s: number; max_gap_ms: number } | undefined;
      if (options.burst) {
        options.mark?.('dealing', pid);
        cpuFrom = await cpuMs(pid);
        dealStarted = performance.now();
        const from = arrivals.length;
        const all = new Promise<void>((done) => {
          waiter = { count: dealt + options.cards, resolve: done };
        });
        for (let card = 0; card < options.cards; ) {
          const next = sim.upcoming();
          if (!next) throw new Error('the shoe ran out of cards');
          if (!(await sim.step())) throw new Error('the shoe ran out of steps');
          if (next.kind === 'card') card++;
        }
        dealt += options.cards;
        const timeout = sleep(60_000).then(() => {
          throw new Error(`the burst did not reach the broker within 60 s: ${stderr()}`);
        });
        await Promise.race([all, timeout]);
        const times = arrivals.slice(from);
        let gap = times[0]! - dealStarted;
        for (let index = 1; index < times.length; index++)
          gap = Math.max(gap, times[index]! - times[index - 1]!);
        burst = {
          cards_per_s: Math.round(options.cards / ((times.at(-1)! - dealStarted) / 1000)),
          max_gap_ms: round3(gap),
        };
      }
      const dealSeconds = (performance.now() - dealStarted) / 1000;
      const spent = (await cpuMs(pid)) - cpuFrom;
      options.mark?.('dealt', pid);
      latencies.sort((a, b) => a - b);
      return {
        pace_ms: options.paceMs,
        cards: options.cards,
        node_flags: flags.join(' '),
        cpu_ms_per_card: round3(spent / options.cards),
        idle_cpu_ms_per_s: round3(idleRate),
        cpu_ms_per_card_net_of_idle: round3((spent - idleRate * dealSeconds) / options.cards),
        latency_ms: {
          p50: round3(percentile(latencies, 50)),
          p99: round3(percentile(latencies, 99)),
          min: round3(latencies[0] ?? Number.NaN),
          max: round3(latencies.at(-1) ?? Number.NaN),
        },
        ...burst,
      };
    } finally {
      await sim.stop();
    }
  } finally {
    await daemon?.stop();
    await client.endAsync().catch(() => undefined);
    await pair.stop();
    await broker.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * `npx tsx test/bench/card-cpu.ts [paceMs|burst|after-busy ...]`: one line of
 * JSON per pace (default 500, 0 and burst); after-busy is a dealer's pace
 * (500 ms) once 300 cards went back to back. TABLESIDE_CARD_CPU_CLI names
 * another build.
 */
async function main(): Promise<void> {
  const paces = process.argv.slice(2);
  const cli = process.env.TABLESIDE_CARD_CPU_CLI;
  for (const pace of paces.length > 0 ? paces : ['500', '0', 'burst']) {
    const burst = pace === 'burst';
    const afterBusy = pace === 'after-busy';
    const paceMs = burst ? 0 : afterBusy ? 500 : Number(pace);
    const cards = burst ? 300 : paceMs >= 200 ? 40 : 200;
    const warmup = afterBusy ? { warmup: 300, warmupPaceMs: 0 } : {};
    console.log(
      JSON.stringify(
        await measureCardCpu({ paceMs, cards, burst, ...warmup, ...(cli ? { cli } : {}) }),
      ),
    );
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  await main();
}
