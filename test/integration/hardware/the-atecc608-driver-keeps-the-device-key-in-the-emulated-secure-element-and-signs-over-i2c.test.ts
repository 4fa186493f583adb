/**
 * The secure-element driver against an ATECC608 emulated at the I2C level
 * from its datasheet: wake and its 04 11 33 43 status, command packets with
 * the 0x8005 CRC, execution times (the chip NACKs while busy), status
 * packets, the watchdog, and signatures a P-256 verifier accepts.
 */
import { createHash, createPublicKey, verify } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keyFingerprint, verifyDigestSignature } from '../../../device-protocol/auth/keys.ts';
import { isHardwareError } from '../../../hardware/errors.ts';
import { Atecc608, atecc608Command, atecc608Crc } from '../../../hardware/i2c/atecc608.ts';
import type { I2cBus } from '../../../hardware/i2c/bus.ts';
import { ateccCrc, EmulatedAtecc608 } from '../../emulators/atecc608.ts';
import { EmulatedI2cWire } from '../../emulators/i2c-wire.ts';

function rig(options: { keySlots?: number[] } = {}) {
  const chip = new EmulatedAtecc608(options);
  const wire = new EmulatedI2cWire([chip]);
  const driver = new Atecc608({ bus: wire, delay: wire.delay });
  return { chip, wire, driver };
}

const digest = new Uint8Array(createHash('sha256').update('a statement').digest());

