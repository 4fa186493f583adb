/**
 * The device check: opens one configured device's transport, waits for its
 * HELLO, checks the firmware against the allow-list, measures the PING round
 * trip and reads the driver's line-error counters after a few seconds.
 *
 * It never ACKs a card: a card dealt while diag runs stays unacknowledged,
 * so the device keeps it and gives it to the daemon once that runs again.
 * The PING round trip is measured on a tap of the transport (the driver's
 * own heartbeat PINGs carry a token that the PONG echoes).
 */
import { EventEmitter } from 'node:events';
import { performance } from 'node:perf_hooks';
import { type DevicePublicKey, parsePublicKey } from '../../device-protocol/auth/keys.ts';
import type { Transport, TransportEvents } from '../../hardware/transports/transport.ts';
import { type DeviceConfig, pairingPolicyOf } from '../config/schema.ts';
import type { DriverCounters, DriverStatus } from '../drivers/driver.ts';
import { type ProfileRegistry, profileFor } from '../drivers/profiles/registry.ts';
import { commodityReaderOpenAdvice, commodityReaderOutcome } from './commodity-reader-check.ts';
import { keyOutcome } from './key-check.ts';
import type { CheckOutcome } from './report.ts';

/** A device's config entry of any kind its profiles know (a vendor's too). */
export type CheckedDevice = Omit<DeviceConfig, 'kind'> & { readonly kind: string };

export interface DeviceCheckOptions {
  /** The device kinds' profiles; absent: the kinds tableside ships (a vendor's kind is one more). */
  profiles?: ProfileRegistry;
  /** How long the driver watches the line for errors. Default 3000 ms. */
  observeMs?: number;
  /** How long to wait for HELLO. Default 5000 ms. */
  helloTimeoutMs?: number;
  /** Builds the transport (tests: an in-memory wire). Default openTransport(url). */
  transport?: Transport;
  /** The daemon's serial/host name for the host HELLO. */
  table?: string;
}

/** Counters that say the line is unhealthy when they grow. */
const LINE_ERROR_COUNTERS = [
  'crcErrors',
  'badLines',
  'naksSent',
  'naksReceived',
  'retransmits',
  'reconnects',
  'invalid',
] as const satisfies readonly (keyof DriverCounters)[];

/** The device's identity from its HELLO. */
interface Identity {
  model: string;
  firmwareSha256: string;
  firmware: string;
  serial: string;
}

/** What the driver saw while it watched the line. */
interface Watched {
  identity: Identity | undefined;
  status: DriverStatus;
  /** PING round trips, in milliseconds. */
  rtts: number[];
}

/** A device the daemon does not open over a line (its own firmware, a simulator): their checks. */
async function notOverALine(
  prefix: string,
  device: CheckedDevice,
  profiles: ProfileRegistry | undefined,
): Promise<CheckOutcome[] | undefined> {
  if (device.transport === 'firmware') {
    // The daemon runs this device's firmware itself: check the board and its parts.
    const { checkFirmwareDevice } = await import('../../hardware/firmware/check.ts');
    const parts = profileFor(device.kind, profiles).hostedFirmware?.parts ?? [];
    return checkFirmwareDevice(prefix, { ...device, parts });
  }
  if (device.transport === 'simulate') {
    return [
      {
        name: prefix,
        status: 'skip',
        detail: 'transport "simulate": a built-in simulator, nothing to open',
        advice: 'tableside diag --simulate exercises the simulators end to end',
      },
    ];
  }
  return undefined;
}

/** The transport, opened once and closed again; or the failure to report. */
async function openOnce(
  name: string,
  prefix: string,
  device: CheckedDevice,
  options: DeviceCheckOptions,
): Promise<Transport | CheckOutcome> {
  let transport: Transport;
  try {
    if (options.transport) {
      transport = options.transport;
    } else {
      const { openTransport } = await import('../../hardware/transports/url.ts');
      transport = openTransport(device.transport);
    }
  } catch (error) {
    return {
      name: `${prefix}: open`,
      status: 'fail',
      detail: `bad transport URL ${JSON.stringify(device.transport)}: ${messageOf(error)}`,
      advice: `fix devices.${name}.transport: ${TRANSPORT_ADVICE}`,
    };
  }
  // A first open on its own, so the OS's reason (no such file, busy, refused) is reported as is.
  try {
    await withTimeout(transport.open(), 5000, 'open did not finish within 5 s');
    await transport.close();
  } catch (error) {
    // The open failure is the one reported; the close only releases what it left.
    await transport.close().catch(() => undefined);
    return {
      name: `${prefix}: open`,
      status: 'fail',
      detail: `cannot open ${device.transport}: ${messageOf(error)}`,
      advice:
        commodityReaderOpenAdvice(device.transport, messageOf(error)) ??
        openAdvice(device.transport, messageOf(error)),
    };
  }
  return transport;
}

