/**
 * The ams TCS34725 colour sensor (I2C 0x29) over any I2cBus: checks its ID,
 * sets the integration time and gain, powers the RGBC engine and reads the
 * clear, red, green and blue counts, from the datasheet's registers (ams
 * TCS3472 DS000390): command bit 0x80, auto-increment 0x20, ENABLE 0x00,
 * ATIME 0x01, CONTROL 0x0F, ID 0x12, STATUS 0x13 (AVALID), CDATA..BDATA
 * 0x14-0x1B low byte first.
 *
 * Auto-range (as light-sensor libraries do, e.g. Adafruit's TCS34725
 * autorange example): a reading whose clear count saturates steps the gain
 * and integration time down, a dim one steps them up, within a time budget;
 * readings are scaled to the reference setting (4x, 4 cycles) so a
 * calibration taken at one setting holds at another.
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

export interface Tcs34725Setting {
  readonly gain: Tcs34725Gain;
  /** Integration cycles of 2.4 ms (ATIME = 256 - cycles). */
  readonly cycles: number;
}

/** The scale readings are given in: the shoe's first setting, which calibration files were taken at. */
export const TCS34725_REFERENCE: Tcs34725Setting = { gain: 4, cycles: 4 };

/**
 * The settings auto-range steps between, least sensitive first. Integrations
 * stay short (at most 4 cycles, 9.6 ms): a card lies over the sensor only
 * while it leaves the shoe.
 */
const LADDER: readonly Tcs34725Setting[] = [
  { gain: 1, cycles: 1 },
  { gain: 1, cycles: 2 },
  { gain: 1, cycles: 4 },
  { gain: 4, cycles: 4 },
  { gain: 16, cycles: 4 },
  { gain: 60, cycles: 4 },
];

/** Below this share of the setting's saturation a reading is dim: a more sensitive setting reads it finer. */
const DIM_FRACTION = 0.1;
/** Below this share of the largest count the setting sees nothing usable. */
const DARK_FRACTION = 0.02;

/** A reading scaled to the reference setting, with the setting it was taken at. */
export interface Tcs34725Reading extends Rgbc {
  /** The counts the sensor gave at `setting`. */
  readonly raw: Rgbc;
  readonly setting: Tcs34725Setting;
  /**
   * In the reading's (reference) scale: a clear count below `dark` is too
   * dark to tell colours, one at or above `saturated` is clipped (the
   * datasheet's largest count at the setting).
   */
  readonly range: { readonly dark: number; readonly saturated: number };
}

export interface ReadOptions {
  /**
   * Auto-range only tries a setting whose reading completes within this
   * many ms of `sinceMs`; without it, the first reading is returned as is.
   */
  budgetMs?: number;
}

function sensitivity(setting: Tcs34725Setting): number {
  return setting.gain * setting.cycles;
}

/** The datasheet's largest count: 1024 per cycle, at most 65535. */
function maxCount(setting: Tcs34725Setting): number {
  return Math.min(1024 * setting.cycles, 65535);
}

/**
 * The clear count from which auto-range prefers a less sensitive setting:
 * 75 % of the largest count below 64 cycles (ATIME above 0xC0), where ams'
 * DN40 puts the ripple saturation of short integrations, else the largest
 * count. Only a count at the largest is clipped: a reading between the two
 * is still used when no other setting fits the time budget.
 */
export function stepDownAt(setting: Tcs34725Setting): number {
  const max = maxCount(setting);
  return setting.cycles < 64 ? Math.floor(max * 0.75) : max;
}

/** Counts at `setting` scaled to the reference setting. */
function toReference(raw: Rgbc, setting: Tcs34725Setting): Rgbc {
  const factor = sensitivity(TCS34725_REFERENCE) / sensitivity(setting);
  const scale = (count: number) => Math.round(count * factor * 100) / 100;
  return { c: scale(raw.c), r: scale(raw.r), g: scale(raw.g), b: scale(raw.b) };
}