describe('ATECC608 secure element over I2C', () => {
  it('computes the datasheet CRC on both sides: the Random packet is 07 1B 00 00 00 24 CD', () => {
    expect(Buffer.from(atecc608Command(0x1b, 0, 0)).toString('hex')).toBe('03071b00000024cd');
    expect(atecc608Crc(Uint8Array.of(0x04, 0x11))).toEqual([0x33, 0x43]);
    expect(ateccCrc(Uint8Array.of(0x04, 0x11))).toEqual([0x33, 0x43]);
  });

  it('is asleep until the wake pulse, then answers 04 11 33 43 after tWHI', async () => {
    const { chip, wire } = rig();
    await expect(wire.read(0x60, 4)).rejects.toThrow(/no acknowledge/);
    await wire.write(0x00, Uint8Array.of(0)).catch(() => undefined);
    await expect(wire.read(0x60, 4)).rejects.toThrow(/no acknowledge/); // within 1.5 ms
    await wire.delay(1.5);
    expect([...(await wire.read(0x60, 4))]).toEqual([0x04, 0x11, 0x33, 0x43]);
    expect(chip.log).toEqual(['nack asleep', 'wake', 'nack busy']);
  });

  it('makes a key, gives its public key again later, and signs digests a P-256 verifier accepts', async () => {
    const { driver, wire, chip } = rig();
    const made = await driver.generateKey();
    expect(made.type).toBe('p256');
    expect(made.raw).toHaveLength(33);
    // A fresh driver (after a reboot) reads the same public key back from the slot.
    const again = await new Atecc608({ bus: wire, delay: wire.delay }).publicKey();
    expect(keyFingerprint(again)).toBe(keyFingerprint(made));
    const signature = await driver.sign(digest);
    expect(signature).toHaveLength(64);
    expect(verifyDigestSignature(made, digest, signature)).toBe(true);
    const other = new Uint8Array(digest);
    other[0]! ^= 1;
    expect(verifyDigestSignature(made, other, signature)).toBe(false);
    // The driver talks in whole sessions: wake, commands, sleep.
    expect(chip.log.filter((entry) => entry.startsWith('cmd'))).toEqual([
      'cmd 0x40',
      'cmd 0x40',
      'cmd 0x16',
      'cmd 0x41',
    ]);
    expect(chip.log.at(-1)).toBe('sleep');
    expect(chip.asleep).toBe(true);
    expect(wire.transactions).toContain('W 00 00 (general call, NACK)');
  });

  it('signs ECDSA-SHA256 over the digest, as node verifies it with the uncompressed key', async () => {
    const { driver, chip } = rig();
    const xy = chip.provision(2, 0x1234567890abcdefn);
    const slotTwo = new Atecc608({
      bus: (driver as unknown as { bus: I2cBus }).bus,
      slot: 2,
      delay: (driver as unknown as { delay: (ms: number) => Promise<void> }).delay,
    });
    const signature = await slotTwo.sign(digest);
    const key = createPublicKey({
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: Buffer.from(xy.subarray(0, 32)).toString('base64url'),
        y: Buffer.from(xy.subarray(32)).toString('base64url'),
      },
      format: 'jwk',
    });
    expect(verify('sha256', digest, { key, dsaEncoding: 'ieee-p1363' }, signature)).toBe(true);
  });

  it('NACKs reads while a command executes, for its maximum execution time', async () => {
    const { chip, wire } = rig();
    chip.provision(0, 42n);
    await wire.write(0x00, Uint8Array.of(0)).catch(() => undefined);
    await wire.delay(2);
    await wire.read(0x60, 4);
    await wire.write(0x60, atecc608Command(0x16, 0x03, 0, digest));
    await wire.delay(7);
    expect([...(await wire.read(0x60, 4))]).toEqual([0x04, 0x00, 0x03, 0x40]);
    await wire.write(0x60, atecc608Command(0x41, 0x80, 0));
    await wire.delay(100);
    await expect(wire.read(0x60, 1)).rejects.toThrow(/no acknowledge/);
    await wire.delay(15);
    expect((await wire.read(0x60, 1))[0]).toBe(67);
  });

  it('answers a packet with a bad CRC with status FF, and the driver sends it once more', async () => {
    const { chip, wire } = rig();
    chip.provision(0, 7n);
    let corruptNext = true;
    const noisy: I2cBus = {
      read: (address, length) => wire.read(address, length),
      write: (address, bytes) => {
        if (corruptNext && bytes[0] === 0x03) {
          corruptNext = false;
          const copy = new Uint8Array(bytes);
          copy[3]! ^= 0x01;
          return wire.write(address, copy);
        }
        return wire.write(address, bytes);
      },
    };
    const driver = new Atecc608({ bus: noisy, delay: wire.delay });
    const key = await driver.publicKey();
    expect(chip.log).toContain('bad crc');
    expect(key.raw).toHaveLength(33);
  });

  it('reports the chip status: Sign with no key in the slot is an execution error', async () => {
    const { driver } = rig();
    const error = await driver.sign(digest).catch((caught: unknown) => caught);
    expect(isHardwareError(error) && error.code).toBe('secure_element');
    expect((error as Error).message).toMatch(/Sign: status 0x0f \(execution error\)/);
  });

  it('loses TempKey to the watchdog, yet signs again after a long pause since each signature wakes it', async () => {
    const { driver, wire, chip } = rig();
    const key = await driver.generateKey();
    await wire.delay(5_000);
    const signature = await driver.sign(digest);
    expect(verifyDigestSignature(key, digest, signature)).toBe(true);
    // Wake by hand, load TempKey, then wait past the watchdog: Sign finds no message.
    await wire.write(0x00, Uint8Array.of(0)).catch(() => undefined);
    await wire.delay(2);
    await wire.read(0x60, 4);
    await wire.write(0x60, atecc608Command(0x16, 0x03, 0, digest));
    await wire.delay(1_400);
    await expect(wire.read(0x60, 4)).rejects.toThrow(/no acknowledge/);
    expect(chip.log).toContain('watchdog');
  });

  it('rotates the key with GenKey: the new key signs, the old one no longer verifies', async () => {
    const { driver } = rig();
    const old = await driver.generateKey();
    const rotated = await driver.generateKey();
    expect(keyFingerprint(rotated)).not.toBe(keyFingerprint(old));
    expect(keyFingerprint(await driver.publicKey())).toBe(keyFingerprint(rotated));
    const signature = await driver.sign(digest);
    expect(verifyDigestSignature(rotated, digest, signature)).toBe(true);
    expect(verifyDigestSignature(old, digest, signature)).toBe(false);
  });

  it('refuses any garbled response with a clear error, never a key or a signature', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 0, maxLength: 80 }), async (noise) => {
        // A bus that answers the wake correctly, then returns noise to every read.
        let reads = 0;
        const bus: I2cBus = {
          write: async () => undefined,
          read: async (_address, length) => {
            reads++;
            if (reads === 1) return Uint8Array.of(0x04, 0x11, 0x33, 0x43);
            const out = new Uint8Array(length);
            out.set(noise.subarray(0, length));
            return out;
          },
        };
        const driver = new Atecc608({ bus, delay: async () => undefined });
        const outcome = await driver.sign(digest).then(
          () => 'signed',
          (error: unknown) => (isHardwareError(error) ? error.code : String(error)),
        );
        expect(outcome).toBe('secure_element');
      }),
      { numRuns: 200, seed: 608 },
    );
  });

  it('names a chip that is not on the bus', async () => {
    const wire = new EmulatedI2cWire([]);
    const driver = new Atecc608({ bus: wire, delay: wire.delay });
    await expect(driver.publicKey()).rejects.toThrow(/ATECC608 at 0x60 does not answer/);
  });

  it('reads responses longer than the bus allows (Firmata: 32 bytes) in pieces', async () => {
    const chip = new EmulatedAtecc608();
    const wire = new EmulatedI2cWire([chip]);
    const made = await new Atecc608({ bus: wire, delay: wire.delay }).generateKey();
    const before = wire.transactions.length;
    const short = new Atecc608({ bus: wire, delay: wire.delay, maxReadBytes: 32 });
    expect(keyFingerprint(await short.publicKey())).toBe(keyFingerprint(made));
    const signature = await short.sign(digest);
    expect(verifyDigestSignature(made, digest, signature)).toBe(true);
    const lengths = wire.transactions
      .slice(before)
      .filter((t) => t.startsWith('R 60 ') && !t.endsWith('NACK'))
      .map((t) => (t.length - 'R 60 '.length) / 2);
    // Every read fits the bus: each 67-byte response (GenKey, Sign) came as 32 + 32 + 3.
    expect(Math.max(...lengths)).toBe(32);
    expect(lengths.join(' ').match(/32 32 3/g)).toHaveLength(2);
  });
});