/** Runs a driver on the line for `observeMs`: the HELLO, its status and the PING round trips. */
async function watchLine(
  name: string,
  device: CheckedDevice,
  transport: Transport,
  options: DeviceCheckOptions,
  observeMs: number,
  helloTimeoutMs: number,
): Promise<Watched> {
  const { DeviceDriver } = await import('../drivers/driver.ts');
  const tap = new TappedTransport(transport);
  const allowedFirmware =
    device.firmware.length > 0 && device.model ? { [device.model]: device.firmware } : undefined;
  const driver = new DeviceDriver({
    name,
    profile: profileFor(device.kind, options.profiles),
    transport: tap,
    hostSerial: options.table ?? 'diag',
    timing: { heartbeatMs: 250, offlineAfterMs: 2000, silenceTimeoutMs: 0 },
    reconnect: { initialDelayMs: 100, maxDelayMs: 1000 },
    ...(allowedFirmware ? { allowedFirmware } : {}),
    ...pairedKeyOf(device),
  });
  // Cards are left unacknowledged on purpose (see the module comment).
  driver.on('record', () => undefined);
  driver.on('alarm', () => undefined);
  const hello = new Promise<Identity>((resolve) =>
    driver.once('hello', (identity) => resolve(identity)),
  );
  // Since 1.7 a HELLO is held until a PROOF of the paired key covers it: a device that cannot
  // give one is quarantined and never says a HELLO the driver passes on. No use waiting.
  // (A firmware quarantine comes just before its HELLO: the next turn lets that HELLO win.)
  const quarantined = new Promise<undefined>((resolve) =>
    driver.once('quarantine', () => setImmediate(() => resolve(undefined))),
  );
  const started = performance.now();
  driver.start();
  const identity = await Promise.race([
    hello,
    quarantined,
    sleep(helloTimeoutMs).then(() => undefined),
  ]);
  const remaining = observeMs - (performance.now() - started);
  if (remaining > 0) await sleep(remaining);
  const status = driver.status();
  await driver.stop();
  return { identity, status, rtts: tap.roundTrips() };
}

/** The HELLO, and with it the firmware, the key and a commodity reader's identity. */
function helloOutcomes(
  prefix: string,
  name: string,
  device: CheckedDevice,
  watched: Watched,
  helloTimeoutMs: number,
): CheckOutcome[] {
  const { identity, status, rtts } = watched;
  if (!identity && status.auth.state !== 'none') {
    // A HELLO came, but no PROOF covered it (PROTOCOL.md § 5.2): the key row says why.
    return [
      {
        name: `${prefix}: HELLO`,
        status: 'fail',
        detail: 'a HELLO arrived, but no PROOF covered it, so the table did not take it',
        advice: 'see the key row: the table takes nothing from this device until it proves its key',
        data: { auth: status.auth },
      },
      keyOutcome(prefix, name, status.auth, pairingPolicyOf(device)),
    ];
  }
  if (!identity) {
    return [
      {
        name: `${prefix}: HELLO`,
        status: rtts.length > 0 ? 'warn' : 'fail',
        detail:
          rtts.length > 0
            ? `no HELLO within ${helloTimeoutMs} ms, although the device answers PING`
            : `no HELLO and no answer to PING within ${helloTimeoutMs} ms (${status.counters.framesReceived} valid frames, ${status.counters.crcErrors + status.counters.badLines} bad lines)`,
        advice:
          rtts.length > 0
            ? 'a device says HELLO when its line opens or it resets: power-cycle it, or deal a card (the host NAKs it and the device says HELLO again)'
            : status.counters.crcErrors + status.counters.badLines > 0
              ? 'bytes arrive but are garbled: check the baud rate (serial:PATH?baud=N) and the cable'
              : 'nothing arrives: check that the device is powered, the cable, and that this is the right port (`tableside devices` lists them)',
        data: { counters: status.counters },
      },
    ];
  }
  const reader = commodityReaderOutcome(prefix, device.transport, identity);
  return [
    {
      name: `${prefix}: HELLO`,
      status: 'pass',
      detail: `${identity.model} serial ${identity.serial}, firmware ${identity.firmware}`,
      data: { ...identity },
    },
    firmwareOutcome(prefix, name, device, identity, status.quarantined),
    keyOutcome(prefix, name, status.auth, pairingPolicyOf(device)),
    ...(reader ? [reader] : []),
  ];
}

