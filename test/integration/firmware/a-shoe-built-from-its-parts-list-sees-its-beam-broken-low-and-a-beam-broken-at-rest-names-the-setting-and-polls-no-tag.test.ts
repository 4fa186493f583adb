/**
 * The beam as the wiring page's parts list builds it: an open-collector IR
 * receiver behind the pull-up reads HIGH while clear and LOW while a card
 * breaks it. The shoe firmware deals with it by default; with an LM393 slot
 * module (HIGH when blocked) it says which setting to change rather than
 * poll for tags, and deals once told `beamBroken: high`. A beam broken at
 * start never polls the PN532, whose first commands stay GetFirmwareVersion
 * and SAMConfiguration.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '../../../device-protocol/messages.ts';
import { SHOE_PINS } from '../../../hardware/firmware/shoe.ts';
import { createMemoryPair } from '../../../hardware/transports/memory.ts';
import { until } from '../../e2e/helpers/environment.ts';
import { SURFACES } from '../../emulators/tcs34725.ts';
import { socatMissing } from '../devices/pty.ts';
import { registryOf, ShoeRig, sleep, tagOf } from './shoe-rig.ts';

/** A slow dealer: the tag stays in the field whatever the machine's load. */
const SLOW_DEALER_MS = 300;

const skip = socatMissing();
if (skip) console.log(skip);

const GET_FIRMWARE_VERSION = 0x02;
const SAM_CONFIGURATION = 0x14;
const IN_LIST_PASSIVE_TARGET = 0x4a;

describe.skipIf(skip)(
  'a shoe built from its parts list sees its beam broken LOW; a beam broken at rest names the setting and polls no tag',
  () => {
    let rig: ShoeRig | undefined;
    afterEach(async () => {
      await rig?.stop();
      rig = undefined;
    });

    const registry = registryOf(['red']);
    const options = { registry, tagTimeoutMs: 250, i2cTimeoutMs: 2_000, colourBudgetMs: 1_000 };

    async function start(shoe: ShoeRig, beamBroken?: 'low' | 'high') {
      const wire = createMemoryPair(`beam-${Math.random().toString(36).slice(2)}`);
      const events: Message[] = [];
      const firmware = await shoe.startFirmware(wire.device, {
        ...options,
        ...(beamBroken ? { beamBroken } : {}),
      });
      firmware.on('event', (message) => events.push(message));
      // The parts are checked once the board answers; the beam's first report comes with them.
      await until(() => shoe.pn532.commands.includes(SAM_CONFIGURATION), 'the parts checked');
      return { firmware, events };
    }

    it('the listed receiver (LOW = broken): no fault at rest, no tag poll before a card, and the card is named', async () => {
      rig = new ShoeRig();
      await rig.startBoard();
      const { firmware, events } = await start(rig);
      await until(
        () => firmware.currentFault === undefined,
        'the shoe ready',
        10_000,
        () => JSON.stringify(firmware.currentFault),
      );
      // The beam reported at rest before the parts answered: read the wrong way
      // round, it would have queued a tag poll between these two.
      expect(rig.pn532.commands).toEqual([GET_FIRMWARE_VERSION, SAM_CONFIGURATION]);
      await rig.dealOne({ uid: tagOf(1, 0), surface: SURFACES.redBack }, undefined, SLOW_DEALER_MS);
      expect(events).toEqual([{ type: 'CARD', card: 'AS', back: 'red', face: 'down' }]);
      expect(rig.pn532.commands).toEqual([
        GET_FIRMWARE_VERSION,
        SAM_CONFIGURATION,
        IN_LIST_PASSIVE_TARGET,
      ]);
    });

    it('an LM393 module (HIGH = broken) read as the listed part: beam_blocked naming beamBroken: high, cards refused, no poll; with beamBroken: high it deals', async () => {
      rig = new ShoeRig('firmata', 57_600, 'high');
      await rig.startBoard();
      const { firmware, events } = await start(rig);
      await until(() => firmware.currentFault !== undefined, 'a fault');
      const fault = firmware.currentFault!;
      expect(fault).toMatchObject({ part: 'beam', code: 'beam_blocked' });
      expect(fault.message).toMatch(/reads broken at rest \(D2 LOW\)/);
      expect(fault.message).toMatch(/set beamBroken: high \(--beam-broken high\)/);
      const refused = new Promise((resolve) => firmware.once('refused', resolve));
      await rig.deal({ uid: tagOf(1, 0), surface: SURFACES.redBack });
      await refused;
      expect(events).toEqual([]);
      expect(rig.pn532.commands).not.toContain(IN_LIST_PASSIVE_TARGET);
      expect(firmware.currentFault?.code).toBe('beam_blocked');

      // The technician sets what the advice says.
      await firmware.stop();
      const told = await start(rig, 'high');
      await until(() => told.firmware.currentFault === undefined, 'the shoe ready');
      await rig.dealOne({ uid: tagOf(1, 1), surface: SURFACES.redBack }, undefined, SLOW_DEALER_MS);
      await rig.dealOne({ uid: tagOf(1, 2), surface: SURFACES.redBack }, undefined, SLOW_DEALER_MS);
      expect(told.events.map((event) => event.type === 'CARD' && event.card)).toEqual(['2S', '3S']);
    });

    it('a card lying in the listed beam at start: reported, never polled, and the shoe deals once it is cleared and the lid closed', async () => {
      rig = new ShoeRig();
      await rig.startBoard();
      rig.board.setInput(SHOE_PINS.beam, rig.beamLevel(true));
      const { firmware, events } = await start(rig);
      await until(() => firmware.currentFault !== undefined, 'a fault');
      const fault = firmware.currentFault!;
      expect(fault).toMatchObject({ part: 'beam', code: 'beam_blocked' });
      expect(fault.message).toMatch(
        /D2 LOW.*otherwise clear the beam; then open and close the lid/,
      );
      // The technician takes the card out, then opens and closes the lid.
      rig.board.setInput(SHOE_PINS.beam, rig.beamLevel(false));
      expect(firmware.currentFault?.code).toBe('beam_blocked');
      rig.board.setInput(SHOE_PINS.lid, true);
      // fixed wait: emulated timing: the technician holds the lid open for 50 ms
      await sleep(50);
      rig.board.setInput(SHOE_PINS.lid, false);
      await until(() => firmware.currentFault === undefined, 'the fault cleared by the lid');
      // Clearing the beam was not a card: nothing was polled.
      expect(rig.pn532.commands).not.toContain(IN_LIST_PASSIVE_TARGET);
      await rig.dealOne({ uid: tagOf(1, 3), surface: SURFACES.redBack }, undefined, SLOW_DEALER_MS);
      expect(events.filter((event) => event.type === 'CARD')).toEqual([
        { type: 'CARD', card: '4S', back: 'red', face: 'down' },
      ]);
    });
  },
);
