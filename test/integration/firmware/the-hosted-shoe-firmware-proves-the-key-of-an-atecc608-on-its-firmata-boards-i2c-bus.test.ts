/**
 * The shoe firmware's key in a secure element: an ATECC608 (emulated from
 * its datasheet) on the emulated StandardFirmata board's I2C bus beside the
 * PN532 and TCS34725. The daemon hosts the firmware with `atecc608: true`
 * and the chip's public key paired: the firmware reads the key over Firmata
 * I2C (wake pulse on the general call, responses longer than Firmata's
 * 32-byte reads taken in pieces), the chip signs each handshake, and the
 * shoe deals authenticated with no alarm. A board without the chip stops
 * the table at start, naming it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  compressP256,
  formatPublicKey,
  keyFingerprint,
} from '../../../device-protocol/auth/keys.ts';
import { resolveConfig } from '../../../firmware-host/config/loader.ts';
import { TableDaemon } from '../../../firmware-host/daemon/table-daemon.ts';
import type { JournalRecord } from '../../../firmware-host/journal/record.ts';
import { SHOE_PINS } from '../../../hardware/firmware/shoe.ts';
import { until } from '../../e2e/helpers/environment.ts';
import { EmulatedAtecc608 } from '../../emulators/atecc608.ts';
import { SURFACES } from '../../emulators/tcs34725.ts';
import { freePort } from '../../helpers/ports.ts';
import { socatMissing } from '../devices/pty.ts';
import { registryDocumentOf, ShoeRig, sleep, tagOf } from './shoe-rig.ts';

const skip = socatMissing();

describe.skipIf(skip)('the hosted shoe firmware with its key in an ATECC608', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });

  async function rigWith(chip: EmulatedAtecc608 | undefined): Promise<ShoeRig> {
    const rig = new ShoeRig();
    cleanups.push(() => rig.stop());
    if (chip) rig.otherParts.push(chip);
    await rig.startBoard();
    return rig;
  }

  function daemonOf(rig: ShoeRig, port: number, key?: string): TableDaemon {
    const registry = join(rig.directory, 'decks.json');
    writeFileSync(registry, JSON.stringify(registryDocumentOf(['red'])));
    const { config } = resolveConfig(
      {
        table: 'fw-atecc',
        ruleset: 'tdc-baccarat-no-commission',
        devices: {
          shoe: {
            kind: 'shoe',
            transport: 'firmware',
            board: rig.pty.a,
            registry,
            outbox: join(rig.directory, 'hosted-outbox.jsonl'),
            atecc608: true,
            ...(key ? { key } : { unpaired: 'allow' }),
          },
        },
        mqtt: { url: 'embedded', port },
        journal: { dir: join(rig.directory, 'journal'), rotateDaily: false },
        session: { autoRound: true },
      },
      { env: {} },
    );
    const daemon = new TableDaemon({ config, simulate: false });
    cleanups.push(() => daemon.stop());
    return daemon;
  }

  it('reads and proves the chip key over Firmata I2C and deals authenticated, no alarm', async () => {
    const chip = new EmulatedAtecc608();
    // Provisioned at the factory: the private key is in slot 0 and never leaves it.
    const xy = chip.provision(0, 0x5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eedn);
    const publicKey = { type: 'p256' as const, raw: compressP256(xy) };
    const rig = await rigWith(chip);
    const daemon = daemonOf(rig, await freePort(), formatPublicKey(publicKey));
    const journaled: JournalRecord[] = [];
    daemon.on('journaled', (records) => journaled.push(...records));
    await daemon.start();

    await until(
      () => daemon.deviceStatus()[0]?.auth.state === 'authenticated',
      'the shoe authenticated by its chip',
      30_000,
      () => `${JSON.stringify(daemon.deviceStatus()[0]?.auth)}\n${chip.log.join(' ')}`,
    );
    // The shoe deals once its parts are set up, which it shows by lighting its status LED.
    await until(() => rig.board.output(SHOE_PINS.statusLed), 'the status LED lit', 30_000);
    rig.board.setInput(3, true);
    // fixed wait: emulated timing: the dealer holds the lid open for 50 ms
    await sleep(50);
    rig.board.setInput(3, false);
    await rig.deal({ uid: tagOf(1, 0), surface: SURFACES.redBack }, 80);
    const cards = () =>
      journaled.flatMap((r) => (r.kind === 'input' && r.data.t === 'card' ? [r.data.card] : []));
    await until(() => cards().length >= 1, 'the card journaled', 30_000);

    expect(cards()).toEqual(['AS']);
    expect(
      journaled.filter((r) => r.kind === 'event' && (r.data as { type: string }).type === 'alarm'),
    ).toEqual([]);
    expect(daemon.deviceStatus()[0]!.auth).toMatchObject({
      pairing: 'paired',
      state: 'authenticated',
      deviceFingerprint: keyFingerprint(publicKey),
    });
    // The public key was read (GenKey) and the handshake signed (Nonce, Sign) by the chip.
    const commands = chip.log.filter((entry) => entry.startsWith('cmd'));
    expect(commands.slice(0, 3)).toEqual(['cmd 0x40', 'cmd 0x16', 'cmd 0x41']);
    expect(chip.log).toContain('wake');
  }, 90_000);

  it('does not start the table when the board has no ATECC608, and names it', async () => {
    const rig = await rigWith(undefined);
    const daemon = daemonOf(rig, await freePort());
    await expect(daemon.start()).rejects.toThrow(/ATECC608 at 0x60 does not answer/);
  }, 60_000);
});
