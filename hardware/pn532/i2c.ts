/**
 * The PN532's I2C host link (UM0701-02 § 6.2.4): every read transaction
 * starts with a status byte whose bit 0 is 1 when the PN532 has a frame
 * ready; the frame follows in the same read. A read that stops early leaves
 * the frame in place. So a frame is read with its status in one
 * transaction of 1 + the frame's expected length (an ACK's 6 bytes, the
 * response the command gives): on a Firmata board every byte read costs two
 * bytes of line time (a 32-byte read is a 70-byte reply, about 12 ms at
 * 57600 baud). A frame longer than expected is read again whole, as its
 * LEN says.
 */
import type { I2cBus } from '../i2c/bus.ts';
import { type Pn532Bus, sleep } from './bus.ts';
import { Pn532Error } from './errors.ts';
import { hex, type Pn532Frame, Pn532FrameReader } from './frame.ts';

export const PN532_I2C_ADDRESS = 0x24;
const STATUS_READY = 0x01;
/** The longest read: what one StandardFirmata I2C reply carries (status and 31 frame bytes). */
const LONGEST_READ = 32;

export interface Pn532I2cOptions {
  /** Pause between status polls (ms). */
  pollIntervalMs?: number;
}

export function pn532OverI2c(
  bus: I2cBus,
  address = PN532_I2C_ADDRESS,
  options: Pn532I2cOptions = {},
): Pn532Bus {
  if (!Number.isInteger(address) || address < 0x03 || address > 0x77) {
    throw new Pn532Error('bad_options', `PN532 I2C address ${address} is not a 7-bit address`);
  }
  const pollMs = options.pollIntervalMs ?? 1;
  const name = `PN532 on I2C ${hex(address)}`;

  async function readReady(length: number): Promise<Uint8Array | undefined> {
    const bytes = await bus.read(address, length);
    return bytes[0] !== undefined && (bytes[0] & STATUS_READY) !== 0
      ? bytes.subarray(1)
      : undefined;
  }

  /** The frame after a ready status; `head` is what the first read brought after it. */
  async function readFrame(head: Uint8Array): Promise<Pn532Frame | undefined> {
    const one = new Pn532FrameReader().push(head);
    if (one[0]) return one[0];
    let total = 7 + 1 + (head[3] ?? 0); // preamble, start code, LEN, LCS, LEN bytes, DCS, postamble
    if (head[3] === 0xff && head[4] === 0xff) {
      // An extended frame: 00 00 FF FF FF LENM LENL LCS, LEN bytes, DCS, postamble.
      total = 10 + 1 + (((head[5] ?? 0) << 8) | (head[6] ?? 0));
    }
    const whole = await readReady(total);
    if (!whole) return undefined;
    return (
      new Pn532FrameReader().push(whole)[0] ?? {
        kind: 'corrupt',
        why: 'frame shorter than its LEN',
      }
    );
  }

  return {
    name,
    async send(frame) {
      try {
        await bus.write(address, frame);
      } catch (error) {
        throw new Pn532Error(
          'no_answer',
          `${name} does not take a frame on the I2C bus: check its power, SDA/SCL wiring and that its mode switches select I2C`,
          { cause: error },
        );
      }
    },
    async receive(timeoutMs, expectedLength = LONGEST_READ - 1) {
      const deadline = Date.now() + timeoutMs;
      const length = Math.min(1 + Math.max(1, expectedLength), LONGEST_READ);
      let answered = false;
      let lastError: unknown;
      // The PN532 takes about a millisecond to ACK a frame: a read sent with it finds it busy.
      await sleep(pollMs);
      for (;;) {
        try {
          // Status and frame in one transaction: the first read that finds it ready takes the frame.
          const bytes = await bus.read(address, length);
          answered = true;
          if (bytes[0] !== undefined && (bytes[0] & STATUS_READY) !== 0) {
            const frame = await readFrame(bytes.subarray(1));
            if (frame) return frame;
          }
        } catch (error) {
          lastError = error;
        }
        if (Date.now() >= deadline) break;
        await sleep(pollMs);
      }
      if (!answered) {
        throw new Pn532Error(
          'no_answer',
          `${name} does not answer on the I2C bus: check its power, SDA/SCL wiring and that its mode switches select I2C`,
          { cause: lastError },
        );
      }
      return undefined;
    },
    resync() {
      // Nothing is buffered on I2C: each read starts at the frame's first byte.
    },
  };
}