/** The setting to try after `raw` at `current`, or undefined when `raw` is usable or nothing else would be. */
export function nextSetting(raw: Rgbc, current: Tcs34725Setting): Tcs34725Setting | undefined {
  const here = sensitivity(current);
  if (raw.c >= stepDownAt(current)) {
    const lower = LADDER.filter((setting) => sensitivity(setting) < here);
    // How far over it is cannot be known: step down at least eightfold, so one step usually does.
    return lower.filter((setting) => sensitivity(setting) * 8 <= here).at(-1) ?? lower[0];
  }
  if (raw.c < stepDownAt(current) * DIM_FRACTION) {
    const higher = LADDER.filter((setting) => sensitivity(setting) > here);
    if (raw.c === 0) return higher.at(-1);
    // The most sensitive setting the card would fill at most half of.
    return higher
      .filter((setting) => (raw.c * sensitivity(setting)) / here <= stepDownAt(setting) * 0.5)
      .at(-1);
  }
  return undefined;
}

export interface Tcs34725Options {
  address?: number;
  /** Integration cycles of 2.4 ms (1-256) to start at: fewer is faster, more is finer. Default 4 (9.6 ms). */
  cycles?: number;
  /** Gain to start at. Default 4x. */
  gain?: Tcs34725Gain;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

export class Tcs34725 {
  readonly address: number;
  /** The setting the sensor integrates at now: auto-range keeps the last usable one, as the libraries do. */
  private current: Tcs34725Setting;
  /** How long the last register read took (a Firmata round trip is several ms): a step's cost. */
  private readMs = 5;

  constructor(
    private readonly bus: I2cBus,
    options: Tcs34725Options = {},
  ) {
    this.address = options.address ?? TCS34725_ADDRESS;
    this.current = {
      gain: options.gain ?? TCS34725_REFERENCE.gain,
      cycles: options.cycles ?? TCS34725_REFERENCE.cycles,
    };
    const cycles = this.current.cycles;
    if (!Number.isInteger(cycles) || cycles < 1 || cycles > 256) {
      throw new HardwareError('bad_options', `tcs34725: ${cycles} cycles: expected 1-256`);
    }
  }

  get setting(): Tcs34725Setting {
    return this.current;
  }

  get cycles(): number {
    return this.current.cycles;
  }

  get gain(): Tcs34725Gain {
    return this.current.gain;
  }

  /** The largest count a channel reaches at this integration time (the datasheet's 1024 per cycle). */
  get fullScale(): number {
    return maxCount(this.current);
  }

