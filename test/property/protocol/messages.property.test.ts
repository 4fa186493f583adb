import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CardCode, RANKS, SUITS } from '../../../device-protocol/cards.ts';
import {
  encodeFrame,
  parseFrameLine,
  TALKERS,
  type Talker,
} from '../../../device-protocol/frame.ts';
import {
  COUNT_LIST_MAX,
  decodeMessage,
  MAX_BACKS,
  MESSAGE_TYPES,
  type Message,
  type MessageType,
  messageFrame,
  ORDER_CHUNK_CARDS,
  sendersOf,
} from '../../../device-protocol/messages.ts';

const chars = (alphabet: string, min: number, max: number) =>
  fc
    .array(fc.constantFrom(...alphabet), { minLength: min, maxLength: max })
    .map((list) => list.join(''));
const lower = 'abcdefghijklmnopqrstuvwxyz';
const digits = '0123456789';
const upper = lower.toUpperCase();
const hex = '0123456789ABCDEF';

const card: fc.Arbitrary<CardCode> = fc.oneof(
  {
    weight: 20,
    arbitrary: fc
      .tuple(fc.constantFrom(...RANKS), fc.constantFrom(...SUITS))
      .map(([r, s]) => `${r}${s}` as CardCode),
  },
  { weight: 1, arbitrary: fc.constant('JK' as const) },
);
const word = fc
  .tuple(chars(lower, 1, 1), chars(lower + digits + '_', 0, 23))
  .map(([a, b]) => a + b);
const name = fc
  .tuple(chars(upper + lower + digits, 1, 1), chars(upper + lower + digits + '._-', 0, 31))
  .map(([a, b]) => a + b);
const back = fc
  .tuple(chars(lower, 1, 1), chars(lower + digits + '-', 0, 15))
  .map(([a, b]) => a + b);
const face = fc.constantFrom('up' as const, 'down' as const);
const uid = fc.integer({ min: 4, max: 10 }).chain((bytes) => chars(hex, bytes * 2, bytes * 2));
const token = chars(upper + lower + digits, 1, 16);
const seq = fc.integer({ min: 0, max: 65535 });
const count = fc.integer({ min: 0, max: 9999 });
const decks = fc.integer({ min: 1, max: 16 });
const freeText = fc
  .array(
    fc
      .integer({ min: 0x20, max: 0x7e })
      .filter((code) => code !== 0x24 && code !== 0x2c && code !== 0x2a),
    {
      minLength: 1,
      maxLength: 120,
    },
  )
  .map((codes) => String.fromCharCode(...codes));
const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
/** Drops undefined optional keys, as decoding does. */
const compact = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

