/**
 * The driver's frame codec against frames written out by hand from
 * UM0701-02 § 6.2.1 (never against the emulator or the codec itself).
 */
import { describe, expect, it } from 'vitest';
import {
  ACK_FRAME,
  encodeHostFrame,
  NACK_FRAME,
  Pn532FrameReader,
} from '../../../../hardware/pn532/index.ts';

const bytes = (text: string) => Uint8Array.from(Buffer.from(text.replace(/\s+/g, ''), 'hex'));

describe('PN532 frames as UM0701-02 § 6.2.1 writes them', () => {
  it('encodes the host information frames of the commands the reader sends', () => {
    // GetFirmwareVersion: LEN 02, LCS FE, TFI D4, 02, DCS = -(D4 + 02) = 2A.
    expect(encodeHostFrame(Uint8Array.of(0x02))).toEqual(bytes('00 00 FF 02 FE D4 02 2A 00'));
    // SAMConfiguration normal mode, timeout 0x14, IRQ on: D4+14+01+14+01 = 0xFE → DCS 02.
    expect(encodeHostFrame(Uint8Array.of(0x14, 0x01, 0x14, 0x01))).toEqual(
      bytes('00 00 FF 05 FB D4 14 01 14 01 02 00'),
    );
    // InListPassiveTarget MaxTg 1, 106 kbps type A: D4+4A+01+00 = 0x11F → DCS E1.
    expect(encodeHostFrame(Uint8Array.of(0x4a, 0x01, 0x00))).toEqual(
      bytes('00 00 FF 04 FC D4 4A 01 00 E1 00'),
    );
    expect(ACK_FRAME).toEqual(bytes('00 00 FF 00 FF 00'));
    expect(NACK_FRAME).toEqual(bytes('00 00 FF FF 00 00'));
  });

  it('uses the extended frame past 254 data bytes (LEN 255), up to 264', () => {
    const data = new Uint8Array(260).fill(0x01);
    const frame = encodeHostFrame(data);
    // LEN = 261 = 0x0105: FF FF 01 05, LCS = -(01 + 05) = FA.
    expect(Array.from(frame.subarray(0, 9))).toEqual([
      0x00, 0x00, 0xff, 0xff, 0xff, 0x01, 0x05, 0xfa, 0xd4,
    ]);
    // DCS = -(D4 + 260 × 01) = -(0x1D8) → 0x28.
    expect(frame[frame.length - 2]).toBe(0x28);
    expect(frame.length).toBe(261 + 10);
    expect(encodeHostFrame(new Uint8Array(255)).subarray(0, 5)).toEqual(bytes('00 00 FF FF FF'));
    expect(encodeHostFrame(new Uint8Array(254)).subarray(0, 5)).toEqual(bytes('00 00 FF FF 01'));
    expect(() => encodeHostFrame(new Uint8Array(265))).toThrow(/exceed/);
  });

  it('reads ACK, NACK, the error frame and responses out of a byte stream cut anywhere', () => {
    // ACK, then GetFirmwareVersion's response (D5 03 32 01 06 07: sum 0x118 → DCS E8), then the error frame.
    const stream = bytes(
      '00 00 FF 00 FF 00   00 00 FF 06 FA D5 03 32 01 06 07 E8 00   00 00 FF 01 FF 7F 81 00   00 00 FF FF 00 00',
    );
    for (let cut = 1; cut < stream.length; cut++) {
      const reader = new Pn532FrameReader();
      const frames = [
        ...reader.push(stream.subarray(0, cut)),
        ...reader.push(stream.subarray(cut)),
      ];
      expect(frames).toEqual([
        { kind: 'ack' },
        { kind: 'info', tfi: 0xd5, data: Uint8Array.of(0x03, 0x32, 0x01, 0x06, 0x07) },
        { kind: 'error' },
        { kind: 'nack' },
      ]);
    }
  });

  it('reads an extended response frame', () => {
    // TFI D5 + 0x4B + 258 × 0x00: LEN 0x0104, LCS -(01 + 04) = FB, DCS -(D5 + 4B) = -(0x120) = E0.
    const body = [0xd5, 0x4b, ...new Array<number>(258).fill(0)];
    const head = [0x00, 0x00, 0xff, 0xff, 0xff, 0x01, 0x04, 0xfb];
    const frame = Uint8Array.from([...head, ...body, 0xe0, 0x00]);
    const [read] = new Pn532FrameReader().push(frame);
    expect(read).toMatchObject({ kind: 'info', tfi: 0xd5 });
    expect(read?.kind === 'info' && read.data.length).toBe(259);
  });

  it('names a bad LCS and a bad DCS, skips noise, and goes on reading', () => {
    const reader = new Pn532FrameReader();
    const frames = reader.push(
      bytes(
        '55 55 13 00 00 FF 02 FD D5 15 16 00   00 00 FF 02 FE D5 15 17 00   00 00 FF 02 FE D5 15 16 00',
      ),
    );
    expect(frames.map((frame) => frame.kind)).toEqual(['corrupt', 'corrupt', 'info']);
    expect(frames[0]).toMatchObject({ why: expect.stringMatching(/LCS 0xFD/) });
    expect(frames[1]).toMatchObject({ why: expect.stringMatching(/DCS 0x17/) });
  });
});
