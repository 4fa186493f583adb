import { describe, expect, it } from 'vitest';
import { CRC_INITIAL, crc16, crc16Hex, crc16Update } from '../../../device-protocol/crc.ts';

/** The textbook bit-by-bit CRC-16/CCITT-FALSE, to check the table against. */
function bitwiseCrc(bytes: Uint8Array): number {
  let crc = 0xffff;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

describe('CRC-16/CCITT-FALSE', () => {
  it('gives the catalogue check value 29B1 for 123456789', () => {
    expect(crc16('123456789')).toBe(0x29b1);
    expect(crc16Hex('123456789')).toBe('29B1');
    expect(crc16Hex(Buffer.from('123456789'))).toBe('29B1');
  });

  it('gives FFFF for no bytes and pads to 4 upper-case hex digits', () => {
    expect(crc16Hex('')).toBe('FFFF');
    for (let value = 0; value < 300; value++)
      expect(crc16Hex(String(value))).toMatch(/^[0-9A-F]{4}$/);
  });

  it('matches the bit-by-bit algorithm on every single byte and on longer inputs', () => {
    for (let byte = 0; byte < 256; byte++) {
      const bytes = Uint8Array.of(byte);
      expect(crc16(bytes)).toBe(bitwiseCrc(bytes));
    }
    const long = Buffer.from('SH,17,CARD,AS,red,down and some more text \x7f\x80\xff');
    expect(crc16(long)).toBe(bitwiseCrc(long));
    expect(crc16(long.toString('latin1'))).toBe(bitwiseCrc(long));
  });

  it('can be computed in pieces', () => {
    const whole = Buffer.from('SH,17,CARD,AS,red,down');
    const first = crc16Update(CRC_INITIAL, whole.subarray(0, 7));
    expect(crc16Update(first, whole.subarray(7))).toBe(crc16(whole));
    expect(crc16Hex(whole)).toBe('BBE2');
  });
});
