/**
 * On a Firmata board every byte the PN532 gives costs two on the serial
 * line, and each I2C read is a round trip. UM0701-02 § 6.2.4 lets the host
 * read the status byte and the frame in one transaction: the shoe asks for
 * 1 + the frame it expects (7 for an ACK, 23 for InListPassiveTarget's
 * answer with a 7-byte NTAG UID), so each frame is taken by the first read
 * that finds it ready, and no read carries padding past it. Counted per
 * card on the emulated StandardFirmata board's I2C requests.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '../../../device-protocol/messages.ts';
import { createMemoryPair } from '../../../hardware/transports/memory.ts';
import { SURFACES } from '../../emulators/tcs34725.ts';
import { socatMissing } from '../devices/pty.ts';
import { registryOf, ShoeRig, tagOf } from './shoe-rig.ts';

/** A slow dealer: the tag stays in the field whatever the machine's load. */
const SLOW_DEALER_MS = 300;

const skip = socatMissing();
if (skip) console.log(skip);

/** 00 00 FF 00 FF 00 */
const ACK_LENGTH = 6;
/** 00 00 FF LEN LCS D5 4B NbTg Tg SENS_RES(2) SEL_RES NFCIDLength NFCID1(7) DCS 00 */
const TARGET_RESPONSE_LENGTH = 22;

describe.skipIf(skip)(
  'the shoe reads each PN532 frame with its status in one I2C read of the frame’s length',
  () => {
    let rig: ShoeRig | undefined;
    afterEach(async () => {
      await rig?.stop();
      rig = undefined;
    });

    it('per card: an ACK in a 7-byte read, the target in a 23-byte read, each taken by the first read that finds it ready', async () => {
      rig = new ShoeRig();
      await rig.startBoard();
      const wire = createMemoryPair(`pn532-reads-${Math.random().toString(36).slice(2)}`);
      const firmware = await rig.startFirmware(wire.device, {
        registry: registryOf(['red']),
        tagTimeoutMs: 250,
        i2cTimeoutMs: 2_000,
      });
      expect(firmware.currentFault).toBeUndefined();
      const events: Message[] = [];
      firmware.on('event', (message) => events.push(message));

      // Every I2C read request the board passes to the PN532: its length, and whether it found a frame ready.
      const pn532 = rig.pn532;
      const read = pn532.read.bind(pn532);
      let reads: Array<{ length: number; ready: boolean }> = [];
      pn532.read = (length, atMs) => {
        const bytes = read(length, atMs);
        reads.push({ length, ready: bytes?.[0] === 0x01 });
        return bytes;
      };
      const perCard: Array<typeof reads> = [];
      for (let index = 0; index < 6; index++) {
        reads = [];
        await rig.dealOne(
          { uid: tagOf(1, index), surface: SURFACES.redBack },
          undefined,
          SLOW_DEALER_MS,
        );
        perCard.push(reads);
      }
      expect(events).toHaveLength(6);
      expect(events.every((event) => event.type === 'CARD')).toBe(true);
      for (const [card, cardReads] of perCard.entries()) {
        // The frames: each in the first read that found it ready, status and frame together.
        expect(
          cardReads.filter((one) => one.ready).map((one) => one.length),
          `card ${card}`,
        ).toEqual([1 + ACK_LENGTH, 1 + TARGET_RESPONSE_LENGTH]);
        // A busy poll asks for no more than the frame it waits for.
        for (const one of cardReads) {
          expect([1 + ACK_LENGTH, 1 + TARGET_RESPONSE_LENGTH], `card ${card}`).toContain(
            one.length,
          );
        }
      }
    }, 60_000);
  },
);
