/**
 * A Microchip ATECC608 secure element at the I2C level, written from its
 * datasheet (DS40001977 and the CryptoAuthentication I2C interface notes),
 * never from tableside's driver:
 *
 * - Asleep it NACKs everything. A wake pulse (SDA low ≥ 60 µs: the master
 *   writes 0x00 to the general-call address 0x00 at 100 kHz, see
 *   `EmulatedI2cWire`) wakes it; it NACKs for tWHI = 1.5 ms, then a read
 *   returns the wake status `04 11 33 43`. The watchdog puts it back to
 *   sleep 1.3 s after waking, losing TempKey.
 * - A write starts with a word address: 0x00 reset (read pointer back to
 *   the start of the output buffer), 0x01 sleep, 0x02 idle, 0x03 command.
 * - A command packet is count, opcode, param1, param2 (LE), data, CRC-16
 *   (polynomial 0x8005, initial 0, data bits LSB first, sent LSB first),
 *   count covering itself through the CRC. While a command executes the
 *   part NACKs its address (the maximum execution times below); then a read
 *   returns count, data, CRC. Status packets: 0x00 success, 0x03 parse
 *   error, 0x0F execution error, 0xFF CRC or communication error.
 * - Commands: Random 0x1B (32 random bytes), Nonce 0x16 (mode 0/1: 20-byte
 *   NumIn, returns RandOut, TempKey = SHA-256(RandOut‖NumIn‖0x16‖mode‖0x00);
 *   mode 3: 32-byte pass-through into TempKey), GenKey 0x40 (mode 0x04: new
 *   private key in the slot, mode 0x00: its public key; 64 bytes X‖Y), Sign
 *   0x41 (mode 0x80: ECDSA P-256 of the external message in TempKey, which
 *   must come from a pass-through Nonce; 64 bytes R‖S; TempKey is consumed).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { I2cSlave } from './i2c-slave.ts';
import { type P256KeyPair, p256Generate, p256Public, p256SignDigest } from './p256.ts';

export const ATECC608_ADDRESS = 0x60;

/** Maximum execution times, ms (ATECC608 datasheet, command execution times). */
export const EXECUTION_MS: Readonly<Record<number, number>> = {
  27: 23,
  22: 7,
  64: 115,
  65: 115,
};
const WAKE_HIGH_MS = 1.5;
const WATCHDOG_MS = 1300;

export const STATUS = {
  success: 0x00,
  parseError: 0x03,
  executionError: 0x0f,
  afterWake: 0x11,
  crcError: 0xff,
} as const;

/** The datasheet's CRC-16: polynomial 0x8005, register 0, each byte's bits LSB first. */
export function ateccCrc(bytes: Uint8Array): [number, number] {
  let crc = 0;
  for (const byte of bytes) {
    for (let bit = 0; bit < 8; bit++) {
      const dataBit = (byte >> bit) & 1;
      const crcBit = (crc >> 15) & 1;
      crc = (crc << 1) & 0xffff;
      if (dataBit !== crcBit) crc ^= 0x8005;
    }
  }
  return [crc & 0xff, crc >> 8];
}

function packet(data: readonly number[]): Uint8Array {
  const body = [data.length + 3, ...data];
  return new Uint8Array([...body, ...ateccCrc(new Uint8Array(body))]);
}

export interface Atecc608Options {
  /** Slots configured as P-256 private keys (default 0..7). */
  keySlots?: readonly number[];
}

export class EmulatedAtecc608 implements I2cSlave {
  readonly address = ATECC608_ADDRESS;
  /** What happened, for tests: `wake`, `sleep`, `cmd 0x41`, `nack busy`... */
  readonly log: string[] = [];
  private state: 'sleep' | 'awake' | 'idle' = 'sleep';
  private awakeAt = 0;
  private busyUntil = 0;
  private output: Uint8Array = new Uint8Array();
  private readPointer = 0;
  private tempKey: { value: Uint8Array; passThrough: boolean } | undefined;
  private readonly keys = new Map<number, P256KeyPair>();
  private readonly keySlots: ReadonlySet<number>;

  constructor(options: Atecc608Options = {}) {
    this.keySlots = new Set(options.keySlots ?? [0, 1, 2, 3, 4, 5, 6, 7]);
  }

  /** Provisioning at the factory: a key already in a slot. */
  provision(slot: number, privateKey: bigint): Uint8Array {
    this.keys.set(slot, { privateKey, publicKey: p256Public(privateKey) });
    return p256Public(privateKey);
  }

  get asleep(): boolean {
    return this.state === 'sleep';
  }

