/**
 * What every `tableside sim` device needs around its play: the wire it
 * talks on (`--link` or `--listen`), the key it proves (`--key`, its
 * fingerprint on stderr as the device's own display would show it), its
 * start, its log, its summary when it stops, and staying connected after it
 * is done (`--keep-open`). What it plays is its simulator's part
 * (sim-dealer.ts, sim-wheel.ts), looked up through the game's plug-in.
 */

import type { DevicePublicKey } from '../../device-protocol/auth/keys.ts';
import type { LinkStats } from '../../device-protocol/link.ts';
import type { DeviceKey } from '../../hardware/keys/device-key.ts';
import type {
  LinkOptionsInput,
  LinkStateChange,
} from '../../hardware/transports/reconnecting-link.ts';
import type { Transport } from '../../hardware/transports/transport.ts';
import type { TcpServerTransport } from '../../simulators/tcp-server.ts';
import type { Logger } from '../log.ts';

export type Fail = (message: string) => never;

/** A usage error: `tableside sim: MESSAGE` on stderr, exit code 2. */
export function fail(message: string): never {
  process.stderr.write(`tableside sim: ${message}\n`);
  process.exit(2);
}

/** `--NAME TEXT` as a whole number from `min` to `max`; absent stays undefined. */
export function wholeNumber(
  name: string,
  text: string | undefined,
  min: number,
  max: number,
): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    fail(`--${name} ${JSON.stringify(text)}: expected a whole number ${min}-${max}`);
  }
  return Number(text);
}

/** Exactly one of `--link` and `--listen`. */
export function requireOneWire(options: { link?: string; listen?: string }): void {
  if (!options.link === !options.listen) {
    fail('give exactly one of --link URL or --listen [HOST:]PORT');
  }
}

/** The options every `tableside sim` device takes, whatever it plays. */
export interface SimWireOptions {
  link?: string;
  listen?: string;
  key?: string;
  hostKey?: string;
  verbose?: boolean;
  keepOpen?: boolean;
}

/** What the runner drives of a simulated device: the card devices and the wheel alike. */
export interface SimDevice {
  readonly seed: number;
  readonly identity: { readonly model: string; readonly firmwareSha256: string };
  readonly stats: LinkStats;
  on(event: 'link', listener: (change: LinkStateChange) => void): unknown;
  on(event: 'ready', listener: () => void): unknown;
  on(event: 'wrote', listener: (line: string) => void): unknown;
  start(): void;
  stop(): Promise<void>;
}

/** Where a simulated device's wire is, for it to be built on. */
export interface SimWire {
  transport: Transport;
  key: DeviceKey | undefined;
  /** The table's host key it was paired with (`--host-key`): it refuses any other host (protocol 1.7). */
  hostKey: DevicePublicKey | undefined;
  reconnect: LinkOptionsInput;
}

/** One simulator's part of a `tableside sim` session: what it plays and what it tells. */
export interface SimSession {
  readonly device: SimDevice;
  /** The `starting` log line: its fields and its message. */
  readonly starting: { fields: Record<string, unknown>; message: string };
  /** The log line once the host has ACKed the HELLO. */
  readonly readyMessage: string;
  /** Logs what only this device tells (its planned rounds, its commands, its games). */
  watch(log: Logger): void;
  /** Resolves once it has played its session (or, if it can tell, once `stopping()`). */
  played(stopping: () => boolean): Promise<void>;
  /** The fields of the `session complete` log line. */
  complete(): Record<string, unknown>;
  /** The summary printed on stdout when it stops, before the link counters. */
  summary(): Record<string, unknown>;
}

/** A simulator's part, its options checked: who names its key, and how its device is built. */
export interface SimPlay {
  /** Who the key's fingerprint line names: `tableside sim`, `tableside sim wheel`. */
  readonly who: string;
  build(wire: SimWire): Promise<SimSession>;
}

