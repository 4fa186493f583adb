/**
 * The I2cBus over a Firmata board (StandardFirmata's I2C_REQUEST and
 * I2C_REPLY): what the PN532 and TCS34725 drivers run on when the parts hang
 * off an Arduino. Firmata says nothing about a write's NACK; a read the
 * part NACKs comes back short (StandardFirmata: "I2C: Too few bytes
 * received") and is refused here, as is a read with no reply in time.
 */
import type { I2cBus } from '../i2c/bus.ts';
import type { FirmataIo } from './firmata-io.ts';

/** StandardFirmata's I2C buffer: a reply carries at most this many bytes. */
export const FIRMATA_I2C_MAX_READ = 32;

export interface FirmataI2cOptions {
  /** A read with no I2C_REPLY by then is refused. */
  replyTimeoutMs?: number;
}

export function firmataI2cBus(io: FirmataIo, options: FirmataI2cOptions = {}): I2cBus {
  const timeoutMs = options.replyTimeoutMs ?? 250;
  io.i2cConfig({ delay: 0 });
  return {
    async write(address, bytes) {
      io.i2cWrite(address, [...bytes]);
    },
    read(address, length) {
      if (length < 1 || length > FIRMATA_I2C_MAX_READ) {
        return Promise.reject(
          new Error(`an I2C read of ${length} bytes: Firmata reads 1-${FIRMATA_I2C_MAX_READ}`),
        );
      }
      return new Promise((resolve, reject) => {
        const event = `I2C-reply-${address}-0`;
        const timer = setTimeout(() => {
          io.removeListener(event, onReply);
          reject(new Error(`no I2C reply from 0x${address.toString(16)} within ${timeoutMs} ms`));
        }, timeoutMs);
        const onReply = (...args: unknown[]) => {
          clearTimeout(timer);
          const data = args[0] as number[];
          if (data.length < length) {
            reject(new Error(`0x${address.toString(16)} did not acknowledge the read (NACK)`));
            return;
          }
          resolve(Uint8Array.from(data.slice(0, length)));
        };
        io.sendI2CReadRequest(address, length, onReply);
      });
    },
  };
}
