/**
 * The conformance suite against tableside's own shoe firmware, as a firmware
 * author would run it at a bench: the firmware on an emulated StandardFirmata
 * board (PN532 and TCS34725 behind it, the beam driven by the test), its
 * protocol line on a pty pair, and the suite on the other end in its human
 * mode: when it asks for a card to be dealt, the test deals one.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runConformance } from '../../../firmware-host/conformance/suite.ts';
import { SerialTransport } from '../../../hardware/transports/serial.ts';
import { SURFACES } from '../../emulators/tcs34725.ts';
import { PtyPair, socatMissing } from '../devices/pty.ts';
import { registryOf, ShoeRig, tagOf } from '../firmware/shoe-rig.ts';

const skip = socatMissing();
if (skip) console.log(skip);

describe.skipIf(skip)('tableside conformance and the shoe firmware', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });

  it('passes every required check, dealing a card each time the suite asks for one', async () => {
    const rig = new ShoeRig();
    cleanups.push(() => rig.stop());
    await rig.startBoard();
    const linkDirectory = join(rig.directory, 'link');
    mkdirSync(linkDirectory);
    const link = new PtyPair(linkDirectory);
    await link.start();
    cleanups.push(() => link.kill());
    await rig.startFirmware(new SerialTransport({ path: link.b, baudRate: 115_200 }), {
      registry: registryOf(['red']),
    });

    const asked: string[] = [];
    let dealt = 0;
    const report = await runConformance({
      link: link.a,
      transport: new SerialTransport({ path: link.a, baudRate: 115_200 }),
      talker: 'SH',
      instruct: (text) => {
        asked.push(text);
        if (text.startsWith('deal one card')) {
          void rig.deal({ uid: tagOf(1, dealt++), surface: SURFACES.redBack });
        }
      },
    });

    expect(report.results.filter((result) => result.required && result.status !== 'pass')).toEqual(
      [],
    );
    expect(report.device).toMatchObject({ model: 'TS-SHOE-FW', serial: 'SHOE-TEST-1' });
    expect(asked.filter((text) => text.startsWith('deal one card')).length).toBe(2);
    expect(report.results.find((result) => result.id === 'messages')?.detail).toMatch(
      /^\$SH,\d+,CARD,2S,red,down\*/,
    );
  }, 90_000);
});