/** Runs one simulated device on its wire until its session is played (or Ctrl-C). */
export async function runSimDevice(options: SimWireOptions, play: SimPlay): Promise<void> {
  const { isSimulatorError } = await import('../../simulators/errors.ts');
  const { logger } = await import('../log.ts');
  const log = logger('sim');
  const { transport, server } = await openSimWire(options, fail);
  const key = await loadSimKey(options.key, play.who, fail);
  const hostKey = await simHostKey(options.hostKey, play.who, fail);
  let session: SimSession;
  try {
    session = await play.build({
      transport,
      key,
      hostKey,
      // A listening simulator waits for its daemon as long as it takes.
      reconnect: server
        ? { openTimeoutMs: 120_000, initialDelayMs: 10, maxDelayMs: 200 }
        : { initialDelayMs: 100, maxDelayMs: 2_000 },
    });
  } catch (error) {
    if (isSimulatorError(error) || (error as Error).name === 'EngineError')
      fail((error as Error).message);
    throw error;
  }
  const device = session.device;
  if (server) {
    await server.listen().catch((error: Error) => fail(error.message));
    log.info(
      { port: server.boundPort },
      `listening: point the daemon at tcp://HOST:${server.boundPort}`,
    );
  }
  log.info(session.starting.fields, session.starting.message);
  session.watch(log);
  device.on('link', (change) =>
    log.info({ state: change.state, reason: change.reason }, `link ${change.state}`),
  );
  device.on('ready', () => log.info(session.readyMessage));
  if (options.verbose) device.on('wrote', (line) => process.stderr.write(`> ${line.trimEnd()}\n`));

  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await device.stop();
    await server?.shutdown();
    const { sent, retransmitted, naksReceived } = device.stats;
    process.stdout.write(
      `${JSON.stringify({ ...session.summary(), sent, retransmitted, naksReceived })}\n`,
    );
    process.exitCode = code;
  };
  process.once('SIGINT', () => void stop(130));
  process.once('SIGTERM', () => void stop(143));
  device.start();
  await session.played(() => stopping);
  if (stopping) return;
  log.info(session.complete(), 'session complete: every frame acknowledged');
  if (options.keepOpen) {
    await untilStopped(() => stopping);
    return;
  }
  await stop(0);
}

/** The simulator's transport, and the server it listens on with `--listen`. */
export async function openSimWire(
  options: { link?: string | undefined; listen?: string | undefined },
  fail: Fail,
): Promise<{ transport: Transport; server: TcpServerTransport | undefined }> {
  requireOneWire(options);
  try {
    if (options.listen !== undefined) {
      const { TcpServerTransport } = await import('../../simulators/tcp-server.ts');
      const match = /^(?:(.+):)?(\d+)$/.exec(options.listen);
      if (!match) fail(`--listen ${JSON.stringify(options.listen)}: expected PORT or HOST:PORT`);
      const server = new TcpServerTransport(Number(match[2]), match[1] ?? '0.0.0.0');
      return { transport: server, server };
    }
    const { openTransport } = await import('../../hardware/transports/url.ts');
    return { transport: openTransport(options.link!), server: undefined };
  } catch (error) {
    fail((error as Error).message);
  }
}

/**
 * The table's host key of `--host-key ed25519:…` (what `tableside device
 * pair` prints), its fingerprint printed on stderr; undefined without one (a
 * bench device, which takes any host's CONFIRM).
 */
export async function simHostKey(
  text: string | undefined,
  who: string,
  fail: Fail,
): Promise<DevicePublicKey | undefined> {
  if (text === undefined) return undefined;
  const { keyFingerprint, parsePublicKey } = await import('../../device-protocol/auth/keys.ts');
  const parsed = parsePublicKey(text);
  if (!parsed.ok) fail(`--host-key: ${parsed.error}`);
  process.stderr.write(`${who}: paired with the host key ${keyFingerprint(parsed.key)}\n`);
  return parsed.key;
}

/**
 * The device key of `--key FILE`, its fingerprint printed on stderr after
 * `who` (what a technician compares when pairing); undefined without a file.
 */
export async function loadSimKey(
  file: string | undefined,
  who: string,
  fail: Fail,
): Promise<DeviceKey | undefined> {
  if (file === undefined) return undefined;
  const { loadKeyFile } = await import('../../hardware/keys/device-key.ts');
  const { deviceKey } = await import('../../hardware/keys/device-key.ts');
  const { keyFingerprint } = await import('../../device-protocol/auth/keys.ts');
  const key = await deviceKey(await loadKeyFile(file).catch((error: Error) => fail(error.message)));
  process.stderr.write(`${who}: device key fingerprint ${keyFingerprint(key.publicKey)}\n`);
  return key;
}

/** With `--keep-open`: the simulator stays connected (answering PINGs) until it is stopped. */
export function untilStopped(stopping: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = setInterval(() => {
      if (stopping()) {
        clearInterval(check);
        resolve();
      }
    }, 200);
  });
}
