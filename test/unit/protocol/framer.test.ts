import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { isProtocolError } from '../../../device-protocol/errors.ts';
import { encodeFrame, type FrameEvent } from '../../../device-protocol/frame.ts';
import { FrameDecoder } from '../../../device-protocol/frame-decoder.ts';
import { Framer } from '../../../device-protocol/framer.ts';

async function runFramer(
  chunks: Array<string | Buffer>,
  framer = new Framer(),
): Promise<FrameEvent[]> {
  const events: FrameEvent[] = [];
  framer.on('data', (event: FrameEvent) => events.push(event));
  await pipeline(
    Readable.from(
      chunks.map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk)),
    ),
    framer,
  );
  return events;
}

const card = encodeFrame({ talker: 'SH', seq: 17, type: 'CARD', fields: ['AS', 'red', 'down'] });
const cut = encodeFrame({ talker: 'SH', seq: 18, type: 'CUT', fields: [] });

describe('Framer stream', () => {
  it('yields frames as objects, whole or split anywhere, CR LF split included', async () => {
    const whole = await runFramer([card + cut]);
    expect(whole.map((event) => event.kind)).toEqual(['frame', 'frame']);
    const split = await runFramer([
      card.slice(0, 5),
      card.slice(5, -1),
      card.slice(-1) + cut.slice(0, 3),
      cut.slice(3),
    ]);
    expect(split).toEqual(whole);
    const bytewise = await runFramer([...(card + cut)]);
    expect(bytewise).toEqual(whole);
  });

  it('discards an over-long line up to the next CR LF, counts it, and reads the next frame', async () => {
    const framer = new Framer();
    const events = await runFramer(
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

  it('never buffers more than the line limit while a line has no CR LF', async () => {
    const framer = new Framer();
    framer.on('data', () => undefined);
    for (let index = 0; index < 200; index++) {
      framer.write(Buffer.alloc(997, 0x41));
      expect(framer.bufferedBytes).toBeLessThan(250);
    }
    framer.end();
  });

  it('counts discards by reason', async () => {
    const framer = new Framer();
    await runFramer(
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

  it('reports a tail cut off by the end of input as malformed', async () => {
    const events = await runFramer([card, card.trimEnd()]);
    expect(events.map((event) => (event.kind === 'frame' ? 'frame' : event.reason))).toEqual([
      'frame',
      'malformed',
    ]);
  });

  it('validates its options', () => {
    for (const bad of [{ maxLineBytes: 3 }, { maxLineBytes: 1.5 }, { other: 1 }] as object[]) {
      try {
        new Framer(bad);
        expect.unreachable('accepted bad options');
      } catch (error) {
        expect(isProtocolError(error) && error.code === 'bad_options').toBe(true);
        expect((error as Error).message).toMatch(/framer options/);
      }
    }
    expect(new Framer({ maxLineBytes: 100 }).options.maxLineBytes).toBe(100);
  });

  it('gives the same events as the pure FrameDecoder', async () => {
    const input = [
      'junk',
      card,
      '$$',
      cut.slice(0, 4),
      'q'.repeat(400),
      '\r\n',
      cut,
      card.trimEnd(),
    ];
    const decoder = new FrameDecoder();
    const pure = input.flatMap((chunk) => decoder.push(chunk)).concat(decoder.end());
    expect(await runFramer(input)).toEqual(pure);
  });
});
