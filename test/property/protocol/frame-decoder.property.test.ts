import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeFrame, type FrameEvent, TALKERS } from '../../../device-protocol/frame.ts';
import { FrameDecoder } from '../../../device-protocol/frame-decoder.ts';

const fieldChar = fc
  .integer({ min: 0x20, max: 0x7e })
  .filter((code) => code !== 0x24 && code !== 0x2c && code !== 0x2a);
const frameLine = fc
  .record({
    talker: fc.constantFrom(...TALKERS),
    seq: fc.integer({ min: 0, max: 65535 }),
    type: fc.constantFrom('CARD', 'CUT', 'PING', 'X1', 'FOO'),
    fields: fc.array(
      fc.array(fieldChar, { maxLength: 12 }).map((codes) => String.fromCharCode(...codes)),
      { maxLength: 6 },
    ),
  })
  .map((frame) => encodeFrame(frame));
/** Valid frames mixed with the usual dirt of a serial line. */
const piece = fc.oneof(
  { weight: 6, arbitrary: frameLine },
  { weight: 1, arbitrary: fc.constantFrom('\r\n', '\r', '\n', '$', '*', ',', 'noise', '\x00\xff') },
  { weight: 1, arbitrary: frameLine.map((line) => line.slice(0, Math.max(1, line.length >> 1))) },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 240, max: 600 })
      .map((length) => `$SH,1,${'z'.repeat(length)}\r\n`),
  },
);
const stream = fc
  .array(piece, { maxLength: 30 })
  .map((pieces) => Buffer.from(pieces.join(''), 'latin1'));

/** Cut points turn one byte stream into chunks. */
function chunked(bytes: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let start = 0;
  for (const point of points) {
    chunks.push(bytes.subarray(start, point));
    start = point;
  }
  chunks.push(bytes.subarray(start));
  return chunks;
}

function viaDecoder(chunks: Buffer[]): FrameEvent[] {
  const decoder = new FrameDecoder();
  return chunks.flatMap((chunk) => decoder.push(chunk)).concat(decoder.end());
}

describe('framer (property)', () => {
  it('gives the same events however the byte stream is chunked', () => {
    fc.assert(
      fc.property(stream, fc.array(fc.nat(), { maxLength: 40 }), (bytes, cuts) => {
        const whole = viaDecoder([bytes]);
        expect(viaDecoder(chunked(bytes, cuts))).toEqual(whole);
      }),
      { numRuns: 300 },
    );
  });

  it('finds every whole valid frame of a clean stream, in order', () => {
    fc.assert(
      fc.property(
        fc.array(frameLine, { maxLength: 20 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        (lines, cuts) => {
          const events = viaDecoder(chunked(Buffer.from(lines.join(''), 'latin1'), cuts));
          expect(
            events.map((event) =>
              event.kind === 'frame' ? encodeFrame(event.frame) : event.reason,
            ),
          ).toEqual(lines);
        },
      ),
      { numRuns: 300 },
    );
  });
});
