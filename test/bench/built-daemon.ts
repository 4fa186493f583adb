/**
 * The built daemon as the Pi runs it, for the lanes that measure it: `node
 * <the systemd unit's flags> dist/firmware-host/cli.js run --config FILE`
 * as a child process, its shoe on a socat pty, its broker a real mosquitto.
 * Also the child's CPU and memory read from /proc, so that a figure is the
 * daemon's own cost and not the bench's.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { MqttClient } from 'mqtt';
import { tableTopics } from '../../firmware-host/mqtt/topics.ts';
import { BUILT_CLI, build, deployedNodeFlags } from './footprint.ts';

export const LANE_RULESET = 'tdc-baccarat-no-commission';
export const LANE_BASE_TOPIC = 'bench';

/** Unref'd: a timeout raced against an answer must not keep the process alive after it. */
export const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
  });

/**
 * `npm run build`, once per bench run. Throws when there is no daemon to
 * measure; returns a note when tsc reported errors but emitted dist/.
 */
export async function ensureBuilt(): Promise<string | undefined> {
  const error = build();
  if (error && !existsSync(BUILT_CLI)) throw new Error(`npm run build failed: ${error}`);
  return error
    ? `npm run build reported errors (${error}); measured the dist/ it emitted`
    : undefined;
}

export interface ChildDaemon {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly table: string;
  readonly topics: ReturnType<typeof tableTopics>;
  /** Declares a new shoe over MQTT, as the table-management system does, and waits for its answer. */
  newShoe(client: MqttClient): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Spawns the built daemon with the unit's node flags on `devicePath`, and
 * resolves once `client` sees its retained `online`.
 */
export async function spawnBuiltDaemon(options: {
  dir: string;
  table: string;
  devicePath: string;
  brokerUrl: string;
  client: MqttClient;
}): Promise<ChildDaemon> {
  const topics = tableTopics(LANE_BASE_TOPIC, options.table);
  const configFile = join(options.dir, `${options.table}.json`);
  await writeFile(
    configFile,
    JSON.stringify({
      table: options.table,
      ruleset: LANE_RULESET,
      devices: { shoe: { kind: 'shoe', transport: options.devicePath } },
      mqtt: { url: options.brokerUrl, baseTopic: LANE_BASE_TOPIC },
      journal: { dir: join(options.dir, `${options.table}-journal`), rotateDaily: false },
      session: { autoRound: true },
    }),
  );
  let online = false;
  let answered: (() => void) | undefined;
  const listener = (topic: string, payload: Buffer) => {
    if (topic === topics.bridgeState && payload.toString() === 'online') online = true;
    if (topic === topics.response('new_shoe')) answered?.();
  };
  options.client.on('message', listener);
  await options.client.subscribeAsync([topics.bridgeState, topics.response('new_shoe')], {
    qos: 1,
  });
  const child = spawn(
    process.execPath,
    [...deployedNodeFlags(), BUILT_CLI, 'run', '--config', configFile],
    {
      cwd: options.dir,
      env: { ...process.env, TABLESIDE_LOG_LEVEL: process.env.BENCH_DAEMON_LOG ?? 'warn' },
      stdio: ['ignore', process.env.BENCH_DAEMON_LOG ? 'inherit' : 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    options.client.off('message', listener);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(5000)]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  };
  for (let waited = 0; !online; waited += 10) {
    if (child.exitCode !== null || waited > 15_000) {
      await stop();
      throw new Error(
        `the built daemon ${options.table} did not publish online within 15 s: ${stderr.trim().split('\n').slice(-3).join(' | ')}`,
      );
    }
    await sleep(10);
  }
  return {
    child,
    pid: child.pid!,
    table: options.table,
    topics,
    async newShoe(client) {
      const answer = new Promise<void>((resolve) => {
        answered = resolve;
      });
      await client.publishAsync(topics.request('new_shoe'), JSON.stringify({ reason: 'bench' }), {
        qos: 1,
      });
      await Promise.race([answer, sleep(2000)]);
      answered = undefined;
    },
    stop,
  };
}

/**
 * CPU seconds a process has used, all its threads (V8's compiler and GC
 * helpers, libuv's pool included). From each thread's schedstat, in
 * nanoseconds: /proc/<pid>/stat counts in 10 ms ticks, too coarse for a card
 * that costs a fraction of a millisecond. Falls back to stat's utime+stime.
 */
export async function processCpuSeconds(pid: number): Promise<number> {
  try {
    const tasks = await readdir(`/proc/${pid}/task`);
    let nanoseconds = 0;
    for (const task of tasks) {
      const schedstat = await readFile(`/proc/${pid}/task/${task}/schedstat`, 'utf8').catch(
        () => '',
      );
      nanoseconds += Number(schedstat.split(' ')[0]) || 0;
    }
    if (nanoseconds > 0) return nanoseconds / 1e9;
  } catch {
    // No schedstat on this kernel: the coarse ticks below.
  }
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / clockTicks();
}

let ticksPerSecond: number | undefined;
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond =
        Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

export async function residentMegabytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  return match ? Math.round((Number(match[1]) / 1024) * 10) / 10 : Number.NaN;
}

/**
 * A stopwatch of one process's CPU over a stretch, per card. With
 * `idleFraction` (its CPU share with no cards, measured before), also the
 * CPU per card above idle: what a card adds, not what the hour costs.
 */
export async function cpuMeter(pid: number, idleFraction?: number) {
  const cpuAt = await processCpuSeconds(pid);
  const wallAt = performance.now();
  return async (cards: number) => {
    const cpu = (await processCpuSeconds(pid)) - cpuAt;
    const wall = (performance.now() - wallAt) / 1000;
    return {
      cpu_ms_per_card: cards > 0 ? round((cpu * 1000) / cards) : null,
      ...(idleFraction === undefined
        ? {}
        : {
            cpu_ms_per_card_above_idle:
              cards > 0 ? round(((cpu - idleFraction * wall) * 1000) / cards) : null,
          }),
      cpu_percent: wall > 0 ? Math.round((cpu / wall) * 1000) / 10 : null,
    };
  };
}

/** A process's CPU share (0..1 of a core) over `seconds` in which the bench sends it nothing. */
export async function idleCpuFraction(pid: number, seconds: number): Promise<number> {
  const cpuAt = await processCpuSeconds(pid);
  const wallAt = performance.now();
  await sleep(seconds * 1000);
  const cpu = (await processCpuSeconds(pid)) - cpuAt;
  return cpu / ((performance.now() - wallAt) / 1000);
}

export function round(value: number, digits = 3): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** min, p50, p99, max of samples in ms: the median never alone. */
export function spread(samples: readonly number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) =>
    sorted.length === 0
      ? Number.NaN
      : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
  return {
    cards: sorted.length,
    min_ms: round(sorted[0] ?? Number.NaN),
    p50_ms: round(at(0.5)),
    p99_ms: round(at(0.99)),
    max_ms: round(sorted.at(-1) ?? Number.NaN),
  };
}
