/**
 * Driver of the Microchip ATECC608 secure element that holds the key of a
 * device built on tableside's firmware (PROTOCOL.md § 5). It is a
 * `DeviceSigner`: `publicKey()` (GenKey, public mode) and `sign(digest)`
 * (Nonce pass-through of SHA-256(digest) into TempKey, then Sign of that
 * external message), ECDSA P-256. The private key never leaves the chip.
 *
 * Each operation wakes the chip (a 0x00 write to the general-call address
 * holds SDA low long enough; the chip then answers `04 11 33 43`), sends
 * command packets (word address 0x03, count, opcode, param1, param2 LE,
 * data, CRC-16 poly 0x8005 LSB first), waits each command's maximum
 * execution time and polls while the chip NACKs, and puts it to sleep
 * (word address 0x01) so the watchdog never fires mid-command.
 */
import { createHash } from 'node:crypto';
import { compressP256, type DevicePublicKey } from '../../device-protocol/auth/keys.ts';
import { HardwareError } from '../errors.ts';
import type { DeviceSigner } from '../keys/device-key.ts';
import type { I2cBus } from './bus.ts';

export const ATECC608_DEFAULT_ADDRESS = 0x60;

const OPCODE = { random: 0x1b, nonce: 0x16, genKey: 0x40, sign: 0x41 } as const;
/** Maximum execution time of each opcode, ms (datasheet). */
const EXECUTION_MS: Readonly<Record<number, number>> = {
  [OPCODE.random]: 23,
  [OPCODE.nonce]: 7,
  [OPCODE.genKey]: 115,
  [OPCODE.sign]: 115,
};
const WAKE_STATUS = [0x04, 0x11, 0x33, 0x43];
/** tWHI: the chip needs 1.5 ms after the wake pulse. */
const WAKE_DELAY_MS = 2;
const POLL_MS = 2;
const POLLS = 20;

const STATUS_TEXT: Readonly<Record<number, string>> = {
  1: 'verify miscompare',
  3: 'parse error',
  5: 'ECC fault',
  7: 'self-test error',
  8: 'health test error',
  15: 'execution error',
  17: 'awake, no command yet',
  238: 'watchdog about to expire',
  255: 'CRC or communication error',
};

/** CRC-16 of the ATECC command set: polynomial 0x8005, initial 0, bits LSB first; [low, high]. */
export function atecc608Crc(bytes: Uint8Array): [number, number] {
  let register = 0;
  for (const byte of bytes) {
    for (let mask = 1; mask < 0x100; mask <<= 1) {
      const feedback = ((byte & mask) !== 0 ? 1 : 0) ^ (register >>> 15);
      register = ((register << 1) & 0xffff) ^ (feedback ? 0x8005 : 0);
    }
  }
  return [register & 0xff, register >>> 8];
}

/** A command packet after word address 0x03. */
export function atecc608Command(
  opcode: number,
  param1: number,
  param2: number,
  data: Uint8Array = new Uint8Array(),
): Uint8Array {
  const body = new Uint8Array(5 + data.length);
  body.set([7 + data.length, opcode, param1, param2 & 0xff, param2 >> 8]);
  body.set(data, 5);
  const [low, high] = atecc608Crc(body);
  return Uint8Array.from([0x03, ...body, low, high]);
}

export interface Atecc608Options {
  bus: I2cBus;
  /** 7-bit address (0x60 as shipped). */
  address?: number;
  /** The slot holding the device's P-256 private key. */
  slot?: number;
  /** Waits; injectable so an emulated bus can run on its own clock. */
  delay?: (ms: number) => Promise<void>;
  /**
   * The most bytes the bus reads in one transaction (Firmata: 32, its Wire
   * buffer); a longer response is read in pieces, which the chip allows: its
   * output buffer's read pointer moves on with each byte read.
   */
  maxReadBytes?: number;
}

