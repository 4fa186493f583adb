/**
 * The built daemon as the Pi runs it, for the lanes that measure it: `node
 * <the systemd unit's flags> dist/firmware-host/cli.js run --config FILE`
 * as a child process, its shoe on a socat pty, its broker a real mosquitto.
 * Also a child's CPU and memory read from /proc, so that a figure is the
 * daemon's own cost and not the bench's, and the ending of a child. Every
 * lane (and the fleet's processes) takes these from here. No vitest.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { MqttClient } from 'mqtt';
import { tableTopics } from '../../firmware-host/mqtt/topics.ts';

export const REPO = resolve(import.meta.dirname, '..', '..');
export const BUILT_CLI = join(REPO, 'dist', 'firmware-host', 'cli.js');
export const LANE_RULESET = 'tdc-baccarat-no-commission';
export const LANE_BASE_TOPIC = 'bench';

/** Unref'd: a timeout raced against an answer must not keep the process alive after it. */
export const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
  });

/**
 * The node flags the daemon is deployed with, read from the systemd unit's
 * ExecStart, so that what is measured is what is deployed.
 */
export function deployedNodeFlags(): string[] {
  const unit = readFileSync(join(REPO, 'hardware', 'deploy', 'tableside.service'), 'utf8');
  const execStart = /^ExecStart=\S*node((?:\s+--\S+)*)\s/m.exec(unit);
  return execStart?.[1]?.trim().split(/\s+/).filter(Boolean) ?? [];
}

/**
 * Runs `npm run build` once per bench run (every lane on the built daemon
 * calls it); returns its first error (tsc still emits), or undefined when it
 * succeeded.
 */
let buildResult: { error: string | undefined } | undefined;
export function build(): string | undefined {
  buildResult ??= { error: runBuild() };
  return buildResult.error;
}

