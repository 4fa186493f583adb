/**
 * Protocol 1.1 adds SHUFFLED2 (SHUFFLED plus the back colours) as a new
 * type, because the fields of an existing type never change within a major
 * version (PROTOCOL.md § 4): a 1.0 SHUFFLED still decodes as it did, and a
 * shuffler sends SHUFFLED2 only to a host that knows it.
 */
import { describe, expect, it } from 'vitest';
import { standardDeck } from '../../../device-protocol/cards.ts';
import { encodeFrame, type Frame, parseFrameLine } from '../../../device-protocol/frame.ts';
import {
  decodeMessage,
  MAX_BACKS,
  maySend,
  messageFrame,
  PROTOCOL_VERSION,
  peerKnows,
} from '../../../device-protocol/messages.ts';
import { ShuffleOrderAssembler, shuffledMessages } from '../../../device-protocol/shuffle-order.ts';

const frame = (type: string, ...fields: string[]): Frame => ({
  talker: 'SF',
  seq: 7,
  type,
  fields,
});

describe('SHUFFLED2 names the back colours, and old SHUFFLED frames still decode', () => {
  it('decodes a 1.0 SHUFFLED line from the wire exactly as before', () => {
    const event = parseFrameLine('$SF,7,SHUFFLED,416,order*6938\r\n');
    expect(event.kind).toBe('frame');
    if (event.kind !== 'frame') return;
    expect(decodeMessage(event.frame)).toEqual({
      kind: 'message',
      message: { type: 'SHUFFLED', count: 416, order: true },
    });
  });

  it('decodes SHUFFLED2 with one or several back colours and encodes it back', () => {
    expect(decodeMessage(frame('SHUFFLED2', '104', 'none', 'red', 'blue'))).toEqual({
      kind: 'message',
      message: { type: 'SHUFFLED2', count: 104, order: false, backs: ['red', 'blue'] },
    });
    const line = encodeFrame(
      messageFrame('SF', 14, { type: 'SHUFFLED2', count: 416, order: true, backs: ['red'] }),
    );
    expect(line).toBe('$SF,14,SHUFFLED2,416,order,red*C82B\r\n');
  });

  it.each([
    [['104', 'none'], /1-4/],
    [['104', 'none', 'red', 'blue', 'green', 'grey', 'black'], /5 back colours: expected 1-4/],
    [['104', 'none', 'red', 'red'], /red given twice/],
    [['104', 'none', 'Red'], /back colour/],
    [['104', 'maybe', 'red'], /order/],
  ])('refuses SHUFFLED2 %j, naming what is wrong', (fields, pattern) => {
    const decoded = decodeMessage(frame('SHUFFLED2', ...fields));
    expect(decoded.kind).toBe('invalid');
    if (decoded.kind === 'invalid') expect(decoded.error).toMatch(pattern);
  });

  it('comes from the shuffler only', () => {
    expect(maySend('SF', 'SHUFFLED2')).toBe(true);
    expect(maySend('SH', 'SHUFFLED2')).toBe(false);
    expect(maySend('HO', 'SHUFFLED2')).toBe(false);
    expect(MAX_BACKS).toBe(4);
  });

  it('is known to peers of protocol 1.1 and later of the same major version only', () => {
    expect(peerKnows('SHUFFLED2', PROTOCOL_VERSION)).toBe(true);
    expect(peerKnows('SHUFFLED2', '1.1')).toBe(true);
    expect(peerKnows('SHUFFLED2', '1.12')).toBe(true);
    expect(peerKnows('SHUFFLED2', '1.0')).toBe(false);
    expect(peerKnows('SHUFFLED2', '2.1')).toBe(false);
    expect(peerKnows('SHUFFLED2', undefined)).toBe(false);
    expect(peerKnows('SHUFFLED', '1.0')).toBe(true);
    expect(peerKnows('SHUFFLED', '1.1')).toBe(true);
  });

  it('is what shuffledMessages announces when it is given colours, with the same ORDER chunks', () => {
    const twoDecks = [...standardDeck(), ...standardDeck()];
    const plain = shuffledMessages({ order: twoDecks });
    const named = shuffledMessages({ order: twoDecks, backs: ['red', 'blue'] });
    expect(named[0]).toEqual({
      type: 'SHUFFLED2',
      count: 104,
      order: true,
      backs: ['red', 'blue'],
    });
    expect(named.slice(1)).toEqual(plain.slice(1));
    expect(shuffledMessages({ count: 52, backs: [] })).toEqual([
      { type: 'SHUFFLED', count: 52, order: false },
    ]);
    expect(shuffledMessages({ count: 52, backs: ['blue'] })).toEqual([
      { type: 'SHUFFLED2', count: 52, order: false, backs: ['blue'] },
    ]);
  });

  it('gives the colours with the assembled order, and none after a plain SHUFFLED', () => {
    const deck = standardDeck();
    const assembler = new ShuffleOrderAssembler();
    const [announce, ...chunks] = shuffledMessages({ order: deck, backs: ['blue'] });
    expect(assembler.accept(announce!).kind).toBe('pending');
    let report = assembler.accept(chunks[0]!);
    for (const chunk of chunks.slice(1)) report = assembler.accept(chunk);
    expect(report).toEqual({ kind: 'complete', count: 52, order: deck, backs: ['blue'] });
    expect(assembler.accept({ type: 'SHUFFLED', count: 52, order: false })).toEqual({
      kind: 'complete',
      count: 52,
    });
    expect(
      assembler.accept({ type: 'SHUFFLED2', count: 52, order: false, backs: ['red'] }),
    ).toEqual({ kind: 'complete', count: 52, backs: ['red'] });
  });
});