export class Atecc608 implements DeviceSigner {
  readonly keyType = 'p256' as const;
  readonly address: number;
  readonly slot: number;
  private readonly bus: I2cBus;
  private readonly delay: (ms: number) => Promise<void>;
  private readonly maxReadBytes: number;
  private cachedKey: DevicePublicKey | undefined;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(options: Atecc608Options) {
    this.bus = options.bus;
    this.address = options.address ?? ATECC608_DEFAULT_ADDRESS;
    this.slot = options.slot ?? 0;
    if (!Number.isInteger(this.slot) || this.slot < 0 || this.slot > 15) {
      throw new HardwareError('bad_options', `ATECC608 slot ${this.slot}: expected 0-15`);
    }
    this.delay = options.delay ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.maxReadBytes = options.maxReadBytes ?? Number.POSITIVE_INFINITY;
    if (!(this.maxReadBytes >= 4)) {
      throw new HardwareError(
        'bad_options',
        `ATECC608 maxReadBytes ${this.maxReadBytes}: a status packet alone is 4 bytes`,
      );
    }
  }

  /** 32 random bytes from the chip's generator. */
  random(): Promise<Uint8Array> {
    return this.session(() => this.execute('Random', OPCODE.random, 0x00, 0, 32));
  }

  /**
   * Makes a new key pair in the slot (provisioning; a key rotation) and
   * returns its public key. The old private key is gone for good.
   */
  generateKey(): Promise<DevicePublicKey> {
    return this.session(async () => {
      const xy = await this.execute('GenKey', OPCODE.genKey, 0x04, this.slot, 64);
      this.cachedKey = { type: 'p256', raw: compressP256(expectLength('GenKey', xy, 64)) };
      return this.cachedKey;
    });
  }

  async publicKey(): Promise<DevicePublicKey> {
    if (this.cachedKey !== undefined) return this.cachedKey;
    return this.session(async () => {
      const xy = await this.execute('GenKey', OPCODE.genKey, 0x00, this.slot, 64);
      this.cachedKey = { type: 'p256', raw: compressP256(expectLength('GenKey', xy, 64)) };
      return this.cachedKey;
    });
  }

  sign(digest: Uint8Array): Promise<Uint8Array> {
    if (digest.length !== 32) {
      return Promise.reject(new RangeError(`expected a 32-byte digest, got ${digest.length}`));
    }
    // ECDSA with SHA-256 over the digest (PROTOCOL.md § 5.2): the chip signs the hash it is given.
    const message = new Uint8Array(createHash('sha256').update(digest).digest());
    return this.session(async () => {
      const loaded = await this.execute('Nonce', OPCODE.nonce, 0x03, 0, 1, message);
      if (loaded.length !== 1 || loaded[0] !== 0x00) throw this.fault('Nonce', loaded[0] ?? 0xff);
      return expectLength('Sign', await this.execute('Sign', OPCODE.sign, 0x80, this.slot, 64), 64);
    });
  }

  /** Wake, run `work`, sleep; one at a time. */
  private session<T>(work: () => Promise<T>): Promise<T> {
    const run = async () => {
      await this.wake();
      try {
        return await work();
      } finally {
        // Sleep is a courtesy: a chip left awake sleeps by its own watchdog.
        await this.bus.write(this.address, Uint8Array.of(0x01)).catch(() => undefined);
      }
    };
    const result = this.chain.then(run, run);
    // The chain only orders commands: each caller gets its own failure from `result`.
    this.chain = result.catch(() => undefined);
    return result;
  }