const ARBITRARIES: { [T in MessageType]: fc.Arbitrary<Extract<Message, { type: T }>> } = {
  HELLO: fc.record({
    type: fc.constant('HELLO'),
    model: name,
    serial: name,
    protocol: fc.tuple(fc.nat(999), fc.nat(999)).map(([a, b]) => `${a}.${b}`),
    firmware: fc
      .tuple(chars(upper + digits, 1, 1), chars(upper + lower + digits + '.+_-', 0, 31))
      .map(([a, b]) => a + b),
    firmwareSha256: chars('0123456789abcdef', 64, 64),
  }),
  PING: fc.record({ type: fc.constant('PING'), token: optional(token) }).map(compact),
  PONG: fc.record({ type: fc.constant('PONG'), token: optional(token) }).map(compact),
  ACK: fc.record({ type: fc.constant('ACK'), ackedSeq: seq }),
  NAK: fc.record({ type: fc.constant('NAK'), nakedSeq: optional(seq), reason: word }).map(compact),
  STATUS: fc.record({
    type: fc.constant('STATUS'),
    state: word,
    details: fc.dictionary(
      fc.tuple(chars(lower, 1, 1), chars(lower + digits + '_', 0, 15)).map(([a, b]) => a + b),
      chars(lower + digits + '=-. ', 0, 10),
      { maxKeys: 6 },
    ),
  }),
  ERROR: fc
    .record({ type: fc.constant('ERROR'), code: word, detail: optional(freeText) })
    .map(compact),
  CARD: fc.record({ type: fc.constant('CARD'), card, back, face, uid: optional(uid) }).map(compact),
  CUT: fc.record({ type: fc.constant('CUT') }),
  JAM: fc
    .record({
      type: fc.constant('JAM'),
      state: fc.constantFrom('jammed' as const, 'cleared' as const),
      location: optional(word),
    })
    .map(compact),
  LID: fc.record({
    type: fc.constant('LID'),
    state: fc.constantFrom('open' as const, 'closed' as const),
  }),
  INDICATE: fc.record({
    type: fc.constant('INDICATE'),
    light: fc.tuple(chars(lower, 1, 1), chars(lower + digits + '_-', 0, 15)).map(([a, b]) => a + b),
    mode: fc.constantFrom('on' as const, 'off' as const, 'blink' as const),
  }),
  ROTOR: fc.record({
    type: fc.constant('ROTOR'),
    direction: fc.constantFrom('cw' as const, 'ccw' as const),
    rpm: fc.integer({ min: 1, max: 999 }).map((tenths) => tenths / 10),
  }),
  BALL: fc.record({
    type: fc.constant('BALL'),
    direction: fc.constantFrom('cw' as const, 'ccw' as const),
  }),
  RESULT: fc.record({
    type: fc.constant('RESULT'),
    number: fc.integer({ min: 0, max: 36 }),
    revolutions: fc.integer({ min: 0, max: 999 }),
  }),
  NOSPIN: fc.record({ type: fc.constant('NOSPIN'), reason: word }),
  NOMOREBETS: fc.record({ type: fc.constant('NOMOREBETS') }),
  GATE: fc.record({
    type: fc.constant('GATE'),
    action: fc.constantFrom('lock' as const, 'unlock' as const),
  }),
  SHUFFLE: fc.record({ type: fc.constant('SHUFFLE'), decks }),
  DECKCHECK: fc.record({ type: fc.constant('DECKCHECK'), decks }),
  SHUFFLED: fc.record({ type: fc.constant('SHUFFLED'), count, order: fc.boolean() }),
  SHUFFLED2: fc.record({
    type: fc.constant('SHUFFLED2'),
    count,
    order: fc.boolean(),
    backs: fc.uniqueArray(back, { minLength: 1, maxLength: MAX_BACKS }),
  }),
  ORDER: fc.array(card, { minLength: 1, maxLength: ORDER_CHUNK_CARDS }).chain((cards) =>
    fc.record({
      type: fc.constant('ORDER' as const),
      offset: fc.integer({ min: 0, max: 9999 - cards.length }),
      cards: fc.constant(cards),
    }),
  ),
  COUNT: fc
    .tuple(fc.array(card, { maxLength: COUNT_LIST_MAX }), fc.nat(COUNT_LIST_MAX))
    .chain(([listed, split]) => {
      const missingCards = listed.slice(0, split);
      const extraCards = listed.slice(split);
      return fc.record({
        type: fc.constant('COUNT' as const),
        counted: count,
        missing: fc.integer({ min: missingCards.length, max: 9999 }),
        extra: fc.integer({ min: extraCards.length, max: 9999 }),
        missingCards: fc.constant(missingCards),
        extraCards: fc.constant(extraCards),
      });
    }),
  DOOR: fc.record({
    type: fc.constant('DOOR'),
    state: fc.constantFrom('open' as const, 'closed' as const),
  }),
  TAG: fc.record({ type: fc.constant('TAG'), uid }),
  FOREIGN: fc.record({ type: fc.constant('FOREIGN'), uid, back, face }),
  NOTAG: fc.record({ type: fc.constant('NOTAG'), back, face }),
};

describe('message codecs (property)', () => {
  it('has a generator for every message type', () => {
    expect(Object.keys(ARBITRARIES).sort()).toEqual([...MESSAGE_TYPES].sort());
  });

  it.each(MESSAGE_TYPES)(
    '%s: encode, frame, parse and decode give back the same message',
    (type) => {
      const senders = sendersOf(type) as readonly Talker[];
      fc.assert(
        fc.property(
          ARBITRARIES[type] as fc.Arbitrary<Message>,
          fc.constantFrom(...senders),
          seq,
          (message, talker, frameSeq) => {
            const line = encodeFrame(messageFrame(talker, frameSeq, message));
            expect(line.length).toBeLessThanOrEqual(250);
            const event = parseFrameLine(line);
            expect(event.kind).toBe('frame');
            if (event.kind !== 'frame') return;
            expect(event.frame.talker).toBe(talker);
            expect(event.frame.seq).toBe(frameSeq);
            expect(decodeMessage(event.frame)).toEqual({ kind: 'message', message });
          },
        ),
        { numRuns: 300 },
      );
    },
  );

  it('refuses every type from a talker not allowed to send it', () => {
    for (const type of MESSAGE_TYPES) {
      const senders = sendersOf(type)!;
      for (const talker of TALKERS.filter((candidate) => !senders.includes(candidate))) {
        const sample = fc.sample(ARBITRARIES[type] as fc.Arbitrary<Message>, {
          numRuns: 1,
          seed: 7,
        })[0]!;
        expect(() => messageFrame(talker, 1, sample), `${type} from ${talker}`).toThrow(
          /may not come from/,
        );
      }
    }
  });
});
