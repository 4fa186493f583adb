import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseFrameLine, TALKERS } from '../../../device-protocol/frame.ts';
import {
  decodeMessage,
  MESSAGE_SINCE,
  messageFrame,
  PROTOCOL_VERSION,
  peerKnows,
} from '../../../device-protocol/messages.ts';

const spec = readFileSync(new URL('../../../device-protocol/PROTOCOL.md', import.meta.url), 'utf8');

function decodeLine(line: string) {
  const event = parseFrameLine(`${line}\r\n`);
  if (event.kind !== 'frame') throw new Error(`${line}: ${event.detail}`);
  return decodeMessage(event.frame);
}

/** A frame body with its real CRC, built by hand (the codec refuses to build a bad one). */
function raw(body: string): string {
  // CRC-16/CCITT-FALSE, written out here so the test does not trust the production CRC.
  let crc = 0xffff;
  for (const byte of Buffer.from(body, 'latin1')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return `$${body}*${crc.toString(16).toUpperCase().padStart(4, '0')}`;
}

describe('the roulette wheel talker RW (protocol 1.5)', () => {
  it('is a talker and its types are 1.5 types', () => {
    expect(TALKERS).toContain('RW');
    expect(PROTOCOL_VERSION).toBe('1.7');
    for (const type of ['ROTOR', 'BALL', 'RESULT', 'NOSPIN', 'NOMOREBETS'] as const) {
      expect(MESSAGE_SINCE[type]).toBe('1.5');
      expect(peerKnows(type, '1.5')).toBe(true);
      expect(peerKnows(type, '1.2')).toBe(false);
    }
  });

  it('decodes a spin field by field', () => {
    expect(decodeLine(raw('RW,5,ROTOR,ccw,27.5'))).toEqual({
      kind: 'message',
      message: { type: 'ROTOR', direction: 'ccw', rpm: 27.5 },
    });
    expect(decodeLine(raw('RW,6,BALL,cw'))).toEqual({
      kind: 'message',
      message: { type: 'BALL', direction: 'cw' },
    });
    expect(decodeLine(raw('RW,7,RESULT,0,14'))).toEqual({
      kind: 'message',
      message: { type: 'RESULT', number: 0, revolutions: 14 },
    });
    expect(decodeLine(raw('RW,8,RESULT,36,9'))).toMatchObject({ kind: 'message' });
    expect(decodeLine(raw('RW,9,NOSPIN,foreign_object'))).toEqual({
      kind: 'message',
      message: { type: 'NOSPIN', reason: 'foreign_object' },
    });
    expect(decodeLine(raw('RW,10,NOMOREBETS'))).toEqual({
      kind: 'message',
      message: { type: 'NOMOREBETS' },
    });
  });

  it.each([
    ['RW,1,RESULT,37,12', /RESULT field 1 \(number\): 37: expected 0-36/],
    ['RW,1,RESULT,00,12', /number.*"00"/],
    ['RW,1,RESULT,-1,12', /number/],
    ['RW,1,RESULT,17', /revolutions.*missing/],
    ['RW,1,RESULT,17,1000', /revolutions.*expected 0-999/],
    ['RW,1,ROTOR,left,27', /direction.*"left": expected one of cw ccw/],
    ['RW,1,ROTOR,cw,0', /rpm.*the rotor must turn/],
    ['RW,1,ROTOR,cw,27.55', /rpm/],
    ['RW,1,BALL,CW', /direction.*"CW"/],
    ['RW,1,BALL,cw,ccw', /too many/],
    ['RW,1,NOSPIN,Chip In Wheel', /reason/],
    ['RW,1,NOMOREBETS,now', /too many/],
    ['SH,1,RESULT,17,12', /RESULT may not come from SH: only from RW/],
    ['RW,1,CARD,AS,red,down', /CARD may not come from RW/],
  ])('refuses %s naming what is wrong', (body, error) => {
    const decoded = decodeLine(raw(body));
    expect(decoded.kind).toBe('invalid');
    if (decoded.kind === 'invalid') expect(decoded.error).toMatch(error);
  });

  it('will not build an impossible frame', () => {
    expect(() => messageFrame('RW', 1, { type: 'RESULT', number: 37, revolutions: 3 })).toThrow(
      /number.*expected 0-36/,
    );
    expect(() =>
      messageFrame('RW', 1, { type: 'BALL', direction: 'left' as unknown as 'cw' }),
    ).toThrow(/direction/);
    expect(() => messageFrame('HO', 1, { type: 'NOMOREBETS' })).toThrow(/may not come from HO/);
  });

  it('shows refused frames in PROTOCOL.md § 7.5 that have real CRCs and really are refused', () => {
    const refused = spec
      .split('\n')
      .flatMap((line) => /^refused: (\$.*)$/.exec(line)?.slice(1, 2) ?? []);
    expect(refused.length).toBeGreaterThanOrEqual(2);
    for (const line of refused) {
      const body = line.slice(1, line.indexOf('*'));
      expect(line, 'CRC as computed here').toBe(raw(body));
      expect(decodeLine(line).kind, line).toBe('invalid');
    }
  });
});
