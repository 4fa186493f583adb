/**
 * CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no xorout.
 * Check value: crc16('123456789') === 0x29B1. Table-driven, one lookup per byte.
 */

const CRC_TABLE: Uint16Array = (() => {
  const table = new Uint16Array(256);
  for (let byte = 0; byte < 256; byte++) {
    let crc = byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
    table[byte] = crc;
  }
  return table;
})();

export const CRC_INITIAL = 0xffff;

/** Feeds bytes into a running CRC; start from CRC_INITIAL. */
export function crc16Update(crc: number, bytes: Uint8Array): number {
  let value = crc;
  for (let index = 0; index < bytes.length; index++) {
    value = ((value << 8) & 0xffff) ^ CRC_TABLE[((value >> 8) ^ bytes[index]!) & 0xff]!;
  }
  return value;
}

/**
 * CRC of a byte array, or of a string taken one byte per character (latin1:
 * the wire is ASCII, and any stray high byte keeps its own value).
 */
export function crc16(input: Uint8Array | string): number {
  if (typeof input !== 'string') return crc16Update(CRC_INITIAL, input);
  let value = CRC_INITIAL;
  for (let index = 0; index < input.length; index++) {
    value = ((value << 8) & 0xffff) ^ CRC_TABLE[((value >> 8) ^ input.charCodeAt(index)) & 0xff]!;
  }
  return value;
}

/** The CRC as the wire writes it: 4 upper-case hex digits. */
export function crc16Hex(input: Uint8Array | string): string {
  return crc16(input).toString(16).toUpperCase().padStart(4, '0');
}
