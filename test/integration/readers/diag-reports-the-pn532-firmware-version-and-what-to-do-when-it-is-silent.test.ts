import { afterEach, describe, expect, it } from 'vitest';
import type { DeviceConfig } from '../../../firmware-host/config/schema.ts';
import { checkDevice } from '../../../firmware-host/diag/device-check.ts';
import type { CheckOutcome } from '../../../firmware-host/diag/report.ts';
import { type Pn532OnPty, pn532OnPty, socatMissing } from './pn532-on-a-pty.ts';

const missing = socatMissing();
if (missing) console.log(missing);

const row = (results: CheckOutcome[], name: string) =>
  results.find((result) => result.name === `device reader: ${name}`);

describe.skipIf(missing !== undefined)(
  'diag reports the PN532 firmware version, and what to do when it is silent',
  () => {
    let pty: Pn532OnPty | undefined;
    afterEach(async () => {
      await pty?.stop();
    });

    it('a PN532 that answers: its firmware version, HELLO and ping pass', async () => {
      pty = await pn532OnPty();
      // A PN532 has no key to pair: a bench that allows it.
      const device: DeviceConfig = {
        kind: 'reader',
        transport: `pn532:${pty.path}`,
        firmware: [],
        unpaired: 'allow',
      };
      const results = await checkDevice('reader', device, { observeMs: 1200 });
      expect(results.map((result) => [result.name, result.status])).toEqual([
        ['device reader: open', 'pass'],
        ['device reader: HELLO', 'pass'],
        ['device reader: firmware', 'warn'],
        // An unpaired reader the config allows (a bench): works, with a warning.
        ['device reader: key', 'warn'],
        ['device reader: PN532', 'pass'],
        ['device reader: ping', 'pass'],
        ['device reader: line errors', 'pass'],
      ]);
      expect(row(results, 'PN532')?.detail).toMatch(
        /^PN532 firmware 1\.6 \(GetFirmwareVersion IC 0x32\)/,
      );
      expect(row(results, 'HELLO')?.detail).toMatch(/^PN532-HSU serial .+, firmware PN532-1\.6$/);
      // GetFirmwareVersion went to the part once per open (diag opens twice).
      expect(pty.emulator.commands.filter((code) => code === 0x02)).toHaveLength(2);
    });

    it('a silent PN532 fails the open check with the part named and what to set', async () => {
      pty = await pn532OnPty();
      pty.emulator.setFault('silent');
      const device: DeviceConfig = { kind: 'reader', transport: `pn532:${pty.path}`, firmware: [] };
      const results = await checkDevice('reader', device, { observeMs: 500 });
      expect(results).toHaveLength(1);
      expect(results[0]).toMatchObject({ name: 'device reader: open', status: 'fail' });
      expect(results[0]?.detail).toMatch(/PN532 on .+ \(HSU\) does not answer/);
      expect(results[0]?.advice).toMatch(/mode switches to HSU/);
    });
  },
);