  /** One integration, in milliseconds. */
  get integrationMs(): number {
    return TCS34725_CYCLE_MS * this.current.cycles;
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
    await this.writeRegister(ATIME, 256 - this.current.cycles);
    await this.writeRegister(CONTROL, GAIN_BITS[this.current.gain]);
    await this.writeRegister(ENABLE, PON);
    await sleep(3); // the datasheet's 2.4 ms warm-up after PON
    await this.writeRegister(ENABLE, PON | AEN);
    // Firmata does not confirm writes: wait for the first integration to
    // complete, which also shows the part really measures.
    const deadline = performance.now() + this.integrationMs * 4 + 50;
    for (let attempt = 1; ; attempt++) {
      await sleep(this.integrationMs);
      const status = (await this.readRegisters(STATUS, 1))[0]!;
      if ((status & AVALID) !== 0) return id;
      // A few reads at least: on a busy host one round trip can outlast the deadline.
      if (performance.now() > deadline && attempt >= 4) {
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
    return this.decode(await this.readRegisters(CDATAL, 8));
  }

  /**
   * A reading of what lay under the sensor from `sinceMs` on (default now,
   * on performance.now()'s clock): waits until an integration that began
   * after it has completed (at most two cycles after it). With a budget, a
   * saturated or dim reading is taken again at a better setting while one
   * can complete within the budget; the reading returned is the last one,
   * scaled to the reference setting, its `range` saying whether it is usable.
   */
  async readFresh(
    sinceMs = performance.now(),
    options: ReadOptions = {},
  ): Promise<Tcs34725Reading> {
    await sleep(sinceMs + Math.ceil(this.integrationMs * 2) + 1 - performance.now());
    // AVALID was seen in begin(): the data registers go straight, saving a round trip.
    let raw = this.decode(await this.readRegisters(CDATAL, 8));
    const deadline = sinceMs + (options.budgetMs ?? 0);
    let setting = this.current;
    for (let steps = 0; options.budgetMs !== undefined && steps < LADDER.length; steps++) {
      const next = nextSetting(raw, setting);
      if (!next) break;
      // Restart, one init cycle, one integration, the writes and the read.
      const cost = TCS34725_CYCLE_MS * (1 + next.cycles) + 2 * this.readMs;
      if (performance.now() + cost > deadline) {
        // No time for this card; the next one starts at the better setting.
        await this.apply(next);
        break;
      }
      await this.apply(next);
      setting = next;
      raw = await this.measure(next);
    }
    return this.reading(raw, setting);
  }

  /** A reading at `setting`, as `readFresh` gives it, for a reading taken elsewhere. */
  reading(raw: Rgbc, setting: Tcs34725Setting): Tcs34725Reading {
    const factor = sensitivity(TCS34725_REFERENCE) / sensitivity(setting);
    return {
      ...toReference(raw, setting),
      raw,
      setting,
      range: {
        dark: maxCount(setting) * DARK_FRACTION * factor,
        saturated: maxCount(setting) * factor,
      },
    };
  }

  /**
   * Switches to `setting`. RGBC is restarted (AEN off, on) so AVALID means
   * an integration at the new setting completed ("since AEN was asserted"):
   * a reading never mixes two settings, however late the writes reach the
   * part.
   */
  private async apply(setting: Tcs34725Setting): Promise<void> {
    await this.guard(() =>
      this.bus.write(
        this.address,
        Uint8Array.of(COMMAND | AUTO_INCREMENT | ENABLE, PON, 256 - setting.cycles),
      ),
    );
    await this.writeRegister(CONTROL, GAIN_BITS[setting.gain]);
    await this.writeRegister(ENABLE, PON | AEN);
    this.current = setting;
  }

  /** The first integration at `setting`, just applied. */
  private async measure(setting: Tcs34725Setting): Promise<Rgbc> {
    const integration = TCS34725_CYCLE_MS * setting.cycles;
    await sleep(TCS34725_CYCLE_MS + integration + 1);
    for (let attempt = 0; ; attempt++) {
      // STATUS and the four channels are consecutive: AVALID and the data in one read.
      const bytes = await this.readRegisters(STATUS, 9);
      if ((bytes[0]! & AVALID) !== 0) return this.decode(bytes.subarray(1));
      if (attempt >= 4) {
        throw new HardwareError(
          'part_failed',
          `colour sensor at I2C 0x${this.address.toString(16)} completes no measurement after a gain change (AVALID stays clear): check its power; replace it if it persists`,
        );
      }
      await sleep(integration);
    }
  }

  private decode(bytes: Uint8Array): Rgbc {
    const word = (index: number) => bytes[index]! | (bytes[index + 1]! << 8);
    return { c: word(0), r: word(2), g: word(4), b: word(6) };
  }

  private async writeRegister(register: number, value: number): Promise<void> {
    await this.guard(() => this.bus.write(this.address, Uint8Array.of(COMMAND | register, value)));
  }

  private async readRegisters(register: number, length: number): Promise<Uint8Array> {
    return this.guard(async () => {
      const started = performance.now();
      await this.bus.write(this.address, Uint8Array.of(COMMAND | AUTO_INCREMENT | register));
      const bytes = await this.bus.read(this.address, length);
      if (bytes.length !== length) {
        throw new Error(`${bytes.length} of ${length} bytes`);
      }
      this.readMs = performance.now() - started;
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