  private async wake(): Promise<void> {
    // The general call is NACKed by design: the pulse is what matters.
    await this.bus.write(0x00, Uint8Array.of(0x00)).catch(() => undefined);
    await this.delay(WAKE_DELAY_MS);
    // No status yet is handled below: the wake token is tried another way.
    let status = await this.poll(4).catch(() => undefined);
    if (status === undefined) {
      // A bus that cannot address 0x00: the wake token written to the chip's own address
      // (SDA low through its address byte); to an awake chip it is word address 0x00, reset.
      await this.bus.write(this.address, Uint8Array.of(0x00)).catch(() => undefined);
      await this.delay(WAKE_DELAY_MS);
      status = await this.poll(4);
    }
    if (!WAKE_STATUS.every((byte, index) => status[index] === byte)) {
      throw new HardwareError(
        'secure_element',
        `ATECC608 at 0x${this.address.toString(16)}: no wake status (got ${hex(status)}, expected 04 11 33 43)`,
      );
    }
  }

  private async poll(length: number): Promise<Uint8Array> {
    let lastError: unknown;
    for (let attempt = 0; attempt < POLLS; attempt++) {
      try {
        return await this.bus.read(this.address, length);
      } catch (error) {
        lastError = error;
        await this.delay(POLL_MS);
      }
    }
    throw new HardwareError(
      'secure_element',
      `ATECC608 at 0x${this.address.toString(16)} does not answer: ${(lastError as Error)?.message ?? 'no acknowledge'}`,
    );
  }

  /**
   * Sends one command and returns its response data (`dataLength` bytes, or
   * a 1-byte status for a status-only reply). The response is read in one
   * transaction of the full expected length; its count byte says how much
   * of it is the packet (a status packet is 4 bytes).
   */
  private async execute(
    name: string,
    opcode: number,
    param1: number,
    param2: number,
    dataLength: number,
    data?: Uint8Array,
  ): Promise<Uint8Array> {
    for (let attempt = 1; ; attempt++) {
      await this.bus.write(this.address, atecc608Command(opcode, param1, param2, data));
      await this.delay(EXECUTION_MS[opcode] ?? 1);
      const read = await this.readResponse(Math.max(4, dataLength + 3));
      const count = read[0]!;
      if (count < 4 || count > read.length) {
        throw new HardwareError('secure_element', `ATECC608 ${name}: bad response count ${count}`);
      }
      const response = read.subarray(0, count);
      const [low, high] = atecc608Crc(response.subarray(0, count - 2));
      if (response[count - 2] !== low || response[count - 1] !== high) {
        if (attempt < 2) continue;
        throw new HardwareError('secure_element', `ATECC608 ${name}: response CRC does not match`);
      }
      const payload = response.subarray(1, count - 2);
      if (count === 4 && payload[0] !== 0x00) {
        // 0xFF: the chip saw a bad CRC in our packet (line noise); send it once more.
        if (payload[0] === 0xff && attempt < 2) continue;
        throw this.fault(name, payload[0]!);
      }
      return new Uint8Array(payload);
    }
  }

  /**
   * Reads a response of at most `expected` bytes: in one transaction when the
   * bus allows, else its first piece (whose count byte says how long the
   * packet is) and then the rest of the packet, piece by piece.
   */
  private async readResponse(expected: number): Promise<Uint8Array> {
    const first = await this.poll(Math.min(expected, this.maxReadBytes));
    const count = first[0]!;
    if (first.length >= expected || count <= first.length || count > expected) return first;
    const whole = new Uint8Array(count);
    whole.set(first);
    for (let got = first.length; got < count; ) {
      const piece = await this.poll(Math.min(count - got, this.maxReadBytes));
      whole.set(piece, got);
      got += piece.length;
    }
    return whole;
  }

  private fault(name: string, status: number): HardwareError {
    return new HardwareError(
      'secure_element',
      `ATECC608 ${name}: status 0x${status.toString(16).padStart(2, '0')} (${STATUS_TEXT[status] ?? 'unknown'})`,
    );
  }
}

function expectLength(name: string, bytes: Uint8Array, length: number): Uint8Array {
  if (bytes.length !== length) {
    throw new HardwareError(
      'secure_element',
      `ATECC608 ${name}: ${bytes.length} bytes, expected ${length}`,
    );
  }
  return bytes;
}

function hex(bytes: Uint8Array): string {
  return [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join(' ');
}
