/**
 * The child processes of a fleet run, and what /proc says about them:
 * mosquitto brokers (plain, or an edge bridging to a central one), socat pty
 * pairs (a shoe's cable), the daemons. Every child is spawned through a
 * ProcessGroup, which ends them all (SIGTERM, then SIGKILL) on the way out,
 * also when the run failed or the bench itself exits.
 *
 * Nothing here imports vitest, so the bench (tsx) and the tests share it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mosquittoPath } from '../helpers/broker.ts';
import { freePort, waitForPort } from '../helpers/ports.ts';
import { ptyPairArguments, SOCAT, untilSocatReady } from '../helpers/socat.ts';
import {
  cpuSeconds as cpuSecondsOf,
  endChild,
  residentMegabytes as residentMegabytesOf,
  running,
} from './built-daemon.ts';

export interface Spawned {
  readonly name: string;
  readonly child: ChildProcess;
  /** The last few kB of its stderr, for error messages. */
  output(): string;
}

/**
 * Ctrl-C or a kill of the bench must still end its children and remove its
 * folders: the signal becomes an exit, which runs the groups' exit hooks.
 * Only where nobody else handles the signal (vitest does, in its workers).
 */
let signalsHandled = false;
function exitOnSignals(): void {
  if (signalsHandled) return;
  signalsHandled = true;
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    if (process.listenerCount(signal) === 0) process.once(signal, () => process.exit(code));
  }
}

export class ProcessGroup {
  private readonly children: Spawned[] = [];
  private readonly folders: string[] = [];
  private readonly onExit = () => {
    for (const { child } of this.children) if (running(child)) child.kill('SIGKILL');
    for (const folder of this.folders) rmSync(folder, { recursive: true, force: true });
  };

  constructor() {
    process.once('exit', this.onExit);
    exitOnSignals();
  }

  /** A folder removed if the process exits before `close` (which leaves it to the caller). */
  removeOnExit(folder: string): void {
    this.folders.push(folder);
  }

  spawn(name: string, command: string, args: readonly string[], cwd: string): Spawned {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, TABLESIDE_LOG_LEVEL: 'warn', NODE_OPTIONS: '' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let output = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
    });
    // A child that fails to start must not crash the bench: its exit says why.
    child.on('error', (error) => {
      output += `\n${error.message}`;
    });
    const spawned = { name, child, output: () => output.trim() };
    this.children.push(spawned);
    return spawned;
  }

  pids(): number[] {
    return this.children.flatMap(({ child }) => (child.pid === undefined ? [] : [child.pid]));
  }

  /** Ends the given children (default all): SIGTERM, then SIGKILL after `graceMs`. */
  async stop(which: readonly Spawned[] = this.children, graceMs = 5000): Promise<void> {
    await Promise.all(which.map(({ child }) => endChild(child, graceMs)));
  }

  async close(): Promise<void> {
    await this.stop();
    process.removeListener('exit', this.onExit);
  }
}

/** A linked pty pair (`socat pty,raw,echo=0,link=A pty,raw,echo=0,link=B`): the daemon opens a, the shoe b. */
export async function startPtyPair(
  group: ProcessGroup,
  dir: string,
  name: string,
): Promise<{ a: string; b: string; process: Spawned }> {
  if (!SOCAT) throw new Error('socat is not installed (apt-get install socat)');
  const a = join(dir, `${name}-A`);
  const b = join(dir, `${name}-B`);
  // Spawned in the group, which ends it even when the run fails.
  const spawned = group.spawn(`socat ${name}`, SOCAT, ptyPairArguments(a, b), dir);
  await untilSocatReady(spawned.child, spawned.output, 10_000);
  return { a, b, process: spawned };
}

export interface Broker {
  readonly name: string;
  readonly port: number;
  readonly url: string;
  readonly process: Spawned;
}

export interface BridgeTo {
  /** The central broker's port (on 127.0.0.1). */
  port: number;
  /** mosquitto `topic` lines after the keyword, e.g. `bench/# out 1`. */
  topics: readonly string[];
}

/**
 * A mosquitto on a free port of 127.0.0.1, anonymous clients allowed, no
 * persistence (a run's sessions live as long as its brokers); with
 * `bridgeTo`, an edge broker that bridges to the central one with a
 * persistent bridge session (cleansession false), as a floor deploys it.
 */
export async function startMosquitto(
  group: ProcessGroup,
  dir: string,
  name: string,
  bridgeTo?: BridgeTo,
): Promise<Broker> {
  const binary = mosquittoPath();
  if (!binary) throw new Error('mosquitto is not installed (apt-get install mosquitto)');
  const port = await freePort();
  const lines = [
    'persistence false',
    'log_dest stderr',
    'log_type error',
    'log_type warning',
    'per_listener_settings false',
    'allow_anonymous true',
    `listener ${port} 127.0.0.1`,
  ];
  if (bridgeTo) {
    lines.push(
      `connection ${name}`,
      `address 127.0.0.1:${bridgeTo.port}`,
      `remote_clientid fleet-${name}`,
      'cleansession false',
      'bridge_protocol_version mqttv311',
      'try_private true',
      'restart_timeout 1',
      ...bridgeTo.topics.map((topic) => `topic ${topic}`),
    );
  }
  const config = join(dir, `${name}.conf`);
  writeFileSync(config, `${lines.join('\n')}\n`);
  // mosquitto started as root drops to its own user, which must read its config.
  chmodSync(dir, 0o755);
  chmodSync(config, 0o644);
  const spawned = group.spawn(`mosquitto ${name}`, binary, ['-c', config], dir);
  const exited = new Promise<never>((_, reject) =>
    spawned.child.once('exit', (code) =>
      reject(new Error(`mosquitto ${name} exited with ${code}: ${spawned.output()}`)),
    ),
  );
  exited.catch(() => undefined);
  await Promise.race([waitForPort(port), exited]);
  return { name, port, url: `mqtt://127.0.0.1:${port}`, process: spawned };
}

/** CPU seconds of a process, all its threads (0 once it is gone: a run sums over children that may have ended). */
export function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    return cpuSecondsOf(pid);
  } catch {
    return 0;
  }
}

/** VmRSS of a process, in MB (0 once it is gone). */
export function residentMegabytes(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    return residentMegabytesOf(pid) || 0;
  } catch {
    return 0;
  }
}
