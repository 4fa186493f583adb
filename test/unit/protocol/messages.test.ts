import { describe, expect, it } from 'vitest';
import { standardDeck } from '../../../device-protocol/cards.ts';
import { isProtocolError } from '../../../device-protocol/errors.ts';
import {
  encodeFrame,
  type Frame,
  MAX_LINE_BYTES,
  type Talker,
} from '../../../device-protocol/frame.ts';
import {
  decodeMessage,
  encodeMessage,
  isCompatibleProtocol,
  type Message,
  maySend,
  messageFrame,
} from '../../../device-protocol/messages.ts';
import { ShuffleOrderAssembler, shuffledMessages } from '../../../device-protocol/shuffle-order.ts';

const frame = (talker: Talker, type: string, ...fields: string[]): Frame => ({
  talker,
  seq: 1,
  type,
  fields,
});

function expectThrowsProtocolError(run: () => unknown, pattern: RegExp): void {
  try {
    run();
    expect.unreachable('did not throw');
  } catch (error) {
    expect(isProtocolError(error)).toBe(true);
    expect((error as Error).message).toMatch(pattern);
  }
}

describe('message codecs', () => {
  it('decodes a shoe CARD into card, back colour and orientation', () => {
    expect(decodeMessage(frame('SH', 'CARD', 'AS', 'red', 'down'))).toEqual({
      kind: 'message',
      message: { type: 'CARD', card: 'AS', back: 'red', face: 'down' },
    });
  });

  it('reports an unknown TYPE as unsupported, not as invalid', () => {
    expect(decodeMessage(frame('SH', 'FROB', 'x'))).toEqual({ kind: 'unsupported', type: 'FROB' });
  });

  it('reports bad fields as invalid, naming the field and the value', () => {
    const cases: Array<[Frame, RegExp]> = [
      [frame('SH', 'CARD', 'AX', 'red', 'down'), /CARD field 1 \(card\).*"AX"/],
      [frame('SH', 'CARD', 'AS', 'Red', 'down'), /field 2 \(back\)/],
      [frame('SH', 'CARD', 'AS', 'red', 'sideways'), /field 3 \(face\)/],
      [frame('SH', 'CARD', 'AS', 'red'), /field 3 \(face\): missing/],
      [frame('SH', 'CARD', 'AS', 'red', 'down', '04A2', 'extra'), /field 4 \(uid\)/],
      [frame('SH', 'CUT', 'x'), /CUT: 1 field\(s\) too many/],
      [frame('SH', 'LID', 'ajar'), /expected one of open closed/],
      [frame('HO', 'SHUFFLE', '0'), /decks.*1-16/],
      [frame('HO', 'SHUFFLE', '08'), /decks/],
      [frame('SH', 'HELLO', 'm', 's', '1.0', 'fw', 'ABC'), /sha256/],
      [frame('HO', 'ACK', '65536'), /acked seq/],
      [frame('HO', 'NAK', 'x', 'bad_crc'), /NAK field 1 \(seq\)/],
      [frame('SH', 'STATUS', 'ready', 'noequals'), /key=value/],
      [frame('SH', 'STATUS', 'ready', 'a=1', 'a=2'), /given twice/],
      [frame('SF', 'ORDER', '0'), /0 cards: expected 1-64/],
      [frame('SF', 'COUNT', '10', '1', '0', '-AS', '-KH'), /2 missing cards listed, count says 1/],
      [frame('SF', 'COUNT', '10', '1', '0', 'AS'), /-<card>/],
      [frame('RD', 'TAG', '04a224b2'), /upper-case hex/],
      [frame('RD', 'TAG', '04A'), /upper-case hex/],
    ];
    for (const [input, pattern] of cases) {
      const decoded = decodeMessage(input);
      expect(decoded.kind, `${input.type} ${input.fields.join(',')}`).toBe('invalid');
      if (decoded.kind === 'invalid') expect(decoded.error).toMatch(pattern);
    }
  });

  it('knows which talker may send which type', () => {
    expect(maySend('HO', 'INDICATE')).toBe(true);
    expect(maySend('SH', 'INDICATE')).toBe(false);
    expect(maySend('SF', 'SHUFFLED')).toBe(true);
    expect(maySend('HO', 'SHUFFLED')).toBe(false);
    expect(maySend('RD', 'CARD')).toBe(true);
    expect(maySend('SF', 'CARD')).toBe(false);
    expect(decodeMessage(frame('SH', 'GATE', 'lock'))).toMatchObject({
      kind: 'invalid',
      error: 'GATE may not come from SH: only from HO',
    });
    expectThrowsProtocolError(
      () => messageFrame('HO', 1, { type: 'CARD', card: 'AS', back: 'red', face: 'up' }),
      /may not come from HO/,
    );
  });

  it('validates messages on encode, naming the bad field', () => {
    expectThrowsProtocolError(
      () => encodeMessage({ type: 'CARD', card: 'ZZ' as 'AS', back: 'red', face: 'up' }),
      /card/,
    );
    expectThrowsProtocolError(() => encodeMessage({ type: 'SHUFFLE', decks: 17 }), /decks/);
    expectThrowsProtocolError(
      () => encodeMessage({ type: 'ERROR', code: 'x', detail: 'a,b' }),
      /detail/,
    );
    expectThrowsProtocolError(
      () => encodeMessage({ type: 'BOGUS' } as unknown as Message),
      /unknown message type "BOGUS"/,
    );
    expectThrowsProtocolError(
      () =>
        encodeMessage({
          type: 'COUNT',
          counted: 1,
          missing: 0,
          extra: 0,
          missingCards: ['AS'],
          extraCards: [],
        }),
      /missing cards listed/,
    );
  });

  it('keeps even the longest messages within 250 bytes', () => {
    const hello: Message = {
      type: 'HELLO',
      model: 'M'.repeat(32),
      serial: 'S'.repeat(32),
      protocol: '999.999',
      firmware: 'F'.repeat(32),
      firmwareSha256: 'a'.repeat(64),
    };
    const order: Message = {
      type: 'ORDER',
      offset: 9935,
      cards: Array.from({ length: 64 }, () => 'KS' as const),
    };
    const count: Message = {
      type: 'COUNT',
      counted: 9999,
      missing: 9999,
      extra: 9999,
      missingCards: standardDeck().slice(0, 24),
      extraCards: standardDeck().slice(24, 48),
    };
    for (const [talker, message] of [
      ['SH', hello],
      ['SF', order],
      ['SF', count],
    ] as const) {
      expect(encodeFrame(messageFrame(talker, 65535, message)).length).toBeLessThanOrEqual(
        MAX_LINE_BYTES,
      );
    }
  });

  it('accepts the same protocol major version only', () => {
    expect(isCompatibleProtocol('1.0')).toBe(true);
    expect(isCompatibleProtocol('1.7')).toBe(true);
    expect(isCompatibleProtocol('2.0')).toBe(false);
    expect(isCompatibleProtocol('1')).toBe(false);
  });
});