/** The PING round trip, when the device answered any. */
function pingOutcome(prefix: string, watched: Watched): CheckOutcome | undefined {
  const { rtts, identity } = watched;
  if (rtts.length > 0) {
    const sorted = [...rtts].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    const worst = sorted[sorted.length - 1]!;
    return {
      name: `${prefix}: ping`,
      status: median > 100 ? 'warn' : 'pass',
      detail: `round trip ${median.toFixed(1)} ms median, ${worst.toFixed(1)} ms worst over ${rtts.length} PINGs`,
      ...(median > 100
        ? { advice: 'a slow line: check for a USB hub or serial-over-network adapter in the way' }
        : {}),
      data: { medianMs: round(median), maxMs: round(worst), pings: rtts.length },
    };
  }
  if (!identity) return undefined;
  return {
    name: `${prefix}: ping`,
    status: 'fail',
    detail: 'the device said HELLO but answered no PING',
    advice: 'the device firmware must answer PING with PONG (PROTOCOL.md § 3.10); update it',
  };
}

/** The driver's line-error counters, and gaps in the device's event order. */
function lineOutcomes(prefix: string, watched: Watched, observeMs: number): CheckOutcome[] {
  const { counters } = watched.status;
  const errors = LINE_ERROR_COUNTERS.filter((key) => counters[key] > 0);
  const results: CheckOutcome[] = [
    {
      name: `${prefix}: line errors`,
      status: errors.length === 0 ? 'pass' : 'warn',
      detail:
        errors.length === 0
          ? `none in ${(observeMs / 1000).toFixed(1)} s (${counters.framesReceived} frames)`
          : `${errors.map((key) => `${key} ${counters[key]}`).join(', ')} in ${(observeMs / 1000).toFixed(1)} s`,
      ...(errors.length > 0
        ? {
            advice:
              'a noisy or unreliable line: reseat the cable, avoid long unshielded runs, check the baud rate',
          }
        : {}),
      data: { counters },
    },
  ];
  if (counters.orderGaps > 0) {
    results.push({
      name: `${prefix}: event order`,
      status: 'fail',
      detail: `${counters.orderGaps} gap(s) in the device's seqs the host stopped waiting for`,
      advice:
        'the firmware breaks the in-order window of protocol 1.2 (PROTOCOL.md § 3.8): it gave a frame up or skipped seqs. Update the firmware, or have it announce 1.1 until it is fixed',
      data: { orderGaps: counters.orderGaps },
    });
  }
  return results;
}

export async function checkDevice(
  name: string,
  device: CheckedDevice,
  options: DeviceCheckOptions = {},
): Promise<CheckOutcome[]> {
  const prefix = `device ${name}`;
  const observeMs = options.observeMs ?? 3000;
  const helloTimeoutMs = Math.max(options.helloTimeoutMs ?? 5000, observeMs);
  const elsewhere = await notOverALine(prefix, device, options.profiles);
  if (elsewhere) return elsewhere;
  const transport = await openOnce(name, prefix, device, options);
  if (!('open' in transport)) return [transport];
  const watched = await watchLine(name, device, transport, options, observeMs, helloTimeoutMs);
  const ping = pingOutcome(prefix, watched);
  return [
    { name: `${prefix}: open`, status: 'pass', detail: `${device.transport} opened` },
    ...helloOutcomes(prefix, name, device, watched, helloTimeoutMs),
    ...(ping ? [ping] : []),
    ...lineOutcomes(prefix, watched, observeMs),
  ];
}

function pairedKeyOf(device: CheckedDevice): { pairedKey?: DevicePublicKey } {
  const parsed = device.key === undefined ? undefined : parsePublicKey(device.key);
  return parsed?.ok ? { pairedKey: parsed.key } : {};
}

