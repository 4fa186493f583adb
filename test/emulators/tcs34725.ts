/**
 * An ams TCS34725 colour sensor on the I2C bus (address 0x29), emulated from
 * its datasheet (ams TCS3472 DS000390), not from tableside's driver:
 *
 * - the command byte: bit 7 CMD set, bits 6:5 TYPE (00 repeated byte,
 *   01 auto-increment, 11 special function), bits 4:0 the register address;
 *   further bytes of the same write go to the registers from that address;
 * - registers: ENABLE 0x00 (PON bit 0, AEN bit 1, WEN bit 3, AIEN bit 4),
 *   ATIME 0x01, WTIME 0x03, CONFIG 0x0D, CONTROL 0x0F (AGAIN 1x/4x/16x/60x),
 *   ID 0x12 (0x44 for the TCS34725), STATUS 0x13 (AVALID bit 0), and the
 *   16-bit CDATA RDATA GDATA BDATA at 0x14-0x1B, low byte first; reading a
 *   low byte latches its high byte in a shadow register;
 * - timing: PON then 2.4 ms before the first RGBC cycle; each integration
 *   lasts 2.4 ms x (256 - ATIME); AVALID is set when the first completes;
 *   a channel counts at most 1024 x (256 - ATIME), and 65535.
 *
 * The light it sees is a surface the test places (counts per 2.4 ms cycle at
 * 1x gain, per channel); a completed integration reports the surface that
 * lay there when it began, so a fresh card needs a whole cycle.
 */
import type { I2cSlave } from './i2c-slave.ts';

export const TCS34725_ADDRESS = 0x29;
const CYCLE_MS = 2.4;
const GAINS = [1, 4, 16, 60] as const;

const REG = {
  ENABLE: 0x00,
  ATIME: 0x01,
  CONTROL: 0x0f,
  ID: 0x12,
  STATUS: 0x13,
  CDATAL: 0x14,
} as const;

/** Counts per 2.4 ms cycle at 1x gain, per channel. */
export interface Surface {
  readonly c: number;
  readonly r: number;
  readonly g: number;
  readonly b: number;
}

/** Typical surfaces under the wiring page's white LED. */
export const SURFACES = {
  /** An empty shoe mouth: dark. */
  none: { c: 4, r: 2, g: 1, b: 1 },
  redBack: { c: 60, r: 40, g: 10, b: 10 },
  blueBack: { c: 55, r: 8, g: 15, b: 32 },
  face: { c: 200, r: 68, g: 66, b: 64 },
  /** A yellow plastic cut card. */
  cutCard: { c: 120, r: 55, g: 50, b: 12 },
  /** Something no calibration matches: a green card. */
  green: { c: 60, r: 10, g: 40, b: 10 },
  /** A red back nearer the sensor or under a brighter LED: past full scale at 4x, 4 cycles. */
  brightRedBack: { c: 400, r: 266, g: 67, b: 67 },
  /** A dark blue back: 64 counts at 4x, 4 cycles, too few to tell from an empty mouth. */
  darkBlueBack: { c: 4, r: 0.6, g: 1.1, b: 2.3 },
  /** Light that saturates even 1x and one cycle: the sensor touching a mirror-bright card. */
  blinding: { c: 2000, r: 1000, g: 500, b: 500 },
} as const satisfies Record<string, Surface>;

export class Tcs34725Emulator implements I2cSlave {
  readonly address: number;
  private readonly registers = new Uint8Array(0x20);
  private pointer = 0;
  private autoIncrement = false;
  private shadowHigh = 0;
  /** When RGBC cycles (re)started: AEN set, or ATIME changed while enabled. */
  private cyclesFrom: number | undefined;
  private readonly surfaces: Array<{ atMs: number; surface: Surface }> = [
    { atMs: Number.NEGATIVE_INFINITY, surface: SURFACES.none },
  ];
  private answering = true;
  /** I2C transactions seen (for tests of the driver's traffic). */
  transactions = 0;

