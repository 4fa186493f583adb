/**
 * The firmware's own key (protocol 1.4, PROTOCOL.md § 5), so a table can pair
 * tableside's shoe and reader like any device that proves who it is: a key
 * file (`tableside device key new`), or the P-256 key an ATECC608 keeps on
 * the board's I2C bus beside the PN532 (docs/technician/wiring.md), which
 * never leaves the chip.
 *
 * The chip sits behind the board the firmware opens and reopens, so its
 * signer talks through `BoardI2c`, the bus of whichever board is open now.
 * Its public key is read once before the firmware starts (the device core
 * announces it from the first connection): the board is opened for that
 * and closed again.
 */
import { HardwareError } from '../errors.ts';
import { FIRMATA_I2C_MAX_READ } from '../firmata/i2c-bus.ts';
import { PartBoard } from '../firmata/part-board.ts';
import { Atecc608 } from '../i2c/atecc608.ts';
import type { I2cBus } from '../i2c/bus.ts';
import { type DeviceKey, deviceKey, loadKeyFile } from '../keys/device-key.ts';

/** The I2C bus of the board the firmware has open; refuses while none is. */
export class BoardI2c implements I2cBus {
  private bus: I2cBus | undefined;

  /** The board the firmware opened (undefined: it closed or was lost). */
  attach(bus: I2cBus | undefined): void {
    this.bus = bus;
  }

  write(address: number, bytes: Uint8Array): Promise<void> {
    return this.current().then((bus) => bus.write(address, bytes));
  }

  read(address: number, length: number): Promise<Uint8Array> {
    return this.current().then((bus) => bus.read(address, length));
  }

  private async current(): Promise<I2cBus> {
    if (this.bus === undefined) {
      throw new HardwareError('secure_element', 'the board is not open: the key cannot sign');
    }
    return this.bus;
  }
}

export interface FirmwareKey {
  readonly key: DeviceKey;
  /** For a key on the board: the bus the firmware attaches each board it opens to. */
  readonly boardI2c?: BoardI2c;
}

export interface Atecc608Placement {
  /** 7-bit address, 0x60 as shipped. */
  address?: number;
  /** The slot holding the private key, 0 unless provisioned otherwise. */
  slot?: number;
}

/** The signer of a key file; throws HardwareError `key_file` naming the file and what is wrong. */
export async function firmwareKeyFromFile(path: string): Promise<FirmwareKey> {
  return { key: await deviceKey(await loadKeyFile(path)) };
}

/**
 * The ATECC608 on the board at `boardUrl`: opens the board, reads the
 * chip's public key, closes the board. Throws naming the board or the chip
 * when either does not answer.
 */
export async function firmwareKeyFromAtecc608(
  boardUrl: string,
  placement: Atecc608Placement = {},
  board: { readyTimeoutMs?: number; i2cTimeoutMs?: number } = {},
): Promise<FirmwareKey> {
  const boardI2c = new BoardI2c();
  const chip = new Atecc608({ bus: boardI2c, maxReadBytes: FIRMATA_I2C_MAX_READ, ...placement });
  const opened = await PartBoard.open({ url: boardUrl, ...board });
  boardI2c.attach(opened.i2c);
  try {
    return { key: await deviceKey(chip), boardI2c };
  } catch (error) {
    throw new HardwareError(
      'secure_element',
      `the key on the board at ${boardUrl}: ${(error as Error).message}; check the ATECC608 (SDA/SCL to A4/A5 beside the PN532, 3.3-5 V, provisioned)`,
    );
  } finally {
    boardI2c.attach(undefined);
    await opened.close();
  }
}
