/**
 * An I2C bus of emulated parts on a virtual clock, as a part driver sees it
 * (`I2cBus`): a write or read to an address no part answers, or that the
 * part NACKs, rejects like a real bus. A write to the general-call address
 * 0x00 holds SDA low for a byte time at 100 kHz: the wake pulse of parts
 * that have one (the ATECC608). `delay(ms)` advances the clock, so a driver
 * given it waits execution times without the test waiting them.
 */
import type { I2cBus } from '../../hardware/i2c/bus.ts';
import type { I2cSlave } from './i2c-slave.ts';

interface Wakeable {
  wake(atMs: number): void;
}

export class EmulatedI2cWire implements I2cBus {
  nowMs = 0;
  readonly transactions: string[] = [];
  private readonly slaves = new Map<number, I2cSlave>();

  constructor(slaves: readonly I2cSlave[]) {
    for (const slave of slaves) this.slaves.set(slave.address, slave);
  }

  readonly delay = async (ms: number): Promise<void> => {
    this.nowMs += ms;
  };

  async write(address: number, bytes: Uint8Array): Promise<void> {
    const hex = Buffer.from(bytes).toString('hex');
    if (address === 0x00) {
      for (const slave of this.slaves.values()) {
        if ('wake' in slave) (slave as unknown as Wakeable).wake(this.nowMs);
      }
      this.transactions.push(`W 00 ${hex} (general call, NACK)`);
      throw new Error('I2C general call 0x00: no acknowledge');
    }
    const slave = this.slaves.get(address);
    const acked = slave?.write(bytes, this.nowMs) ?? false;
    this.transactions.push(`W ${address.toString(16)} ${hex}${acked ? '' : ' NACK'}`);
    // A byte at 100 kHz is 90 µs on the wire.
    this.nowMs += (bytes.length + 1) * 0.09;
    if (!acked) throw new Error(`I2C write to 0x${address.toString(16)}: no acknowledge`);
  }

  async read(address: number, length: number): Promise<Uint8Array> {
    const slave = this.slaves.get(address);
    const bytes = slave?.read(length, this.nowMs);
    this.nowMs += (length + 1) * 0.09;
    if (bytes === undefined) {
      this.transactions.push(`R ${address.toString(16)} ${length} NACK`);
      throw new Error(`I2C read from 0x${address.toString(16)}: no acknowledge`);
    }
    this.transactions.push(`R ${address.toString(16)} ${Buffer.from(bytes).toString('hex')}`);
    return bytes;
  }
}