function firmwareOutcome(
  prefix: string,
  name: string,
  device: CheckedDevice,
  identity: { model: string; firmwareSha256: string },
  quarantined: string | undefined,
): CheckOutcome {
  const where = `devices.${name}`;
  if (device.model && device.model !== identity.model) {
    return {
      name: `${prefix}: firmware`,
      status: 'fail',
      detail: `the device is a ${identity.model}; the config expects ${device.model}`,
      advice: `check that this is the right device, or set ${where}.model to ${identity.model}`,
    };
  }
  if (quarantined) {
    return {
      name: `${prefix}: firmware`,
      status: 'fail',
      detail: quarantined,
      advice: `the daemon would quarantine this device; if the firmware is approved, add ${identity.firmwareSha256} to ${where}.firmware`,
    };
  }
  if (device.firmware.length === 0) {
    return {
      name: `${prefix}: firmware`,
      status: 'warn',
      detail: `any firmware accepted (${where}.firmware is empty); this one is ${identity.firmwareSha256}`,
      advice: `on a live table, list the approved firmware hashes in ${where}.firmware`,
    };
  }
  const listed = device.firmware.includes(identity.firmwareSha256.toLowerCase());
  if (!listed) {
    return {
      name: `${prefix}: firmware`,
      status: 'fail',
      detail: `firmware ${identity.firmwareSha256} is not in ${where}.firmware`,
      advice: `the daemon would quarantine this device; if the firmware is approved, add the hash to ${where}.firmware`,
    };
  }
  return {
    name: `${prefix}: firmware`,
    status: 'pass',
    detail: `firmware ${identity.firmwareSha256.slice(0, 12)}… is on the allow-list`,
  };
}

const TRANSPORT_ADVICE =
  'a path such as /dev/ttyUSB0, serial:/dev/ttyUSB0?baud=115200, tcp://host:port or hid://vid:pid';

function openAdvice(url: string, reason: string): string {
  if (/ENOENT|no such file|cannot find|not found/i.test(reason)) {
    return `nothing at ${url}: check the cable and power, the udev rule (hardware/deploy/99-tableside.rules) and \`tableside devices\` for the right path`;
  }
  if (/EACCES|permission/i.test(reason)) {
    return 'permission denied: add the daemon user to the dialout group (serial) or install the udev rule (hardware/deploy/)';
  }
  if (/EBUSY|lock|busy|temporarily unavailable/i.test(reason)) {
    return 'the port is held by another program, probably the daemon: stop it first (systemctl stop tableside), diag needs the device to itself';
  }
  if (/ECONNREFUSED|refused/i.test(reason)) {
    return 'nothing listens at that address: check the serial-to-Ethernet adapter (ser2net) and its port';
  }
  if (/ETIMEDOUT|EHOSTUNREACH|timed out|did not finish/i.test(reason)) {
    return 'no answer from that host: check the network and the adapter address';
  }
  if (/node-hid|library/i.test(reason)) {
    return 'the HID library is not available on this system: install node-hid (optional dependency) and libusb/hidraw';
  }
  return 'check the device, its cable and the transport URL';
}

/**
 * A transport wrapper that watches PING/PONG tokens go by: the round trip
 * of each PING is the time from writing it to reading its PONG.
 */
class TappedTransport extends EventEmitter<TransportEvents> implements Transport {
  private readonly sentAt = new Map<string, number>();
  private readonly rtts: number[] = [];
  private inbound = '';

  constructor(private readonly inner: Transport) {
    super();
    inner.on('data', (chunk) => {
      this.watchInbound(chunk);
      this.emit('data', chunk);
    });
    inner.on('close', (info) => this.emit('close', info));
  }

  get kind() {
    return this.inner.kind;
  }

  get url() {
    return this.inner.url;
  }

  get isOpen() {
    return this.inner.isOpen;
  }

  open(): Promise<void> {
    return this.inner.open();
  }

  write(bytes: Uint8Array): Promise<void> {
    const text = Buffer.from(bytes).toString('latin1');
    for (const match of text.matchAll(/^\$HO,\d+,PING,([A-Za-z0-9]+)\*/gm)) {
      this.sentAt.set(match[1]!, performance.now());
    }
    return this.inner.write(bytes);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  roundTrips(): number[] {
    return [...this.rtts];
  }

  private watchInbound(chunk: Buffer): void {
    this.inbound = (this.inbound + chunk.toString('latin1')).slice(-1024);
    const lines = this.inbound.split('\n');
    this.inbound = lines.pop() ?? '';
    const now = performance.now();
    for (const line of lines) {
      const match = /^\$[A-Z]{2},\d+,PONG,([A-Za-z0-9]+)\*/.exec(line.trim());
      if (!match) continue;
      const sent = this.sentAt.get(match[1]!);
      if (sent === undefined) continue;
      this.sentAt.delete(match[1]!);
      this.rtts.push(now - sent);
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

/** Unref'd: a timeout raced against an answer must not keep the process alive after it. */
function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => {
    setTimeout(resolve, ms).unref();
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(message)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
