import { describe, expect, it } from 'vitest';
import { isProtocolError } from '../../../device-protocol/errors.ts';
import { encodeFrame, type FrameEvent } from '../../../device-protocol/frame.ts';
import { FrameDecoder } from '../../../device-protocol/frame-decoder.ts';

/** Every chunk through the decoder, then the end of input. */
function runFramer(chunks: Array<string | Buffer>, framer = new FrameDecoder()): FrameEvent[] {
  return chunks.flatMap((chunk) => framer.push(chunk)).concat(framer.end());
}

const card = encodeFrame({ talker: 'SH', seq: 17, type: 'CARD', fields: ['AS', 'red', 'down'] });
const cut = encodeFrame({ talker: 'SH', seq: 18, type: 'CUT', fields: [] });

describe('FrameDecoder', () => {
  it('yields frames as objects, whole or split anywhere, CR LF split included', () => {
    const whole = runFramer([card + cut]);
    expect(whole.map((event) => event.kind)).toEqual(['frame', 'frame']);
    const split = runFramer([
      card.slice(0, 5),
      card.slice(5, -1),
      card.slice(-1) + cut.slice(0, 3),
      cut.slice(3),
    ]);
    expect(split).toEqual(whole);
    const bytewise = runFramer([...(card + cut)]);
    expect(bytewise).toEqual(whole);
  });

  it('discards an over-long line up to the next CR LF, counts it, and reads the next frame', () => {
    const framer = new FrameDecoder();
    const events = runFramer(
      ['$SH,1,', 'x'.repeat(1000), 'y'.repeat(5000), '\r', '\n', card],
      framer,
    );
    expect(events.map((event) => (event.kind === 'frame' ? 'frame' : event.reason))).toEqual([
      'too_long',
      'frame',
    ]);
    expect(framer.stats.discards.too_long).toBe(1);
    expect(framer.stats.frames).toBe(1);
    expect(framer.bufferedBytes).toBe(0);
  });

  it('never buffers more than the line limit while a line has no CR LF', () => {
    const framer = new FrameDecoder();
    for (let index = 0; index < 200; index++) {
      framer.push(Buffer.alloc(997, 0x41));
      expect(framer.bufferedBytes).toBeLessThan(250);
    }
    framer.end();
  });

  it('counts discards by reason', () => {
    const framer = new FrameDecoder();
    runFramer(
      [
        'junk\r\n',
        `${card.slice(0, -6)}0000\r\n`,
        '$SH,1,CUT\r\n',
        `x${card}`,
        `${'z'.repeat(300)}\r\n`,
        '$SH,3',
      ],
      framer,
    );
    expect(framer.stats).toEqual({
      frames: 1,
      discards: { no_start: 2, bad_crc: 1, malformed: 2, too_long: 1 },
    });
  });

  it('reports a tail cut off by the end of input as malformed', () => {
    const events = runFramer([card, card.trimEnd()]);
    expect(events.map((event) => (event.kind === 'frame' ? 'frame' : event.reason))).toEqual([
      'frame',
      'malformed',
    ]);
  });

  it('validates its options', () => {
    for (const bad of [{ maxLineBytes: 3 }, { maxLineBytes: 1.5 }, { other: 1 }] as object[]) {
      try {
        new FrameDecoder(bad);
        expect.unreachable('accepted bad options');
      } catch (error) {
        expect(isProtocolError(error) && error.code === 'bad_options').toBe(true);
        expect((error as Error).message).toMatch(/framer options/);
      }
    }
    expect(new FrameDecoder({ maxLineBytes: 100 }).options.maxLineBytes).toBe(100);
  });
});
