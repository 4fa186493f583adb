import { describe, expect, it } from 'vitest';
import { crc16Hex } from '../../../device-protocol/crc.ts';
import { isProtocolError } from '../../../device-protocol/errors.ts';
import {
  encodeFrame,
  type FrameEvent,
  MAX_LINE_BYTES,
  nextSeq,
  parseFrameLine,
  scanLine,
  tryEncodeFrame,
} from '../../../device-protocol/frame.ts';

function reasonOf(event: FrameEvent | undefined): string {
  if (event === undefined) return 'nothing';
  return event.kind === 'frame' ? 'frame' : event.reason;
}

describe('frame grammar', () => {
  it('encodes a frame with its CRC and CR LF, and parses it back', () => {
    const line = encodeFrame({
      talker: 'SH',
      seq: 17,
      type: 'CARD',
      fields: ['AS', 'red', 'down'],
    });
    expect(line).toBe('$SH,17,CARD,AS,red,down*BBE2\r\n');
    expect(parseFrameLine(line)).toEqual({
      kind: 'frame',
      frame: { talker: 'SH', seq: 17, type: 'CARD', fields: ['AS', 'red', 'down'] },
    });
    expect(parseFrameLine(line.trimEnd())).toEqual(parseFrameLine(line));
  });

  it('tells a frame without fields from one with a single empty field', () => {
    const none = encodeFrame({ talker: 'SH', seq: 1, type: 'CUT', fields: [] });
    const empty = encodeFrame({ talker: 'SH', seq: 1, type: 'CUT', fields: [''] });
    expect(none).toMatch(/^\$SH,1,CUT\*/);
    expect(empty).toMatch(/^\$SH,1,CUT,\*/);
    expect(parseFrameLine(none)).toMatchObject({ frame: { fields: [] } });
    expect(parseFrameLine(empty)).toMatchObject({ frame: { fields: [''] } });
  });

  it('refuses to encode bad talkers, seqs, types, fields and over-long frames, naming the problem', () => {
    const cases: Array<[Parameters<typeof encodeFrame>[0], RegExp]> = [
      [{ talker: 'XX' as 'SH', seq: 1, type: 'CUT', fields: [] }, /talker "XX"/],
      [{ talker: 'SH', seq: 65536, type: 'CUT', fields: [] }, /seq 65536/],
      [{ talker: 'SH', seq: -1, type: 'CUT', fields: [] }, /seq -1/],
      [{ talker: 'SH', seq: 1.5, type: 'CUT', fields: [] }, /seq 1.5/],
      [{ talker: 'SH', seq: 1, type: 'card', fields: [] }, /type "card"/],
      [{ talker: 'SH', seq: 1, type: 'CARD', fields: ['a,b'] }, /field 1/],
      [{ talker: 'SH', seq: 1, type: 'CARD', fields: ['ok', 'a*b'] }, /field 2/],
      [{ talker: 'SH', seq: 1, type: 'CARD', fields: ['$'] }, /field 1/],
      [{ talker: 'SH', seq: 1, type: 'CARD', fields: ['\r'] }, /field 1/],
      [{ talker: 'SH', seq: 1, type: 'CARD', fields: ['é'] }, /field 1/],
      [{ talker: 'SH', seq: 1, type: 'CARD', fields: ['x'.repeat(240)] }, /too long/],
    ];
    for (const [frame, message] of cases) {
      const result = tryEncodeFrame(frame);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error).toMatch(message);
      try {
        encodeFrame(frame);
        expect.unreachable('encoded a bad frame');
      } catch (error) {
        expect(isProtocolError(error) && error.code === 'bad_frame').toBe(true);
      }
    }
  });

  it('accepts a frame of exactly 250 bytes and refuses 251', () => {
    const head = { talker: 'SH' as const, seq: 1, type: 'X' };
    const overhead = encodeFrame({ ...head, fields: [''] }).length;
    const longest = encodeFrame({ ...head, fields: ['y'.repeat(MAX_LINE_BYTES - overhead)] });
    expect(longest.length).toBe(MAX_LINE_BYTES);
    expect(reasonOf(parseFrameLine(longest))).toBe('frame');
    expect(
      tryEncodeFrame({ ...head, fields: ['y'.repeat(MAX_LINE_BYTES - overhead + 1)] }).ok,
    ).toBe(false);
  });

  it('reads a bad CRC as bad_crc and keeps the talker and seq for the NAK', () => {
    const event = parseFrameLine('$SH,17,CARD,KS,red,down*BBE2');
    expect(event).toMatchObject({ kind: 'discard', reason: 'bad_crc', talker: 'SH', seq: 17 });
  });

  it('reads grammar faults as malformed, the missing $ as no_start', () => {
    const cases: Array<[string, string]> = [
      ['SH,1,CUT*F482', 'no_start'],
      ['$SH,1,CUT', 'malformed'],
      ['$SH,1,CUT*f482', 'malformed'],
      ['$SH,1,CUT*F48', 'malformed'],
      ['$SH,1,CUT*F4822', 'malformed'],
    ];
    for (const [line, reason] of cases) expect(reasonOf(parseFrameLine(line)), line).toBe(reason);
  });

  it('reads a valid CRC over a bad talker, seq, type or a control byte as malformed', () => {
    // The CRC is computed by hand so that the body can break the grammar.
    const sign = (body: string) => `$${body}*${crc16Hex(body)}`;
    for (const body of [
      'XX,1,CUT',
      'SH,01,CUT',
      'SH,65536,CUT',
      'SH,,CUT',
      'SH,1,cut',
      'SH,1',
      'SH,1,CUT,\x01',
      'SH',
    ]) {
      const event = parseFrameLine(sign(body));
      expect(reasonOf(event), body).toBe('malformed');
    }
  });

  it('wraps seqs from 65535 to 0', () => {
    expect(nextSeq(0)).toBe(1);
    expect(nextSeq(65534)).toBe(65535);
    expect(nextSeq(65535)).toBe(0);
  });
});

describe('scanning a received line', () => {
  const card = encodeFrame({
    talker: 'SH',
    seq: 17,
    type: 'CARD',
    fields: ['AS', 'red', 'down'],
  }).trimEnd();
  const cut = encodeFrame({ talker: 'SH', seq: 18, type: 'CUT', fields: [] }).trimEnd();

  it('reports garbage before $ as no_start and still parses the frame after it', () => {
    const events = scanLine(`\x00noise${card}`);
    expect(events.map(reasonOf)).toEqual(['no_start', 'frame']);
    expect(events[0]).toMatchObject({ raw: '\x00noise' });
  });

  it('resyncs on the next $ when a frame lost its CR LF', () => {
    expect(scanLine(`${card}${cut}`).map(reasonOf)).toEqual(['malformed', 'frame']);
    expect(scanLine(`${card.slice(0, 9)}${cut}`).map(reasonOf)).toEqual(['malformed', 'frame']);
  });

  it('ignores empty lines and reports a line without $ as no_start', () => {
    expect(scanLine('')).toEqual([]);
    expect(scanLine('hello').map(reasonOf)).toEqual(['no_start']);
  });

  it('reports an unterminated tail as malformed even when its CRC is right', () => {
    expect(scanLine(card, { terminated: false }).map(reasonOf)).toEqual(['malformed']);
  });

  it('reports an over-long line as one too_long discard', () => {
    expect(scanLine(`${'x'.repeat(300)}${card}`).map(reasonOf)).toEqual(['too_long']);
  });
});
