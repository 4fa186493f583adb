/**
 * Every frame in PROTOCOL.md is a golden vector: a line in a fenced block
 * that starts with `$`, or with a direction such as `SH→HO` then `$`.
 * Lines marked `corrupted: $...` must read as bad CRCs.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CRC_INITIAL, crc16Hex, crc16Update } from '../../../device-protocol/crc.ts';
import { encodeFrame, parseFrameLine } from '../../../device-protocol/frame.ts';
import {
  decodeMessage,
  isMessageType,
  MESSAGE_TYPES,
  messageFrame,
} from '../../../device-protocol/messages.ts';

const specPath = new URL('../../../device-protocol/PROTOCOL.md', import.meta.url);
const spec = readFileSync(specPath, 'utf8');

function fencedLines(markdown: string): string[] {
  const lines: string[] = [];
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) inFence = !inFence;
    else if (inFence) lines.push(line);
  }
  return lines;
}

const fenced = fencedLines(spec);
const vectors = fenced.flatMap((line) => {
  const match = /^(?:[A-Z]{2}→[A-Z]{2} +)?(\$.*)$/.exec(line);
  return match ? [match[1]!] : [];
});
const corrupted = fenced.flatMap((line) => {
  const match = /corrupted: (\$.*)$/.exec(line);
  return match ? [match[1]!] : [];
});

describe('PROTOCOL.md golden vectors', () => {
  it('has examples of every message type', () => {
    expect(vectors.length).toBeGreaterThan(40);
    const types = new Set(vectors.map((line) => line.split(',')[2]?.split('*')[0]));
    for (const type of MESSAGE_TYPES) expect(types.has(type), type).toBe(true);
  });

  it.each(vectors)('%s parses with a valid CRC, decodes and re-encodes byte for byte', (line) => {
    const event = parseFrameLine(`${line}\r\n`);
    expect(event.kind, event.kind === 'discard' ? event.detail : '').toBe('frame');
    if (event.kind !== 'frame') return;
    expect(encodeFrame(event.frame)).toBe(`${line}\r\n`);
    const decoded = decodeMessage(event.frame);
    if (isMessageType(event.frame.type)) {
      expect(decoded.kind, decoded.kind === 'invalid' ? decoded.error : '').toBe('message');
      if (decoded.kind === 'message') {
        const again = messageFrame(event.frame.talker, event.frame.seq, decoded.message);
        expect(encodeFrame(again)).toBe(`${line}\r\n`);
      }
    } else {
      expect(decoded.kind).toBe('unsupported');
    }
  });

  it('shows corrupted frames that really fail their CRC', () => {
    expect(corrupted.length).toBeGreaterThan(0);
    for (const line of corrupted)
      expect(parseFrameLine(line)).toMatchObject({ kind: 'discard', reason: 'bad_crc' });
  });

  it('shows the running CRC of the worked example as the code computes it', () => {
    const rows = spec.split('\n').filter((line) => /^\|\s*(byte|CRC)\s*\|/.test(line));
    const cells = (line: string) =>
      line
        .split('|')
        .slice(2, -1)
        .map((cell) => cell.trim().replaceAll('*', ''));
    const bytes = rows.filter((line) => /^\|\s*byte/.test(line)).flatMap(cells);
    const values = rows.filter((line) => /^\|\s*CRC/.test(line)).flatMap(cells);
    expect(bytes.join('')).toBe('SH,17,CARD,AS,red,down');
    let crc = CRC_INITIAL;
    const running = bytes.map((byte) => {
      crc = crc16Update(crc, Buffer.from(byte));
      return crc.toString(16).toUpperCase().padStart(4, '0');
    });
    expect(values).toEqual(running);
  });

  it('states the CRC check value and worked example the code computes', () => {
    expect(spec).toContain('`123456789` is `29B1`');
    expect(crc16Hex('123456789')).toBe('29B1');
    expect(spec).toContain('**BBE2**');
    expect(crc16Hex('SH,17,CARD,AS,red,down')).toBe('BBE2');
  });
});