describe('shuffled order in chunks', () => {
  const eightDecks = Array.from({ length: 8 }, () => standardDeck()).flat();

  it('splits an 8-deck order into ORDER chunks that each fit a line', () => {
    const messages = shuffledMessages({ order: eightDecks });
    expect(messages[0]).toEqual({ type: 'SHUFFLED', count: 416, order: true });
    expect(messages).toHaveLength(1 + Math.ceil(416 / 64));
    for (const [index, message] of messages.entries()) {
      const line = encodeFrame(messageFrame('SF', 65535, message));
      expect(line.length, `message ${index}`).toBeLessThanOrEqual(MAX_LINE_BYTES);
    }
  });

  it('puts the order back together whatever order the chunks arrive in', () => {
    const [shuffled, ...chunks] = shuffledMessages({ order: eightDecks });
    const assembler = new ShuffleOrderAssembler();
    expect(assembler.accept(shuffled!)).toEqual({ kind: 'pending', received: 0, count: 416 });
    const reversed = chunks.reverse();
    for (const chunk of reversed.slice(0, -1)) expect(assembler.accept(chunk).kind).toBe('pending');
    expect(assembler.accept(reversed.at(-1)!)).toEqual({
      kind: 'complete',
      count: 416,
      order: eightDecks,
    });
  });

  it('completes at once without an order, and refuses stray or overflowing chunks', () => {
    const assembler = new ShuffleOrderAssembler();
    expect(assembler.accept({ type: 'ORDER', offset: 0, cards: ['AS'] }).kind).toBe('error');
    expect(assembler.accept({ type: 'SHUFFLED', count: 312, order: false })).toEqual({
      kind: 'complete',
      count: 312,
    });
    assembler.accept({ type: 'SHUFFLED', count: 2, order: true });
    expect(assembler.accept({ type: 'ORDER', offset: 1, cards: ['AS', 'KS'] })).toMatchObject({
      kind: 'error',
    });
    expect(shuffledMessages({ count: 52 })).toEqual([
      { type: 'SHUFFLED', count: 52, order: false },
    ]);
  });
});
