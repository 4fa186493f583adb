/**
 * PN532 host-link frames as NXP's PN532 User Manual (UM0701-02) § 6.2.1
 * defines them, the same over I2C, SPI and HSU:
 *
 *   normal information frame   00 00 FF LEN LCS TFI PD0..PDn DCS 00
 *   extended information frame 00 00 FF FF FF LENM LENL LCS TFI PD0..PDn DCS 00
 *   ACK                        00 00 FF 00 FF 00
 *   NACK                       00 00 FF FF 00 00
 *   error frame                00 00 FF 01 FF 7F 81 00  (application-level error)
 *
 * LEN counts TFI and the data; LEN + LCS ≡ 0 and TFI + PD0 + … + PDn + DCS ≡ 0
 * (mod 256). TFI is D4 host → PN532 and D5 PN532 → host.
 */

export const TFI_HOST_TO_PN532 = 0xd4;
export const TFI_PN532_TO_HOST = 0xd5;

export const ACK_FRAME = Uint8Array.of(0x00, 0x00, 0xff, 0x00, 0xff, 0x00);
export const NACK_FRAME = Uint8Array.of(0x00, 0x00, 0xff, 0xff, 0x00, 0x00);

/** Largest LEN a normal frame carries; longer payloads need the extended frame. */
const NORMAL_FRAME_MAX_LEN = 255;
/** UM0701-02 § 6.2.1.2: an extended frame carries up to 264 bytes of TFI + data. */
export const EXTENDED_FRAME_MAX_LEN = 265;

/** One frame read from the PN532. */
export type Pn532Frame =
  | { kind: 'ack' }
  | { kind: 'nack' }
  /** The PN532 reports an application-level error (syntax error in our command). */
  | { kind: 'error' }
  | { kind: 'info'; tfi: number; data: Uint8Array }
  /** Bytes that looked like a frame but break the grammar or a checksum. */
  | { kind: 'corrupt'; why: string };

function sum(bytes: Uint8Array, from = 0, to = bytes.length): number {
  let total = 0;
  for (let i = from; i < to; i++) total = (total + (bytes[i] ?? 0)) & 0xff;
  return total;
}

/** An information frame from the host: TFI D4, then `data` (command code and parameters). */
export function encodeHostFrame(data: Uint8Array): Uint8Array {
  const len = data.length + 1;
  if (len > EXTENDED_FRAME_MAX_LEN) {
    throw new RangeError(`PN532 frame: ${data.length} data bytes exceed the extended frame's 264`);
  }
  const dcs = (0x100 - ((TFI_HOST_TO_PN532 + sum(data)) & 0xff)) & 0xff;
  if (len <= NORMAL_FRAME_MAX_LEN) {
    const frame = new Uint8Array(len + 7);
    frame.set([0x00, 0x00, 0xff, len, (0x100 - len) & 0xff, TFI_HOST_TO_PN532]);
    frame.set(data, 6);
    frame.set([dcs, 0x00], 6 + data.length);
    return frame;
  }
  const lenM = len >> 8;
  const lenL = len & 0xff;
  const frame = new Uint8Array(len + 10);
  frame.set([0x00, 0x00, 0xff, 0xff, 0xff, lenM, lenL, (0x100 - ((lenM + lenL) & 0xff)) & 0xff]);
  frame[8] = TFI_HOST_TO_PN532;
  frame.set(data, 9);
  frame.set([dcs, 0x00], 9 + data.length);
  return frame;
}

/**
 * Pulls frames out of a byte stream (HSU) or out of one I2C read (after its
 * status byte). Bytes before a start code (00 FF) are skipped, as are the
 * postamble and any padding. Incomplete frames wait for more bytes.
 */
export class Pn532FrameReader {
  private buffer = new Uint8Array(0);

  /** Adds bytes and returns every frame they complete, in order. */
  push(chunk: Uint8Array): Pn532Frame[] {
    const joined = new Uint8Array(this.buffer.length + chunk.length);
    joined.set(this.buffer);
    joined.set(chunk, this.buffer.length);
    this.buffer = joined;
    const frames: Pn532Frame[] = [];
    for (;;) {
      const result = this.next();
      if (!result) break;
      frames.push(result);
    }
    return frames;
  }

  /** Forgets any partial frame (after an abort or a resynchronisation). */
  reset(): void {
    this.buffer = new Uint8Array(0);
  }

  private consume(count: number): void {
    this.buffer = this.buffer.slice(count);
  }

  private next(): Pn532Frame | undefined {
    const b = this.buffer;
    // Find the start code 00 FF (the preamble 00 before it is optional to us).
    let start = -1;
    for (let i = 0; i + 1 < b.length; i++) {
      if (b[i] === 0x00 && b[i + 1] === 0xff) {
        start = i;
        break;
      }
    }
    if (start < 0) {
      // Keep a trailing 00: it may be the first half of a start code.
      this.consume(b.length > 0 && b[b.length - 1] === 0x00 ? b.length - 1 : b.length);
      return undefined;
    }
    if (start > 0) this.consume(start);
    const f = this.buffer;
    if (f.length < 4) return undefined;
    const len = f[2] ?? 0;
    const lcs = f[3] ?? 0;
    if (len === 0x00 && lcs === 0xff) {
      this.consume(4);
      return { kind: 'ack' };
    }
    if (len === 0xff && lcs === 0x00) {
      this.consume(4);
      return { kind: 'nack' };
    }
    if (len === 0xff && lcs === 0xff) return this.extended();
    if (((len + lcs) & 0xff) !== 0) {
      this.consume(2);
      return {
        kind: 'corrupt',
        why: `length checksum LCS ${hex(lcs)} does not match LEN ${hex(len)}`,
      };
    }
    if (len === 0x01 && f.length >= 5 && f[4] === 0x7f) {
      if (f.length < 6) return undefined;
      this.consume(6);
      return f[5] === 0x81
        ? { kind: 'error' }
        : { kind: 'corrupt', why: 'error frame with bad DCS' };
    }
    return this.body(4, len);
  }

  private extended(): Pn532Frame | undefined {
    const f = this.buffer;
    if (f.length < 7) return undefined;
    const lenM = f[4] ?? 0;
    const lenL = f[5] ?? 0;
    const lcs = f[6] ?? 0;
    if (((lenM + lenL + lcs) & 0xff) !== 0) {
      this.consume(2);
      return { kind: 'corrupt', why: 'extended frame length checksum does not match' };
    }
    return this.body(7, (lenM << 8) | lenL);
  }

  /** TFI + data start at `at`, `len` bytes, then DCS. */
  private body(at: number, len: number): Pn532Frame | undefined {
    const f = this.buffer;
    if (len === 0) {
      this.consume(at);
      return { kind: 'corrupt', why: 'information frame with LEN 0' };
    }
    if (f.length < at + len + 1) return undefined;
    const dcs = f[at + len] ?? 0;
    const ok = ((sum(f, at, at + len) + dcs) & 0xff) === 0;
    const tfi = f[at] ?? 0;
    const data = f.slice(at + 1, at + len);
    this.consume(at + len + 1);
    if (!ok) return { kind: 'corrupt', why: `data checksum DCS ${hex(dcs)} does not match` };
    return { kind: 'info', tfi, data };
  }
}

export function hex(byte: number): string {
  return `0x${byte.toString(16).padStart(2, '0').toUpperCase()}`;
}

export function hexBytes(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0').toUpperCase()).join('');
}
