/**
 * An emulated PN532 in HSU mode on one end of a socat pty pair, the other end
 * left for tableside to open as `pn532:PATH` — the real serialport path.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SerialPort } from 'serialport';
import { afterEach } from 'vitest';
import { DeviceDriver, type Observation } from '../../../firmware-host/drivers/driver.ts';
import type { DomainEvent } from '../../../firmware-host/table/events.ts';
import type { DeckRegistry } from '../../../hardware/readers/deck-registry.ts';
import { openTransport } from '../../../hardware/transports/url.ts';
import { Pn532Emulator } from '../../emulators/pn532.ts';
import { until as sharedUntil } from '../../helpers/until.ts';
import { PtyPair, socatMissing } from '../devices/pty.ts';

export { socatMissing };

export interface Pn532OnPty {
  emulator: Pn532Emulator;
  /** The pty tableside opens (`pn532:${path}`). */
  path: string;
  /** Writes bytes onto the line towards tableside, as line noise would. */
  inject(bytes: Uint8Array): void;
  /** Pulls the USB-UART adapter: socat goes, both ptys vanish. */
  unplug(): Promise<void>;
  /** Plugs it back in: the same path again, the same PN532 on it. */
  plugBack(): Promise<void>;
  stop(): Promise<void>;
}

export async function pn532OnPty(emulator = new Pn532Emulator()): Promise<Pn532OnPty> {
  const directory = mkdtempSync(join(tmpdir(), 'tableside-pn532-pty-'));
  let pty: PtyPair | undefined;
  let port: SerialPort | undefined;
  const plug = async () => {
    pty = new PtyPair(directory);
    await pty.start();
    const opened = new SerialPort({ path: pty.b, baudRate: 115_200, autoOpen: false });
    await new Promise<void>((resolve, reject) =>
      opened.open((error) => (error ? reject(error) : resolve())),
    );
    opened.on('error', () => undefined);
    port = opened;
    const input = emulator.connectHsu((bytes) => opened.write(Buffer.from(bytes)));
    opened.on('data', (chunk: Buffer) => input(chunk));
  };
  const unplug = async () => {
    emulator.disconnectHsu();
    const open = port;
    port = undefined;
    await new Promise<void>((resolve) => (open?.isOpen ? open.close(() => resolve()) : resolve()));
    await pty?.kill();
    pty = undefined;
  };
  await plug();
  return {
    emulator,
    path: join(directory, 'host'),
    unplug,
    plugBack: plug,
    inject(bytes) {
      port?.write(Buffer.from(bytes));
    },
    async stop() {
      await unplug();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** The host's reader driver on `pn532:PATH`, collecting what it reports. */
export function readerDriverOn(path: string, registry: DeckRegistry) {
  const driver = new DeviceDriver({
    name: 'reader',
    kind: 'reader',
    transport: openTransport(`pn532:${path}`),
    registry,
    timing: { heartbeatMs: 200, offlineAfterMs: 2_000, silenceTimeoutMs: 3_000 },
    reconnect: { initialDelayMs: 20, maxDelayMs: 200 },
  });
  const cards: string[] = [];
  const observations: Observation[] = [];
  const alarms: Extract<DomainEvent, { type: 'alarm' }>[] = [];
  driver.on('record', (observation) => {
    observations.push(observation);
    const record = observation.record;
    if (record.t === 'card') cards.push(`${record.card}/${record.back}/${record.face}`);
    observation.ack();
  });
  driver.on('alarm', (alarm) => alarms.push(alarm));
  driver.start();
  return { driver, cards, alarms, observations };
}

/**
 * For the tests of the describe block that calls this: `open()` puts an
 * emulated PN532 on a fresh pty and the host's reader driver on its other
 * end; both are stopped after each test (the driver first).
 */
export function readerOnPtyPerTest(
  registry: DeckRegistry,
): () => Promise<{ pty: Pn532OnPty; reader: ReturnType<typeof readerDriverOn> }> {
  const stops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
  });
  return async () => {
    const pty = await pn532OnPty();
    stops.push(() => pty.stop());
    const reader = readerDriverOn(pty.path, registry);
    stops.push(() => reader.driver.stop());
    return { pty, reader };
  };
}

/** The suite's one wait (test/helpers/until.ts), its timeout before what it waits for. */
export function until(check: () => boolean, ms = 5_000, what = 'the condition') {
  return sharedUntil(check, what, ms);
}
