import { describe, expect, it } from 'vitest';
import { isHardwareError } from '../../../hardware/errors.ts';
import type { I2cBus } from '../../../hardware/i2c/bus.ts';
import { Tcs34725 } from '../../../hardware/parts/tcs34725.ts';
import { SURFACES, type Surface, Tcs34725Emulator } from '../../emulators/tcs34725.ts';

/** The emulator on a bus of its own: a part driver's transactions, on performance.now(). */
function busFor(sensor: Tcs34725Emulator, log: string[] = []): I2cBus {
  return {
    async write(address, bytes) {
      log.push(`W ${address.toString(16)} ${Buffer.from(bytes).toString('hex')}`);
      if (address !== sensor.address || !sensor.write(bytes, performance.now())) {
        throw new Error('NACK');
      }
    },
    async read(address, length) {
      const bytes = address === sensor.address ? sensor.read(length, performance.now()) : undefined;
      if (!bytes) throw new Error('NACK');
      log.push(`R ${address.toString(16)} ${Buffer.from(bytes).toString('hex')}`);
      return bytes;
    },
  };
}

describe('the TCS34725 driver reads the datasheet registers of the emulated sensor', () => {
  it('checks the ID, sets ATIME and gain with the command bit, powers on, then enables RGBC', async () => {
    const sensor = new Tcs34725Emulator();
    const log: string[] = [];
    const driver = new Tcs34725(busFor(sensor, log), { cycles: 4, gain: 16 });
    expect(await driver.begin()).toBe(0x44);
    // 0xB2 = command | auto-increment | ID (0x12); 0x81 ATIME = 256 - 4; 0x8F CONTROL = 16x (2).
    expect(log.slice(0, 5)).toEqual(['W 29 b2', 'R 29 44', 'W 29 81fc', 'W 29 8f02', 'W 29 8001']);
    expect(log[5]).toBe('W 29 8003');
  });

  it('reads nothing valid before the first integration, then counts that scale with cycles and gain', async () => {
    const sensor = new Tcs34725Emulator();
    const at = performance.now();
    sensor.write(Uint8Array.of(0x80 | 0x01, 256 - 10), at); // ATIME: 10 cycles, 24 ms
    sensor.write(Uint8Array.of(0x80 | 0x0f, 0x01), at); // 4x
    sensor.write(Uint8Array.of(0x80 | 0x00, 0x03), at); // PON | AEN
    sensor.place(SURFACES.redBack, at);
    sensor.write(Uint8Array.of(0x80 | 0x13), at + 10);
    expect(sensor.read(1, at + 10)).toEqual(Uint8Array.of(0x00)); // AVALID clear: 2.4 + 24 ms not yet over
    expect(sensor.read(1, at + 30)).toEqual(Uint8Array.of(0x01));
    sensor.write(Uint8Array.of(0x80 | 0x20 | 0x14), at + 30);
    const bytes = sensor.read(8, at + 30)!;
    const word = (index: number) => bytes[index]! | (bytes[index + 1]! << 8);
    expect([word(0), word(2), word(4), word(6)]).toEqual([60 * 40, 40 * 40, 10 * 40, 10 * 40]);
  });

  it('saturates a channel at 1024 counts per cycle', async () => {
    const sensor = new Tcs34725Emulator();
    const at = performance.now();
    sensor.write(Uint8Array.of(0x80 | 0x01, 0xff), at); // 1 cycle
    sensor.write(Uint8Array.of(0x80 | 0x0f, 0x03), at); // 60x
    sensor.write(Uint8Array.of(0x80, 0x03), at);
    sensor.place(SURFACES.face, at);
    sensor.write(Uint8Array.of(0x80 | 0x20 | 0x14), at + 10);
    const bytes = sensor.read(2, at + 10)!;
    expect(bytes[0]! | (bytes[1]! << 8)).toBe(1024);
  });

  it('refuses a part with another ID, and one that does not answer, naming the sensor', async () => {
    const other = new Tcs34725(busFor(new Tcs34725Emulator({ id: 0x69 })));
    await expect(other.begin()).rejects.toThrow(/answered ID 0x69, not a TCS34725/);
    const silent = new Tcs34725Emulator();
    silent.setAnswering(false);
    const error = await new Tcs34725(busFor(silent)).begin().catch((caught: unknown) => caught);
    expect(isHardwareError(error) && error.code).toBe('part_failed');
    expect(String(error)).toMatch(/TCS34725.*did not answer.*check its wiring/);
  });

  it('reads a fresh reading of what lay over the sensor after the given moment', async () => {
    const sensor = new Tcs34725Emulator();
    const driver = new Tcs34725(busFor(sensor));
    await driver.begin();
    sensor.place(SURFACES.blueBack, performance.now());
    const since = performance.now();
    const reading = await driver.readFresh(since);
    expect(reading).toMatchObject({ c: 55 * 16, r: 8 * 16, g: 15 * 16, b: 32 * 16 });
    expect(reading.setting).toEqual({ gain: 4, cycles: 4 });
  });

  describe('auto-ranges: steps the gain and integration time until the reading is usable', () => {
    const { brightRedBack: brightRed, darkBlueBack: darkBlue, blinding } = SURFACES;

    async function readOver(surface: Surface, budgetMs: number) {
      const sensor = new Tcs34725Emulator();
      const log: string[] = [];
      const driver = new Tcs34725(busFor(sensor, log));
      await driver.begin();
      sensor.place(surface, performance.now());
      return { reading: await driver.readFresh(performance.now(), { budgetMs }), log };
    }

    it('a card that saturates the default gain is read again at 1x, 2 cycles, scaled back', async () => {
      const { reading, log } = await readOver(brightRed, 1_000);
      expect(reading.setting).toEqual({ gain: 1, cycles: 2 });
      expect(reading.raw).toEqual({ c: 800, r: 532, g: 134, b: 134 });
      // In the 4x, 4-cycle scale a calibration is taken at: eight times the raw counts.
      expect(reading).toMatchObject({ c: 6400, r: 4256, g: 1072, b: 1072 });
      expect(reading.c).toBeLessThan(reading.range.saturated);
      // RGBC off with ATIME 0xFE (2 cycles), gain 1x, RGBC on; then STATUS and data in one read.
      expect(log).toContain('W 29 a001fe');
      expect(log).toContain('W 29 8f00');
      expect(log.at(-2)).toBe('W 29 b3');
      expect(log.at(-1)).toMatch(/^R 29 01/);
    });

    it('a dark card is read again at 60x, finely enough to tell its colour', async () => {
      const { reading } = await readOver(darkBlue, 1_000);
      expect(reading.setting).toEqual({ gain: 60, cycles: 4 });
      expect(reading.raw).toEqual({ c: 960, r: 144, g: 264, b: 552 });
      expect(reading).toMatchObject({ c: 64, r: 9.6, g: 17.6, b: 36.8 });
      expect(reading.c).toBeGreaterThanOrEqual(reading.range.dark);
    });

    it('reports saturated only when the least sensitive setting saturates too', async () => {
      const { reading } = await readOver(blinding, 1_000);
      expect(reading.setting).toEqual({ gain: 1, cycles: 1 });
      expect(reading.c).toBeGreaterThanOrEqual(reading.range.saturated);
    });

    it('tries no setting whose reading would end past the budget, but starts the next card at it', async () => {
      const sensor = new Tcs34725Emulator();
      const driver = new Tcs34725(busFor(sensor));
      await driver.begin();
      sensor.place(brightRed, performance.now());
      const first = await driver.readFresh(performance.now(), { budgetMs: 0 });
      expect(first.setting).toEqual({ gain: 4, cycles: 4 });
      expect(first.c).toBeGreaterThanOrEqual(first.range.saturated);
      const next = await driver.readFresh(performance.now(), { budgetMs: 0 });
      expect(next.setting).toEqual({ gain: 1, cycles: 2 });
      expect(next).toMatchObject({ c: 6400, r: 4256 });
      expect(next.c).toBeLessThan(next.range.saturated);
    });
  });
});