function runBuild(): string | undefined {
  try {
    execFileSync('npm', ['run', '--silent', 'build'], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return undefined;
  } catch (error) {
    const failed = error as { stdout?: Buffer; stderr?: Buffer };
    const output = `${failed.stdout ?? ''}${failed.stderr ?? ''}`;
    return output.split('\n').find((line) => /error/i.test(line)) ?? String(error);
  }
}

export const SOURCE_CLI = join(REPO, 'firmware-host', 'cli.ts');

/**
 * Which daemon a lane runs: the build, as the Pi runs it (`npm run bench`),
 * or the source through tsx, with the same node flags: the harness's own
 * smoke test checks what the lanes report, not the figures, and must not
 * build dist/ to do it.
 */
export type DaemonCode = 'built' | 'source';

/**
 * The command of a daemon: this checkout's by default; `root` names another
 * build's dist/ (built) or checkout (source), for the lanes' comparison of
 * an older build with this one (`--compare-dist`).
 */
export function daemonCommand(code: DaemonCode, root?: string): { cli: string; flags: string[] } {
  return code === 'built'
    ? {
        cli: root === undefined ? BUILT_CLI : join(root, 'firmware-host', 'cli.js'),
        flags: deployedNodeFlags(),
      }
    : {
        cli: root === undefined ? SOURCE_CLI : join(root, 'firmware-host', 'cli.ts'),
        flags: [...deployedNodeFlags(), '--import', import.meta.resolve('tsx')],
      };
}

/** What a lane does before its daemon starts: `npm run build` for the built one. */
export async function readyDaemon(code: DaemonCode): Promise<string | undefined> {
  return code === 'built' ? ensureBuilt() : undefined;
}

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

/** A bench table's config file: one shoe on `devicePath`, the lanes' ruleset and base topic. */
export async function writeDaemonConfig(
  file: string,
  options: {
    table: string;
    devicePath: string;
    brokerUrl: string;
    journal: { dir: string; rotateDaily?: boolean };
    /** The shoe's paired public key (`ed25519:…`): it must prove it; absent, an unpaired bench shoe. */
    pairedKey?: string;
  },
): Promise<void> {
  await writeFile(
    file,
    JSON.stringify({
      table: options.table,
      ruleset: LANE_RULESET,
      devices: {
        shoe: {
          kind: 'shoe',
          transport: options.devicePath,
          ...(options.pairedKey === undefined ? { unpaired: 'allow' } : { key: options.pairedKey }),
        },
      },
      mqtt: { url: options.brokerUrl, baseTopic: LANE_BASE_TOPIC },
      journal: options.journal,
      session: { autoRound: true },
    }),
  );
}

export interface DaemonProcess {
  readonly child: ChildProcess;
  /** The last 2 kB of its stderr, for error messages. */
  stderr(): string;
  /** Its last stderr lines on one line, for an error message. */
  lastLines(count?: number): string;
  /** SIGTERM, then SIGKILL if it has not exited within 5 s. */
  stop(): Promise<void>;
}

/**
 * Spawns `node <flags> <cli> run --config configFile` (default the unit's
 * flags and this checkout's build). BENCH_DAEMON_LOG=debug (or any level)
 * shows its log instead of only keeping its warnings for errors.
 */
export function startDaemonProcess(options: {
  configFile: string;
  cwd: string;
  flags?: readonly string[];
  cli?: string;
}): DaemonProcess {
  const child = spawn(
    process.execPath,
    [
      ...(options.flags ?? deployedNodeFlags()),
      options.cli ?? BUILT_CLI,
      'run',
      '--config',
      options.configFile,
    ],
    {
      cwd: options.cwd,
      env: { ...process.env, TABLESIDE_LOG_LEVEL: process.env.BENCH_DAEMON_LOG ?? 'warn' },
      stdio: ['ignore', process.env.BENCH_DAEMON_LOG ? 'inherit' : 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000);
  });
  return {
    child,
    stderr: () => stderr.trim(),
    lastLines: (count = 3) => stderr.trim().split('\n').slice(-count).join(' | '),
    stop: () => endChild(child),
  };
}

/**
 * Polls `isOnline` (set by the caller's MQTT listener on the retained
 * bridge/state) until it holds; false when the child exits first or
 * `timeoutMs` passes.
 */
export async function untilOnline(
  isOnline: () => boolean,
  child: ChildProcess,
  timeoutMs: number,
): Promise<boolean> {
  for (let waited = 0; !isOnline(); waited += 10) {
    if (child.exitCode !== null || waited >= timeoutMs) return false;
    await sleep(10);
  }
  return true;
}

export function running(child: ChildProcess): boolean {
  return child.pid !== undefined && child.exitCode === null && child.signalCode === null;
}

/** Ends a child: SIGTERM, then SIGKILL after `graceMs`, and waits (up to a second more) for its exit. */
export async function endChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (!running(child)) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(graceMs)]);
  if (running(child)) {
    child.kill('SIGKILL');
    await Promise.race([exited, sleep(1000)]);
  }
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
  code?: DaemonCode;
  /** Another build's dist/ (or checkout, for source) to run instead of this one's. */
  root?: string;
  /** The shoe's paired public key: a paired line. */
  pairedKey?: string;
}): Promise<ChildDaemon> {
  const topics = tableTopics(LANE_BASE_TOPIC, options.table);
  const configFile = join(options.dir, `${options.table}.json`);
  await writeDaemonConfig(configFile, {
    table: options.table,
    devicePath: options.devicePath,
    brokerUrl: options.brokerUrl,
    journal: { dir: join(options.dir, `${options.table}-journal`), rotateDaily: false },
    ...(options.pairedKey === undefined ? {} : { pairedKey: options.pairedKey }),
  });
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
  const daemon = startDaemonProcess({
    configFile,
    cwd: options.dir,
    ...daemonCommand(options.code ?? 'built', options.root),
  });
  const child = daemon.child;
  const stop = async () => {
    options.client.off('message', listener);
    await daemon.stop();
  };
  if (!(await untilOnline(() => online, child, 15_000))) {
    await stop();
    throw new Error(
      `the built daemon ${options.table} did not publish online within 15 s: ${daemon.lastLines()}`,
    );
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
 * Throws once the process is gone.
 */
export function cpuSeconds(pid: number): number {
  let nanoseconds = 0;
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      try {
        nanoseconds +=
          Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]) || 0;
      } catch {
        // The thread ended between the listing and the read.
      }
    }
  } catch {
    // No task listing: the coarse ticks below (which throw if the process is gone).
  }
  if (nanoseconds > 0) return nanoseconds / 1e9;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The fields after the command name (which may hold spaces) start at field 3.
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

/** VmRSS of a process in MB (NaN when it has none, e.g. a zombie); throws once it is gone. */
export function residentMegabytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

/**
 * A stopwatch of one process's CPU over a stretch, per card. With
 * `idleFraction` (its CPU share with no cards, measured before), also the
 * CPU per card above idle: what a card adds, not what the hour costs.
 */
export async function cpuMeter(pid: number, idleFraction?: number) {
  const cpuAt = cpuSeconds(pid);
  const wallAt = performance.now();
  return async (cards: number) => {
    const cpu = cpuSeconds(pid) - cpuAt;
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
  const cpuAt = cpuSeconds(pid);
  const wallAt = performance.now();
  await sleep(seconds * 1000);
  const cpu = cpuSeconds(pid) - cpuAt;
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
