/**
 * tableside's own shoe firmware proves a key (protocol 1.4), so a production
 * table pairs it instead of dealing it with `unpaired: allow`. On the
 * emulated StandardFirmata board (PN532 and TCS34725 behind it, a socat pty
 * as its USB cable):
 *
 * - the daemon hosts the firmware (`transport: firmware`) with the config's
 *   `keyFile` and paired `key`: it deals, authenticated, with no alarm;
 * - on the same paired key, the firmware run without the key on the table's
 *   line (a rogue board) deals nothing and is alarmed; the genuine firmware
 *   given the key file on that line deals.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatPublicKey, keyFingerprint } from '../../../device-protocol/auth/keys.ts';
import { resolveConfig } from '../../../firmware-host/config/loader.ts';
import { TableDaemon } from '../../../firmware-host/daemon/table-daemon.ts';
import type { JournalRecord } from '../../../firmware-host/journal/record.ts';
import { SHOE_PINS } from '../../../hardware/firmware/shoe.ts';
import { createKeyFile, deviceKey } from '../../../hardware/keys/device-key.ts';
import { SerialTransport } from '../../../hardware/transports/serial.ts';
import { until } from '../../e2e/helpers/environment.ts';
import { SURFACES } from '../../emulators/tcs34725.ts';
import { freePort } from '../../helpers/ports.ts';
import { tempDir } from '../../helpers/temp.ts';
import { PtyPair, socatMissing } from '../devices/pty.ts';
import { registryDocumentOf, registryOf, ShoeRig, sleep, tagOf } from './shoe-rig.ts';

const skip = socatMissing();

interface Table {
  daemon: TableDaemon;
  journaled: JournalRecord[];
}

describe.skipIf(skip)('the shoe firmware with a key file', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });

  async function startTable(rig: ShoeRig, shoe: Record<string, unknown>): Promise<Table> {
    const registry = join(rig.directory, 'decks.json');
    writeFileSync(registry, JSON.stringify(registryDocumentOf(['red'])));
    const { config } = resolveConfig(
      {
        table: 'fw-keyed',
        ruleset: 'tdc-baccarat-no-commission',
        devices: { shoe: { kind: 'shoe', ...shoe } },
        mqtt: { url: 'embedded', port: await freePort() },
        journal: { dir: join(rig.directory, 'journal'), rotateDaily: false },
        session: { autoRound: true },
      },
      { env: {} },
    );
    const daemon = new TableDaemon({ config, simulate: false });
    const journaled: JournalRecord[] = [];
    daemon.on('journaled', (records) => journaled.push(...records));
    await daemon.start();
    cleanups.push(() => daemon.stop());
    return { daemon, journaled };
  }

  const cardsOf = (table: Table) =>
    table.journaled.flatMap((record) =>
      record.kind === 'input' && record.data.t === 'card' ? [record.data.card] : [],
    );
  const alarmsOf = (table: Table) =>
    table.journaled.flatMap((record) =>
      record.kind === 'event' && (record.data as { type: string }).type === 'alarm'
        ? [record.data as { kind: string; message: string }]
        : [],
    );

  /** The dealer loads the shoe (lid open, closed) and deals cards 0..count-1 of deck 1. */
  async function dealCards(rig: ShoeRig, count: number): Promise<void> {
    rig.board.setInput(3, true);
    // fixed wait: emulated timing: the dealer holds the lid open for 50 ms
    await sleep(50);
    rig.board.setInput(3, false);
    for (let index = 0; index < count; index++) {
      await rig.deal({ uid: tagOf(1, index), surface: SURFACES.redBack }, 80);
    }
  }

  async function startRig(): Promise<ShoeRig> {
    const rig = new ShoeRig();
    cleanups.push(() => rig.stop());
    await rig.startBoard();
    return rig;
  }

  it('hosted by the daemon with keyFile and key, deals authenticated with no alarm', async () => {
    const rig = await startRig();
    const keyFile = join(rig.directory, 'shoe.key');
    const publicKey = await (await createKeyFile(keyFile, 'ed25519')).publicKey();
    const table = await startTable(rig, {
      transport: 'firmware',
      board: rig.pty.a,
      registry: join(rig.directory, 'decks.json'),
      outbox: join(rig.directory, 'hosted-outbox.jsonl'),
      keyFile,
      key: formatPublicKey(publicKey),
    });
    await until(
      () => table.daemon.deviceStatus()[0]?.auth.state === 'authenticated',
      'the hosted shoe authenticated',
      30_000,
      () => JSON.stringify(table.daemon.deviceStatus()[0]?.auth),
    );
    // The shoe deals once its parts are set up, which it shows by lighting its status LED.
    await until(() => rig.board.output(SHOE_PINS.statusLed), 'the status LED lit', 30_000);
    await dealCards(rig, 3);
    await until(() => cardsOf(table).length >= 3, 'three cards journaled', 30_000);

    expect(cardsOf(table)).toEqual(['AS', '2S', '3S']);
    expect(alarmsOf(table)).toEqual([]);
    expect(table.daemon.deviceStatus()[0]!.auth).toMatchObject({
      pairing: 'paired',
      state: 'authenticated',
      deviceFingerprint: keyFingerprint(publicKey),
    });
  }, 90_000);

  it('on a paired line, deals nothing without its key and deals with it', async () => {
    const rig = await startRig();
    const keyFile = join(rig.directory, 'shoe.key');
    const key = await deviceKey(await createKeyFile(keyFile, 'p256'));
    // The table's line: a pty pair of its own (the rig's folder holds the board's).
    const link = new PtyPair(tempDir('tableside-shoe-link-'));
    await link.start();
    cleanups.push(() => link.kill());
    const table = await startTable(rig, { transport: link.a, key: formatPublicKey(key.publicKey) });
    const registry = registryOf(['red']);
    const firmwareOptions = {
      registry,
      tagTimeoutMs: 250,
      i2cTimeoutMs: 2_000,
      pn532: { ackTimeoutMs: 1_000 },
    };

    // A board running the firmware with no key on the shoe's line: a rogue.
    const rogue = await rig.startFirmware(
      new SerialTransport({ path: link.b, baudRate: 115_200 }),
      firmwareOptions,
    );
    await until(
      () => alarmsOf(table).length > 0,
      'an alarm about the keyless shoe',
      30_000,
      () => JSON.stringify(table.daemon.deviceStatus()[0]?.auth),
    );
    await until(() => rig.board.output(SHOE_PINS.statusLed), 'the status LED lit', 30_000);
    const named: string[] = [];
    rogue.on('event', (message) => named.push(message.type));
    await dealCards(rig, 2);
    await until(() => named.length === 2, 'the rogue naming its two cards', 30_000);
    // It names them, the table takes neither: they stay in its outbox.
    expect(named).toEqual(['CARD', 'CARD']);
    expect(rogue.outstanding).toBeGreaterThanOrEqual(2);
    expect(cardsOf(table)).toEqual([]);
    expect(table.daemon.deviceStatus()[0]!.auth).toMatchObject({
      pairing: 'paired',
      state: 'failed',
    });
    expect(alarmsOf(table)).toEqual([
      expect.objectContaining({ kind: 'device_quarantined', reason: 'no_key' }),
    ]);
    await rogue.stop();
    await until(
      () => !rig.board.output(SHOE_PINS.statusLed),
      'the status LED out with the rogue',
      30_000,
    );

    // The genuine firmware, given its key file, on the same line and config.
    const genuine = await rig.startFirmware(
      new SerialTransport({ path: link.b, baudRate: 115_200 }),
      { ...firmwareOptions, outboxPath: join(rig.directory, 'genuine-outbox.jsonl'), key },
    );
    await until(
      () => table.daemon.deviceStatus()[0]?.auth.state === 'authenticated',
      'the genuine shoe authenticated',
      30_000,
      () => JSON.stringify(table.daemon.deviceStatus()[0]?.auth),
    );
    // The rogue put its LED out as it stopped: lit again, the genuine shoe is set up.
    await until(() => rig.board.output(SHOE_PINS.statusLed), 'the status LED lit', 30_000);
    await rig.dealOne({ uid: tagOf(1, 5), surface: SURFACES.redBack }, undefined, 80);
    await until(() => cardsOf(table).length >= 1, 'the genuine card journaled', 30_000);
    expect(cardsOf(table)).toEqual(['6S']);
    expect(genuine.core.authenticated).toBe(true);
    expect(alarmsOf(table).some((alarm) => alarm.kind === 'device_unpaired')).toBe(false);
  }, 120_000);
});