  constructor(options: { address?: number; id?: number } = {}) {
    this.address = options.address ?? TCS34725_ADDRESS;
    this.registers[REG.ATIME] = 0xff;
    this.registers[REG.ID] = options.id ?? 0x44;
  }

  /** Puts a surface under the sensor from `atMs` on. */
  place(surface: Surface, atMs: number): void {
    this.surfaces.push({ atMs, surface });
    if (this.surfaces.length > 64) this.surfaces.splice(1, this.surfaces.length - 64);
  }

  /** The sensor stops acknowledging its address (unplugged, dead). */
  setAnswering(answering: boolean): void {
    this.answering = answering;
  }

  write(bytes: Uint8Array, atMs: number): boolean {
    if (!this.answering) return false;
    this.transactions++;
    if (bytes.length === 0) return true;
    const command = bytes[0]!;
    if ((command & 0x80) === 0) return false; // CMD bit must be set
    const type = (command >> 5) & 0x03;
    if (type === 0b11) return true; // special function: clear the interrupt; nothing to emulate
    this.pointer = command & 0x1f;
    this.autoIncrement = type === 0b01;
    for (const value of bytes.subarray(1)) {
      this.writeRegister(this.pointer, value, atMs);
      if (this.autoIncrement) this.pointer = (this.pointer + 1) & 0x1f;
    }
    return true;
  }

  read(length: number, atMs: number): Uint8Array | undefined {
    if (!this.answering) return undefined;
    this.transactions++;
    const out = new Uint8Array(length);
    for (let index = 0; index < length; index++) {
      out[index] = this.readRegister(this.pointer, atMs);
      if (this.autoIncrement) this.pointer = (this.pointer + 1) & 0x1f;
    }
    return out;
  }

  private writeRegister(address: number, value: number, atMs: number): void {
    if (address === REG.ID || address === REG.STATUS || address >= REG.CDATAL) return; // read-only
    const before = this.registers[address]!;
    this.registers[address] = value;
    if (address === REG.ENABLE) {
      const wasOn = (before & 0x03) === 0x03;
      const isOn = (value & 0x03) === 0x03;
      if (isOn && !wasOn) this.cyclesFrom = atMs + CYCLE_MS;
      if (!isOn) this.cyclesFrom = undefined;
    }
    if (address === REG.ATIME && this.cyclesFrom !== undefined) this.cyclesFrom = atMs;
  }

  private integrationMs(): number {
    return CYCLE_MS * (256 - this.registers[REG.ATIME]!);
  }

  /** Start time of the latest integration completed by `atMs`, if any. */
  private lastCompleted(atMs: number): number | undefined {
    if (this.cyclesFrom === undefined) return undefined;
    const period = this.integrationMs();
    const done = Math.floor((atMs - this.cyclesFrom) / period);
    if (done < 1) return undefined;
    return this.cyclesFrom + (done - 1) * period;
  }

  private surfaceAt(atMs: number): Surface {
    let current = this.surfaces[0]!.surface;
    for (const entry of this.surfaces) {
      if (entry.atMs <= atMs) current = entry.surface;
      else break;
    }
    return current;
  }

  private channel(index: number, atMs: number): number {
    const started = this.lastCompleted(atMs);
    if (started === undefined) return 0;
    const surface = this.surfaceAt(started);
    const perCycle = [surface.c, surface.r, surface.g, surface.b][index]!;
    const cycles = 256 - this.registers[REG.ATIME]!;
    const gain = GAINS[this.registers[REG.CONTROL]! & 0x03]!;
    return Math.min(Math.round(perCycle * cycles * gain), 1024 * cycles, 65535);
  }

  private readRegister(address: number, atMs: number): number {
    if (address === REG.STATUS) return this.lastCompleted(atMs) === undefined ? 0 : 0x01;
    if (address >= REG.CDATAL && address <= REG.CDATAL + 7) {
      const offset = address - REG.CDATAL;
      if (offset % 2 === 0) {
        const value = this.channel(offset / 2, atMs);
        this.shadowHigh = value >> 8;
        return value & 0xff;
      }
      return this.shadowHigh;
    }
    return this.registers[address] ?? 0;
  }
}