  /** SDA held low long enough: wakes from sleep or idle. */
  wake(atMs: number): void {
    this.checkWatchdog(atMs);
    if (this.state === 'awake') return;
    if (this.state === 'sleep') this.tempKey = undefined;
    this.state = 'awake';
    this.awakeAt = atMs;
    this.busyUntil = atMs + WAKE_HIGH_MS;
    this.setOutput(packet([STATUS.afterWake]));
    this.log.push('wake');
  }

  write(bytes: Uint8Array, atMs: number): boolean {
    this.checkWatchdog(atMs);
    if (this.state !== 'awake' || atMs < this.busyUntil) {
      this.log.push(this.state === 'awake' ? 'nack busy' : 'nack asleep');
      return false;
    }
    const word = bytes[0];
    switch (word) {
      case 0x00:
        this.readPointer = 0;
        return true;
      case 0x01:
        this.state = 'sleep';
        this.tempKey = undefined;
        this.log.push('sleep');
        return true;
      case 0x02:
        this.state = 'idle';
        this.log.push('idle');
        return true;
      case 0x03:
        this.command(bytes.subarray(1), atMs);
        return true;
      default:
        // An unknown word address: the part ACKs the byte and ignores it.
        return true;
    }
  }

  read(length: number, atMs: number): Uint8Array | undefined {
    this.checkWatchdog(atMs);
    if (this.state !== 'awake' || atMs < this.busyUntil) {
      this.log.push(this.state === 'awake' ? 'nack busy' : 'nack asleep');
      return undefined;
    }
    const out = new Uint8Array(length).fill(0xff);
    const available = this.output.subarray(this.readPointer, this.readPointer + length);
    out.set(available);
    this.readPointer += available.length;
    return out;
  }

  private checkWatchdog(atMs: number): void {
    if (this.state === 'awake' && atMs - this.awakeAt >= WATCHDOG_MS) {
      this.state = 'sleep';
      this.tempKey = undefined;
      this.log.push('watchdog');
    }
  }

  private setOutput(bytes: Uint8Array): void {
    this.output = bytes;
    this.readPointer = 0;
  }

  private command(bytes: Uint8Array, atMs: number): void {
    const count = bytes[0] ?? 0;
    if (count < 7 || bytes.length !== count) {
      this.setOutput(packet([STATUS.crcError]));
      this.log.push('bad length');
      return;
    }
    const [crcLow, crcHigh] = ateccCrc(bytes.subarray(0, count - 2));
    if (bytes[count - 2] !== crcLow || bytes[count - 1] !== crcHigh) {
      this.setOutput(packet([STATUS.crcError]));
      this.log.push('bad crc');
      return;
    }
    const opcode = bytes[1]!;
    const mode = bytes[2]!;
    const param2 = bytes[3]! | (bytes[4]! << 8);
    const data = bytes.subarray(5, count - 2);
    this.log.push(`cmd 0x${opcode.toString(16).padStart(2, '0')}`);
    const result = this.execute(opcode, mode, param2, data);
    this.setOutput(packet(result));
    this.busyUntil = atMs + (EXECUTION_MS[opcode] ?? 1);
  }

  private execute(opcode: number, mode: number, param2: number, data: Uint8Array): number[] {
    switch (opcode) {
      case 0x1b:
        if (data.length !== 0 || param2 !== 0) return [STATUS.parseError];
        return [...randomBytes(32)];
      case 0x16:
        return this.nonce(mode, data);
      case 0x40: {
        if (!this.keySlots.has(param2) || (mode !== 0x04 && mode !== 0x00) || data.length !== 0) {
          return [STATUS.parseError];
        }
        if (mode === 0x04) this.keys.set(param2, p256Generate());
        const key = this.keys.get(param2);
        if (key === undefined) return [STATUS.executionError];
        return [...key.publicKey];
      }
      case 0x41: {
        if (mode !== 0x80 || data.length !== 0 || !this.keySlots.has(param2))
          return [STATUS.parseError];
        const key = this.keys.get(param2);
        const message = this.tempKey;
        if (key === undefined || message === undefined || !message.passThrough) {
          return [STATUS.executionError];
        }
        this.tempKey = undefined;
        return [...p256SignDigest(key.privateKey, message.value)];
      }
      default:
        return [STATUS.parseError];
    }
  }

  private nonce(mode: number, data: Uint8Array): number[] {
    if (mode === 0x03) {
      if (data.length !== 32) return [STATUS.parseError];
      this.tempKey = { value: new Uint8Array(data), passThrough: true };
      return [STATUS.success];
    }
    if ((mode === 0x00 || mode === 0x01) && data.length === 20) {
      const randOut = randomBytes(32);
      const value = createHash('sha256')
        .update(randOut)
        .update(data)
        .update(Uint8Array.from([0x16, mode, 0x00]))
        .digest();
      this.tempKey = { value: new Uint8Array(value), passThrough: false };
      return [...randOut];
    }
    return [STATUS.parseError];
  }
}
