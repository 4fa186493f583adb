import { describe, expect, it } from 'vitest';
import type { I2cBus } from '../../../../hardware/i2c/bus.ts';
import { encodeHostFrame } from '../../../../hardware/pn532/frame.ts';
import { Pn532, Pn532Error, pn532OverI2c } from '../../../../hardware/pn532/index.ts';
import { Pn532Emulator } from '../../../emulators/pn532.ts';
import { until } from '../../../helpers/until.ts';

/** An I2C master wired straight to emulated slaves, on real time. */
function busTo(...slaves: Pn532Emulator[]): I2cBus & { reads: number } {
  const find = (address: number) => {
    const slave = slaves.find((s) => s.address === address);
    if (!slave) throw new Error(`no part at ${address}`);
    return slave;
  };
  const bus = {
    reads: 0,
    async write(address: number, bytes: Uint8Array) {
      if (!find(address).write(bytes, performance.now())) throw new Error('I2C NACK on write');
    },
    async read(address: number, length: number) {
      bus.reads++;
      const bytes = find(address).read(length, performance.now());
      if (!bytes) throw new Error('I2C NACK on read');
      return bytes;
    },
  };
  return bus;
}

function setup(options: { retries?: number } = {}) {
  const emulator = new Pn532Emulator();
  const bus = busTo(emulator);
  const pn532 = new Pn532(pn532OverI2c(bus), {
    ackTimeoutMs: 30,
    responseTimeoutMs: 100,
    ...options,
  });
  return { emulator, bus, pn532 };
}

describe('the PN532 driver over I2C, against the emulated part', () => {
  it('reads the firmware version and configures the SAM', async () => {
    const { pn532, emulator } = setup();
    expect(await pn532.firmwareVersion()).toEqual({ ic: 0x32, ver: 1, rev: 6, support: 7 });
    await pn532.samConfiguration();
    expect(emulator.commands).toEqual([0x02, 0x14]);
  });

  it('reads 4, 7 and 10 byte UIDs and reports no tag when the field is empty', async () => {
    const { pn532, emulator } = setup();
    expect(await pn532.readPassiveTarget(20)).toBeUndefined();
    expect(emulator.aborts).toBe(1);
    for (const uid of [
      [0xde, 0xad, 0xbe, 0xef],
      [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66],
      [0x08, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    ]) {
      emulator.placeTag({ uid, type: uid.length === 4 ? 'mifare-classic' : 'ntag21x' });
      expect(Array.from((await pn532.readPassiveTarget(100)) ?? [])).toEqual(uid);
    }
    const target = await pn532.listPassiveTarget(100);
    expect(target?.sensRes).toBe(0x0084);
  });

  it('reads a ready frame with its status in one I2C transaction (UM0701-02 § 6.2.4)', async () => {
    const emulator = new Pn532Emulator();
    const bus = busTo(emulator);
    const link = pn532OverI2c(bus);
    await link.send(encodeHostFrame(Uint8Array.of(0x02))); // GetFirmwareVersion
    // Both the ACK and the response are ready before the host looks.
    await until(() => emulator.framesReady() >= 2, 'the ACK and the response ready');
    const before = bus.reads;
    expect(await link.receive(100)).toMatchObject({ kind: 'ack' });
    expect(bus.reads - before).toBe(1);
    const response = await link.receive(100);
    expect(response).toMatchObject({ kind: 'info', tfi: 0xd5 });
    expect(bus.reads - before).toBe(2);
  });

  it('sees a tag placed while it waits', async () => {
    const { pn532, emulator } = setup();
    setTimeout(() => emulator.placeTag({ uid: [1, 2, 3, 4], type: 'mifare-classic' }), 10);
    const target = await pn532.listPassiveTarget(200);
    expect(target).toMatchObject({ selRes: 0x08, sensRes: 0x0004 });
  });

  it('asks again with a NACK after one damaged response and gets the tag', async () => {
    const { pn532, emulator } = setup();
    emulator.placeTag({ uid: [9, 8, 7, 6], type: 'mifare-classic' });
    emulator.setFault('bad-dcs', 1);
    expect(Array.from((await pn532.readPassiveTarget(100)) ?? [])).toEqual([9, 8, 7, 6]);
    expect(emulator.nacksFromHost).toBe(1);
  });

  it.each([
    ['nack', 'nack'],
    ['error-frame', 'error_frame'],
    ['bad-lcs', 'checksum'],
    ['bad-dcs', 'checksum'],
    ['silent', 'no_answer'],
  ] as const)('names a persistent %s fault as %s', async (fault, code) => {
    const { pn532, emulator } = setup({ retries: 1 });
    emulator.setFault(fault);
    const error = await pn532.firmwareVersion().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Pn532Error);
    expect((error as Pn532Error).code).toBe(code);
    expect((error as Error).message).toMatch(/^PN532 on I2C 0x24/);
    emulator.setFault(undefined);
    expect((await pn532.firmwareVersion()).ic).toBe(0x32);
  });
});

describe('the PN532 driver over HSU, on a line that is not a PN532', () => {
  it('a line that echoes every byte (TX bridged to RX) is named as such', async () => {
    const { EventEmitter } = await import('node:events');
    const { pn532OverHsu } = await import('../../../../hardware/pn532/index.ts');
    const line = Object.assign(new EventEmitter(), {
      url: '/dev/ttyUSB9',
      async write(bytes: Uint8Array) {
        queueMicrotask(() => line.emit('data', Buffer.from(bytes)));
      },
    });
    const pn532 = new Pn532(pn532OverHsu(line as never), { ackTimeoutMs: 20, retries: 1 });
    await expect(pn532.firmwareVersion()).rejects.toThrow(
      /^PN532 on \/dev\/ttyUSB9 \(HSU\) sends our own frames back: this is not a PN532/,
    );
  });

  it('a line where nothing answers names the part and what to check', async () => {
    const { EventEmitter } = await import('node:events');
    const { pn532OverHsu } = await import('../../../../hardware/pn532/index.ts');
    const written: number[] = [];
    const line = Object.assign(new EventEmitter(), {
      url: '/dev/ttyUSB9',
      async write(bytes: Uint8Array) {
        written.push(...bytes);
      },
    });
    const pn532 = new Pn532(pn532OverHsu(line as never), { ackTimeoutMs: 10, retries: 1 });
    await expect(pn532.firmwareVersion()).rejects.toMatchObject({
      code: 'no_answer',
      message: expect.stringMatching(/does not answer: check its power and wiring/),
    });
    // Each attempt woke the part first (HSU wake-up: 55 55 then zeros) before GetFirmwareVersion.
    const frame = [0x00, 0x00, 0xff, 0x02, 0xfe, 0xd4, 0x02, 0x2a, 0x00];
    const attempt = [0x55, 0x55, ...new Array<number>(14).fill(0), ...frame];
    expect(written).toEqual([...attempt, ...attempt]);
  });
});

describe('a part that is not a PN532', () => {
  it('a GetFirmwareVersion naming another IC is refused, naming what it found', async () => {
    const emulator = new Pn532Emulator({ version: [0x33, 0x02, 0x07, 0x07] });
    const pn532 = new Pn532(pn532OverI2c(busTo(emulator)));
    await expect(pn532.firmwareVersion()).rejects.toMatchObject({
      code: 'unexpected',
      message:
        'PN532 on I2C 0x24: GetFirmwareVersion reports IC 0x33, not 0x32: this is not a PN532',
    });
  });
});
