/**
 * A real MQTT broker for tests: mosquitto started on a free port with its
 * own throwaway config (optionally a password file and a TLS listener),
 * which a test can stop and start again on the same port. Where mosquitto
 * is not installed, aedes in-process stands in (plain listener only), and
 * the reason is printed; under TABLESIDE_REQUIRE_TOOLS=1 (CI) that fails instead.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitForPort } from './ports.ts';
import { hasCommand, missingTool, mosquittoPath } from './tools.ts';

/**
 * Brokers started and not yet closed, by their folder. A test that fails
 * before its own `close()` (or forgets it) would leave a mosquitto running
 * and its folder behind: the test process ends them on its way out.
 */
const unclosed = new Map<string, () => ChildProcess | undefined>();
process.once('exit', () => {
  for (const [dir, child] of unclosed) {
    child()?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

export { hasCommand, mosquittoPath };

export interface TestBrokerOptions {
  /** A mosquitto password file: anonymous clients are refused. */
  passwordFile?: string;
  /** A mosquitto ACL file (acl_file): who may publish and read what. */
  aclFile?: string;
  /** More mosquitto.conf lines before the listener (e.g. a plugin and its options). */
  extraConfig?: readonly string[];
  /**
   * Keep sessions, queued QoS 1 messages and retained messages across a
   * stop/start (mosquitto only), as a production broker does.
   */
  persistence?: boolean;
  /** A TLS listener besides the plain one. */
  tls?: { ca: string; cert: string; key: string; requireCertificate?: boolean };
}

export interface TestBroker {
  readonly kind: 'mosquitto' | 'aedes';
  readonly port: number;
  readonly url: string;
  readonly tlsPort: number | undefined;
  readonly tlsUrl: string | undefined;
  /** Stops the broker (retained messages are lost unless `persistence`). */
  stop(): Promise<void>;
  /** Starts it again on the same port(s). */
  start(): Promise<void>;
  close(): Promise<void>;
  /** mosquitto only: SIGHUP, which rereads the password and ACL files, keeping every connection. */
  reload?(): void;
}

export async function startTestBroker(options: TestBrokerOptions = {}): Promise<TestBroker> {
  const mosquitto = mosquittoPath();
  if (mosquitto) return startMosquitto(mosquitto, options);
  if (options.passwordFile || options.aclFile || options.extraConfig || options.tls) {
    throw new Error('mosquitto is not installed: password files and TLS need it');
  }
  // Under TABLESIDE_REQUIRE_TOOLS=1 this throws: CI runs every broker test on mosquitto.
  missingTool(
    false,
    'mosquitto is not installed: aedes in-process stands in for it',
    'test broker',
  );
  return startAedes();
}

/** The file in a broker's folder naming the test that started it (read by temp-root.ts). */
export const STARTED_BY = 'started-by';

/** The first frame of a stack outside this file: the test (or bench) that asked for a broker. */
function startedBy(stack: string | undefined): string {
  const frames = (stack ?? '').split('\n').slice(1);
  const caller = frames.find((frame) => !frame.includes('helpers/broker.ts'));
  return `${caller?.trim().replace(/^at\s+/, '') ?? 'unknown'}\n`;
}

async function startMosquitto(binary: string, options: TestBrokerOptions): Promise<TestBroker> {
  const dir = mkdtempSync(join(tmpdir(), 'tableside-mosquitto-'));
  // Who started it: the temp root's teardown names it if this folder is left behind.
  writeFileSync(join(dir, STARTED_BY), startedBy(new Error().stack));
  // mosquitto started as root drops to its own user, which must read these
  // files and, with persistence, write its database into this folder.
  chmodSync(dir, options.persistence ? 0o777 : 0o755);
  const port = await freePort();
  const tlsPort = options.tls ? await freePort() : undefined;
  const lines = [
    ...(options.persistence
      ? ['persistence true', `persistence_location ${dir}/`]
      : ['persistence false']),
    'log_dest stderr',
    'log_type error',
    'log_type warning',
    'per_listener_settings false',
    `allow_anonymous ${options.passwordFile ? 'false' : 'true'}`,
    ...(options.passwordFile ? [`password_file ${options.passwordFile}`] : []),
    ...(options.aclFile ? [`acl_file ${options.aclFile}`] : []),
    ...(options.extraConfig ?? []),
    `listener ${port} 127.0.0.1`,
  ];
  if (options.tls && tlsPort) {
    lines.push(
      `listener ${tlsPort} 127.0.0.1`,
      `cafile ${options.tls.ca}`,
      `certfile ${options.tls.cert}`,
      `keyfile ${options.tls.key}`,
      `require_certificate ${options.tls.requireCertificate ? 'true' : 'false'}`,
    );
  }
  const config = join(dir, 'mosquitto.conf');
  writeFileSync(config, `${lines.join('\n')}\n`);
  chmodSync(config, 0o644);

  let child: ChildProcess | undefined;
  let output = '';
  const start = async () => {
    if (child) return;
    output = '';
    const process = spawn(binary, ['-c', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    child = process;
    process.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<never>((_, reject) =>
      process.once('exit', (code) =>
        reject(new Error(`mosquitto exited with ${code}: ${output.trim()}`)),
      ),
    );
    exited.catch(() => undefined);
    try {
      await Promise.race([
        Promise.all([waitForPort(port), ...(tlsPort ? [waitForPort(tlsPort)] : [])]),
        exited,
      ]);
    } catch (error) {
      child = undefined;
      process.kill('SIGKILL');
      throw error;
    }
  };
  const stop = async () => {
    const running = child;
    if (!running) return;
    child = undefined;
    if (running.exitCode !== null || running.signalCode !== null) return;
    // SIGTERM: mosquitto saves its persistence database on the way out.
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGTERM');
    });
  };
  unclosed.set(dir, () => child);
  try {
    await start();
  } catch (error) {
    unclosed.delete(dir);
    // A broker that never came up is not the caller's to close: its folder goes here.
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    kind: 'mosquitto',
    port,
    url: `mqtt://127.0.0.1:${port}`,
    tlsPort,
    tlsUrl: tlsPort ? `mqtts://127.0.0.1:${tlsPort}` : undefined,
    start,
    stop,
    close: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
      unclosed.delete(dir);
    },
    reload: () => {
      child?.kill('SIGHUP');
    },
  };
}

async function startAedes(): Promise<TestBroker> {
  const { startEmbeddedBroker } = await import('../../firmware-host/mqtt/broker.ts');
  const port = await freePort();
  let broker: Awaited<ReturnType<typeof startEmbeddedBroker>> | undefined;
  const start = async () => {
    broker ??= await startEmbeddedBroker({ port });
  };
  const stop = async () => {
    await broker?.close();
    broker = undefined;
  };
  await start();
  return {
    kind: 'aedes',
    port,
    url: `mqtt://127.0.0.1:${port}`,
    tlsPort: undefined,
    tlsUrl: undefined,
    start,
    stop,
    close: stop,
  };
}
