/**
 * The ams TCS34725 colour sensor (I2C 0x29) over any I2cBus: checks its ID,
 * sets the integration time and gain, powers the RGBC engine and reads the
 * clear, red, green and blue counts, from the datasheet's registers (ams
 * TCS3472 DS000390): command bit 0x80, auto-increment 0x20, ENABLE 0x00,
 * ATIME 0x01, CONTROL 0x0F, ID 0x12, STATUS 0x13 (AVALID), CDATA..BDATA
 * 0x14-0x1B low byte first.
 */
import { HardwareError, reasonOf } from '../errors.ts';
import type { I2cBus } from '../i2c/bus.ts';

export const TCS34725_ADDRESS = 0x29;
/** IDs the datasheet gives: 0x44 (TCS34721, TCS34725), 0x4D (TCS34723, TCS34727). */
const KNOWN_IDS = new Set([0x44, 0x4d]);
const COMMAND = 0x80;
const AUTO_INCREMENT = 0x20;
const ENABLE = 0x00;
const ATIME = 0x01;
const CONTROL = 0x0f;
const ID = 0x12;
const STATUS = 0x13;
const CDATAL = 0x14;
const PON = 0x01;
const AEN = 0x02;
const AVALID = 0x01;
/** One integration cycle, and the warm-up after PON. */
export const TCS34725_CYCLE_MS = 2.4;

export type Tcs34725Gain = 1 | 4 | 16 | 60;
const GAIN_BITS: Record<Tcs34725Gain, number> = { 1: 0, 4: 1, 16: 2, 60: 3 };

export interface Rgbc {
  readonly c: number;
  readonly r: number;
  readonly g: number;
  readonly b: number;
}

export interface Tcs34725Options {
  address?: number;
  /** Integration cycles of 2.4 ms (1-256): fewer is faster, more is finer. Default 4 (9.6 ms). */
  cycles?: number;
  gain?: Tcs34725Gain;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

export class Tcs34725 {
  readonly address: number;
  readonly cycles: number;
  readonly gain: Tcs34725Gain;

  constructor(
    private readonly bus: I2cBus,
    options: Tcs34725Options = {},
  ) {
    this.address = options.address ?? TCS34725_ADDRESS;
    this.cycles = options.cycles ?? 4;
    this.gain = options.gain ?? 4;
    if (!Number.isInteger(this.cycles) || this.cycles < 1 || this.cycles > 256) {
      throw new HardwareError('bad_options', `tcs34725: ${this.cycles} cycles: expected 1-256`);
    }
  }

  /** The largest count a channel reaches at this integration time (the datasheet's 1024 per cycle). */
  get fullScale(): number {
    return Math.min(1024 * this.cycles, 65535);
  }

  /** One integration, in milliseconds. */
  get integrationMs(): number {
    return TCS34725_CYCLE_MS * this.cycles;
  }

  /** The ID register; throws `part_failed` when the part does not answer or is not a TCS3472x. */
  async begin(): Promise<number> {
    const id = (await this.readRegisters(ID, 1))[0]!;
    if (!KNOWN_IDS.has(id)) {
      throw new HardwareError(
        'part_failed',
        `colour sensor at I2C 0x${this.address.toString(16)} answered ID 0x${id.toString(16)}, not a TCS34725 (0x44/0x4d): check the part and its wiring`,
      );
    }
    await this.writeRegister(ATIME, 256 - this.cycles);
    await this.writeRegister(CONTROL, GAIN_BITS[this.gain]);
    await this.writeRegister(ENABLE, PON);
    await sleep(3); // the datasheet's 2.4 ms warm-up after PON
    await this.writeRegister(ENABLE, PON | AEN);
    // Firmata does not confirm writes: wait for the first integration to
    // complete, which also shows the part really measures.
    const deadline = performance.now() + this.integrationMs * 4 + 50;
    for (;;) {
      await sleep(this.integrationMs);
      const status = (await this.readRegisters(STATUS, 1))[0]!;
      if ((status & AVALID) !== 0) return id;
      if (performance.now() > deadline) {
        throw new HardwareError(
          'part_failed',
          `colour sensor at I2C 0x${this.address.toString(16)} answers but completes no measurement (AVALID stays clear): check its power; replace it if it persists`,
        );
      }
    }
  }

  /** The latest completed integration; undefined before the first one (AVALID clear). */
  async read(): Promise<Rgbc | undefined> {
    const status = (await this.readRegisters(STATUS, 1))[0]!;
    if ((status & AVALID) === 0) return undefined;
    const bytes = await this.readRegisters(CDATAL, 8);
    const word = (index: number) => bytes[index]! | (bytes[index + 1]! << 8);
    return { c: word(0), r: word(2), g: word(4), b: word(6) };
  }

  /**
   * A reading of what lay under the sensor from `sinceMs` on (default now,
   * on performance.now()'s clock): waits until an integration that began
   * after it has completed (at most two cycles after it).
   */
  async readFresh(sinceMs = performance.now()): Promise<Rgbc> {
    await sleep(sinceMs + Math.ceil(this.integrationMs * 2) + 1 - performance.now());
    // AVALID was seen in begin(): the data registers go straight, saving a round trip.
    const bytes = await this.readRegisters(CDATAL, 8);
    const word = (index: number) => bytes[index]! | (bytes[index + 1]! << 8);
    return { c: word(0), r: word(2), g: word(4), b: word(6) };
  }

  private async writeRegister(register: number, value: number): Promise<void> {
    await this.guard(() => this.bus.write(this.address, Uint8Array.of(COMMAND | register, value)));
  }

  private async readRegisters(register: number, length: number): Promise<Uint8Array> {
    return this.guard(async () => {
      await this.bus.write(this.address, Uint8Array.of(COMMAND | AUTO_INCREMENT | register));
      const bytes = await this.bus.read(this.address, length);
      if (bytes.length !== length) {
        throw new Error(`${bytes.length} of ${length} bytes`);
      }
      return bytes;
    });
  }

  private async guard<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      if (error instanceof HardwareError) throw error;
      throw new HardwareError(
        'part_failed',
        `colour sensor (TCS34725) at I2C 0x${this.address.toString(16)} did not answer (${reasonOf(error)}): check its wiring (SDA, SCL, 3.3 V, GND)`,
        { cause: error },
      );
    }
  }
}
