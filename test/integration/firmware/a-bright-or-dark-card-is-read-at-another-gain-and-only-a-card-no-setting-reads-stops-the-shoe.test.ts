/**
 * Real optics vary: a card nearer the sensor or under a brighter LED
 * saturates the TCS34725 at the shoe's first setting (4x, 4 cycles), a dark
 * back gives it too few counts. The shoe firmware steps the gain and
 * integration time as light-sensor libraries do and names both cards with
 * the built-in calibration; only light no setting reads stops the shoe.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '../../../device-protocol/messages.ts';
import type { ShoeFault } from '../../../hardware/firmware/shoe.ts';
import { createMemoryPair } from '../../../hardware/transports/memory.ts';
import { SURFACES } from '../../emulators/tcs34725.ts';
import { socatMissing } from '../devices/pty.ts';
import { registryOf, ShoeRig, tagOf } from './shoe-rig.ts';

/** A slow dealer: the tag stays in the field whatever the machine's load. */
const SLOW_DEALER_MS = 300;

const skip = socatMissing();
if (skip) console.log(skip);

describe.skipIf(skip)(
  'a bright or dark card is read at another gain, and only a card no setting reads stops the shoe',
  () => {
    let rig: ShoeRig | undefined;
    afterEach(async () => {
      await rig?.stop();
      rig = undefined;
    });

    it('names a bright red back and a dark blue back; faults on light that saturates every setting', async () => {
      rig = new ShoeRig();
      await rig.startBoard();
      const wire = createMemoryPair(`range-${Math.random().toString(36).slice(2)}`);
      const firmware = await rig.startFirmware(wire.device, {
        registry: registryOf(['red', 'blue']),
        // Generous timings: this runs beside other suites on a loaded machine.
        tagTimeoutMs: 250,
        i2cTimeoutMs: 2_000,
        colourBudgetMs: 1_000,
      });
      expect(firmware.currentFault).toBeUndefined();
      const events: Message[] = [];
      const faults: ShoeFault[] = [];
      firmware.on('event', (message) => events.push(message));
      firmware.on('fault', (fault) => faults.push(fault));

      await rig.dealOne(
        { uid: tagOf(1, 0), surface: SURFACES.brightRedBack },
        undefined,
        SLOW_DEALER_MS,
      );
      await rig.dealOne(
        { uid: tagOf(2, 1), surface: SURFACES.darkBlueBack },
        undefined,
        SLOW_DEALER_MS,
      );
      // Back at an ordinary card after both: the sensor steps back.
      await rig.dealOne({ uid: tagOf(1, 2), surface: SURFACES.redBack }, undefined, SLOW_DEALER_MS);
      expect(faults).toEqual([]);
      expect(events).toEqual([
        { type: 'CARD', card: 'AS', back: 'red', face: 'down' },
        { type: 'CARD', card: '2S', back: 'blue', face: 'down' },
        { type: 'CARD', card: '3S', back: 'red', face: 'down' },
      ]);

      await rig.dealOne(
        { uid: tagOf(1, 3), surface: SURFACES.blinding },
        undefined,
        SLOW_DEALER_MS,
      );
      expect(events).toHaveLength(3);
      expect(faults).toHaveLength(1);
      expect(faults[0]).toMatchObject({ part: 'colour', code: 'colour_unmatched' });
      expect(faults[0]!.message).toMatch(/saturated .* even at the least sensitive setting tried/);
    }, 60_000);
  },
);
