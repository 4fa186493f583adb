/**
 * The PN532 emulator checked against frames written out by hand from
 * UM0701-02 (no tableside codec involved), so the driver's tests stand on
 * a part that behaves as the manual says.
 */
import { describe, expect, it } from 'vitest';
import { Pn532Emulator } from '../../emulators/pn532.ts';
import { until } from '../../helpers/until.ts';

const bytes = (text: string) => Uint8Array.from(Buffer.from(text.replace(/\s+/g, ''), 'hex'));
const hex = (data: Uint8Array | undefined) =>
  data
    ? Buffer.from(data)
        .toString('hex')
        .toUpperCase()
        .replace(/(..)(?!$)/g, '$1 ')
    : 'NACK';

const GET_FIRMWARE_VERSION = bytes('00 00 FF 02 FE D4 02 2A 00');
const FIRMWARE_RESPONSE = '00 00 FF 06 FA D5 03 32 01 06 07 E8 00';
const ACK = '00 00 FF 00 FF 00';
const ERROR_FRAME = '00 00 FF 01 FF 7F 81 00';

describe('the PN532 emulator on I2C (UM0701-02 § 6.2.4)', () => {
  it('answers busy, then ACK, then the response, each read starting with the status byte', () => {
    const part = new Pn532Emulator();
    expect(part.write(GET_FIRMWARE_VERSION, 0)).toBe(true);
    expect(hex(part.read(1, 0.5))).toBe('00');
    expect(hex(part.read(7, 1))).toBe(`01 ${ACK}`);
    // The response is not ready until the command is done; a status-only read leaves it in place.
    expect(hex(part.read(1, 1.5))).toBe('00');
    expect(hex(part.read(1, 3))).toBe('01');
    expect(hex(part.read(7, 3))).toBe('01 00 00 FF 06 FA D5');
    expect(hex(part.read(14, 3))).toBe(`01 ${FIRMWARE_RESPONSE}`);
    expect(hex(part.read(4, 4))).toBe('00 00 00 00');
  });

  it('InListPassiveTarget waits for a tag, and reports a 7-byte NTAG as the manual lays it out', () => {
    const part = new Pn532Emulator();
    part.write(bytes('00 00 FF 04 FC D4 4A 01 00 E1 00'), 0);
    part.read(7, 1); // ACK
    expect(hex(part.read(1, 50))).toBe('00');
    part.placeTag({ uid: [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66], type: 'ntag21x' }, 60);
    // D5 4B NbTg=01 Tg=01 SENS_RES=00 44 SEL_RES=00 NFCIDLength=07 NFCID1: LEN 0F, LCS F1;
    // sum 0x2D6 → DCS 2A.
    expect(hex(part.read(23, 70))).toBe(
      '01 00 00 FF 0F F1 D5 4B 01 01 00 44 00 07 04 11 22 33 44 55 66 2A 00',
    );
  });

  it('a host ACK aborts a waiting InListPassiveTarget; a host NACK gets the last response again', () => {
    const part = new Pn532Emulator();
    part.write(bytes('00 00 FF 04 FC D4 4A 01 00 E1 00'), 0);
    part.read(7, 1);
    part.write(bytes(ACK), 10);
    expect(part.aborts).toBe(1);
    part.placeTag({ uid: [1, 2, 3, 4], type: 'mifare-classic' }, 20);
    expect(hex(part.read(1, 40))).toBe('00');

    part.write(GET_FIRMWARE_VERSION, 50);
    part.read(7, 51);
    expect(hex(part.read(14, 53))).toBe(`01 ${FIRMWARE_RESPONSE}`);
    part.write(bytes('00 00 FF FF 00 00'), 60);
    expect(hex(part.read(14, 62))).toBe(`01 ${FIRMWARE_RESPONSE}`);
    expect(part.nacksFromHost).toBe(1);
  });

  it('drops a host frame with a bad checksum, and answers an unknown command with the error frame', () => {
    const part = new Pn532Emulator();
    part.write(bytes('00 00 FF 02 FE D4 02 2B 00'), 0);
    expect(part.droppedFrames).toBe(1);
    expect(hex(part.read(7, 5))).toBe('00 00 00 00 00 00 00');
    // Command 0x00 is not one the PN532 has: 00 00 FF 02 FE D4 00 2C 00.
    part.write(bytes('00 00 FF 02 FE D4 00 2C 00'), 10);
    expect(hex(part.read(7, 11))).toBe(`01 ${ACK}`);
    expect(hex(part.read(9, 13))).toBe(`01 ${ERROR_FRAME}`);
  });

  it('fault switches: NACK, error frame, damaged checksums, silence', () => {
    const part = new Pn532Emulator();
    part.setFault('nack', 1);
    part.write(GET_FIRMWARE_VERSION, 0);
    expect(hex(part.read(7, 1))).toBe('01 00 00 FF FF 00 00');
    part.setFault('error-frame', 1);
    part.write(GET_FIRMWARE_VERSION, 10);
    part.read(7, 11);
    expect(hex(part.read(9, 13))).toBe(`01 ${ERROR_FRAME}`);
    part.setFault('bad-dcs', 1);
    part.write(GET_FIRMWARE_VERSION, 20);
    part.read(7, 21);
    expect(hex(part.read(14, 23))).toBe('01 00 00 FF 06 FA D5 03 32 01 06 07 E9 00');
    part.setFault('bad-lcs', 1);
    part.write(GET_FIRMWARE_VERSION, 30);
    part.read(7, 31);
    expect(hex(part.read(14, 33))).toBe('01 00 00 FF 06 FB D5 03 32 01 06 07 E8 00');
    part.setFault('silent');
    expect(part.write(GET_FIRMWARE_VERSION, 40)).toBe(false);
    expect(part.read(1, 41)).toBeUndefined();
  });
});

describe('the PN532 emulator on HSU (§ 6.2.5, wake-up § 7.2.11)', () => {
  it('asleep it ignores a frame; after 55 55 00… it ACKs and answers', async () => {
    const part = new Pn532Emulator();
    const out: string[] = [];
    const send = part.connectHsu((data) => out.push(hex(data)));
    send(GET_FIRMWARE_VERSION);
    // fixed wait: nothing happens: an asleep PN532 must not answer: only time shows it
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(out).toEqual([]);
    expect(part.commands).toEqual([]);
    send(
      Uint8Array.of(0x55, 0x55, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ...GET_FIRMWARE_VERSION),
    );
    await until(() => out.length >= 2, 'the ACK and the answer', 2_000);
    expect(out).toEqual([ACK, FIRMWARE_RESPONSE]);
    part.disconnectHsu();
  });
});
