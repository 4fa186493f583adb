/**
 * Message codecs: one typed message per TYPE, validated field by field in
 * both directions (PROTOCOL.md § 7). A codec also says which talkers
 * may send its type. Decoding never throws: a frame decodes to a message,
 * to `unsupported` (a TYPE this version does not know, which is not an
 * error) or to `invalid` (a known TYPE with bad fields, or from a talker
 * that may not send it).
 */
import {
  type BackColour,
  type CardCode,
  type Face,
  isCardCode,
  parseBackColour,
  parseCard,
  parseFace,
} from './cards.ts';
import { isProtocolError, ProtocolError } from './errors.ts';
import {
  type Frame,
  frameProblem,
  isFieldText,
  isSeq,
  MAX_SEQ,
  TALKERS,
  type Talker,
} from './frame.ts';

/** major.minor. A host refuses a device of another major version; minors add message types only. */
export const PROTOCOL_VERSION = '1.7';

function versionParts(text: string): { major: number; minor: number } | undefined {
  const match = /^([0-9]{1,3})\.([0-9]{1,3})$/.exec(text);
  return match ? { major: Number(match[1]), minor: Number(match[2]) } : undefined;
}

/** Whether a peer speaking `version` (from its HELLO) can talk to us: same major version. */
export function isCompatibleProtocol(version: string, ours: string = PROTOCOL_VERSION): boolean {
  const theirs = versionParts(version);
  return theirs !== undefined && theirs.major === versionParts(ours)?.major;
}

/**
 * Whether `version` (a HELLO's `major.minor`) is our major version at
 * `since` or later: for link rules added in a minor version, such as 1.2's
 * in-order window (PROTOCOL.md § 3.8).
 */
export function protocolAtLeast(version: string | undefined, since: string): boolean {
  const theirs = version === undefined ? undefined : versionParts(version);
  const wanted = versionParts(since);
  if (theirs === undefined || wanted === undefined) return false;
  if (theirs.major !== versionParts(PROTOCOL_VERSION)?.major || theirs.major !== wanted.major) {
    return false;
  }
  return theirs.minor >= wanted.minor;
}

/** The minor version that added a message type; types not listed are in 1.0. */
export const MESSAGE_SINCE: Readonly<Partial<Record<MessageType, string>>> = {
  SHUFFLED2: '1.1',
  ROTOR: '1.5',
  BALL: '1.5',
  RESULT: '1.5',
  NOSPIN: '1.5',
  NOMOREBETS: '1.5',
  FOREIGN: '1.3',
  NOTAG: '1.3',
};

/**
 * Whether a peer speaking `version` knows `type`: same major version, and a
 * minor at least the one that added it. A sender uses a type added in a
 * minor version only for a peer that knows it (PROTOCOL.md § 4); an older
 * peer would ACK it as unsupported and lose what it says.
 */
export function peerKnows(type: MessageType, version: string | undefined): boolean {
  const theirs = version === undefined ? undefined : versionParts(version);
  const since = versionParts(MESSAGE_SINCE[type] ?? '1.0')!;
  if (theirs === undefined || theirs.major !== versionParts(PROTOCOL_VERSION)?.major) return false;
  return theirs.minor >= since.minor;
}

const DEVICES: readonly Talker[] = ['SH', 'SF', 'RD', 'RW'];
const ALL: readonly Talker[] = TALKERS;

/** Most cards any count or offset can name: 16 decks x 4 back colours x 52, with room to spare. */
export const MAX_CARD_COUNT = 9999;
/** Cards per ORDER chunk; 64 card codes keep the line well under 250 bytes. */
export const ORDER_CHUNK_CARDS = 64;
/** Card entries a COUNT lists at most (its counts are always exact). */
export const COUNT_LIST_MAX = 48;
export const MAX_DECKS = 16;
/** Back colours one shuffle may hold (SHUFFLED2). */
export const MAX_BACKS = 4;

export interface HelloMessage {
  readonly type: 'HELLO';
  /** Device model, e.g. `TS-SHOE-2`. */
  readonly model: string;
  readonly serial: string;
  /** Protocol version the sender speaks, `major.minor`. */
  readonly protocol: string;
  readonly firmware: string;
  /** SHA-256 of the firmware image, 64 lower-case hex digits. */
  readonly firmwareSha256: string;
}
export interface PingMessage {
  readonly type: 'PING';
  /** Echoed in the PONG, to match them up. */
  readonly token?: string;
}
export interface PongMessage {
  readonly type: 'PONG';
  readonly token?: string;
}
export interface AckMessage {
  readonly type: 'ACK';
  readonly ackedSeq: number;
}
/** Reasons the link uses; a NAK may carry any lower-case word. */
export type NakReason = 'bad_crc' | 'too_long' | 'malformed' | 'hello' | 'rejected' | (string & {});
export interface NakMessage {
  readonly type: 'NAK';
  /** The refused frame's seq, absent when it could not be read. */
  readonly nakedSeq?: number;
  readonly reason: NakReason;
}
export interface StatusMessage {
  readonly type: 'STATUS';
  /** `ready`, `busy`, `idle`, `fault`, ... */
  readonly state: string;
  /** `key=value` details, in the order sent. */
  readonly details: Readonly<Record<string, string>>;
}
export interface ErrorMessage {
  readonly type: 'ERROR';
  readonly code: string;
  readonly detail?: string;
}
export interface CardMessage {
  readonly type: 'CARD';
  readonly card: CardCode;
  readonly back: BackColour;
  readonly face: Face;
  /** The RFID tag of the card, where the reader knows it. */
  readonly uid?: string;
}
export interface CutMessage {
  readonly type: 'CUT';
}
export interface JamMessage {
  readonly type: 'JAM';
  readonly state: 'jammed' | 'cleared';
  readonly location?: string;
}
export interface LidMessage {
  readonly type: 'LID';
  readonly state: 'open' | 'closed';
}
export interface IndicateMessage {
  readonly type: 'INDICATE';
  /** Which dealer light: `green`, `amber`, `red`, `blue`, `white` or a device-specific word. */
  readonly light: string;
  readonly mode: 'on' | 'off' | 'blink';
}
export interface GateMessage {
  readonly type: 'GATE';
  readonly action: 'lock' | 'unlock';
}
export interface ShuffleMessage {
  readonly type: 'SHUFFLE';
  readonly decks: number;
}
export interface DeckCheckMessage {
  readonly type: 'DECKCHECK';
  readonly decks: number;
}
export interface ShuffledMessage {
  readonly type: 'SHUFFLED';
  readonly count: number;
  /** Whether ORDER chunks with the card order follow. */
  readonly order: boolean;
}
/**
 * SHUFFLED with the back colours of the shuffled decks (protocol 1.1): the
 * host need not guess them. Sent only to a host whose HELLO says 1.1 or
 * later; to others, SHUFFLED.
 */
export interface Shuffled2Message {
  readonly type: 'SHUFFLED2';
  readonly count: number;
  readonly order: boolean;
  /** 1 to MAX_BACKS different colours, as the cards' backs read. */
  readonly backs: readonly BackColour[];
}
export interface OrderMessage {
  readonly type: 'ORDER';
  /** Position of the first card of this chunk in the shuffled order, from 0. */
  readonly offset: number;
  readonly cards: readonly CardCode[];
}
export interface CountMessage {
  readonly type: 'COUNT';
  readonly counted: number;
  readonly missing: number;
  readonly extra: number;
  /** At most COUNT_LIST_MAX entries over both lists; the counts are exact. */
  readonly missingCards: readonly CardCode[];
  readonly extraCards: readonly CardCode[];
}
export interface DoorMessage {
  readonly type: 'DOOR';
  readonly state: 'open' | 'closed';
}
export interface TagMessage {
  readonly type: 'TAG';
  /** The tag UID, 4 to 10 bytes as upper-case hex. */
  readonly uid: string;
}
/**
 * (1.3) A card left a shoe that reads tags, and its tag is not in the
 * shoe's deck registry: the shoe does not guess which card it was.
 */
export interface ForeignMessage {
  readonly type: 'FOREIGN';
  readonly uid: string;
  /** The back colour as the shoe's sensor read it. */
  readonly back: BackColour;
  readonly face: Face;
}
/** (1.3) A card crossed the shoe's exit and no tag was read in time: the shoe cannot name it. */
export interface NoTagMessage {
  readonly type: 'NOTAG';
  readonly back: BackColour;
  readonly face: Face;
}

/** Which way the rotor or the ball turns, seen from above the wheel. */
export type SpinDirection = 'cw' | 'ccw';
export const SPIN_DIRECTIONS: readonly SpinDirection[] = ['cw', 'ccw'];
/** The pockets of a single-zero wheel (003 Чл. 12(2): one zero). */
export const WHEEL_MAX_NUMBER = 36;
/** Ball revolutions a RESULT may report (a real spin makes 5-40). */
export const MAX_BALL_REVOLUTIONS = 999;

/** (1.5) The rotor was set turning: its direction and speed in revolutions per minute. */
export interface RotorMessage {
  readonly type: 'ROTOR';
  readonly direction: SpinDirection;
  /** Revolutions per minute, 0.1-99.9, at most one decimal. */
  readonly rpm: number;
}
/** (1.5) The ball was launched, turning this way. */
export interface BallMessage {
  readonly type: 'BALL';
  readonly direction: SpinDirection;
}
/** (1.5) The ball came to rest: the winning number and the revolutions it made. */
export interface ResultMessage {
  readonly type: 'RESULT';
  readonly number: number;
  readonly revolutions: number;
}
/** (1.5) The spin does not count (a chip in the wheel, the ball dropped, ...): a new game. */
export interface NoSpinMessage {
  readonly type: 'NOSPIN';
  readonly reason: string;
}
/** (1.5) The dealer closed the betting (the wheel's own sensor or button). */
export interface NoMoreBetsMessage {
  readonly type: 'NOMOREBETS';
}

export type Message =
  | RotorMessage
  | BallMessage
  | ResultMessage
  | NoSpinMessage
  | NoMoreBetsMessage
  | HelloMessage
  | PingMessage
  | PongMessage
  | AckMessage
  | NakMessage
  | StatusMessage
  | ErrorMessage
  | CardMessage
  | CutMessage
  | JamMessage
  | LidMessage
  | IndicateMessage
  | GateMessage
  | ShuffleMessage
  | DeckCheckMessage
  | ShuffledMessage
  | Shuffled2Message
  | OrderMessage
  | CountMessage
  | DoorMessage
  | TagMessage
  | ForeignMessage
  | NoTagMessage;

export type MessageType = Message['type'];
export type MessageOf<T extends MessageType> = Extract<Message, { type: T }>;

/** Reads a frame's fields in order, with errors naming the field. */
class FieldReader {
  #index = 0;
  constructor(
    private readonly type: string,
    private readonly fields: readonly string[],
  ) {}

  fail(name: string, message: string): never {
    throw new ProtocolError('bad_field', `${this.type} field ${this.#index} (${name}): ${message}`);
  }

  get remaining(): number {
    return this.fields.length - this.#index;
  }

  next(name: string): string {
    const value = this.fields[this.#index];
    this.#index++;
    if (value === undefined) this.fail(name, 'missing');
    return value;
  }

  optional(name: string): string | undefined {
    return this.remaining > 0 ? this.next(name) : undefined;
  }

  match(name: string, pattern: RegExp, expected: string): string {
    const value = this.next(name);
    if (!pattern.test(value)) this.fail(name, `${JSON.stringify(value)}: expected ${expected}`);
    return value;
  }

  oneOf<const T extends string>(name: string, choices: readonly T[]): T {
    const value = this.next(name);
    if (!(choices as readonly string[]).includes(value)) {
      this.fail(name, `${JSON.stringify(value)}: expected one of ${choices.join(' ')}`);
    }
    return value as T;
  }

  integer(name: string, min: number, max: number): number {
    const value = this.match(name, /^(0|[1-9][0-9]{0,5})$/, `a whole number ${min}-${max}`);
    const number = Number(value);
    if (number < min || number > max) this.fail(name, `${value}: expected ${min}-${max}`);
    return number;
  }

  /** Wraps parsers of cards.ts so their errors name the field too. */
  parse<T>(name: string, parser: (value: string) => T): T {
    const value = this.next(name);
    try {
      return parser(value);
    } catch (error) {
      if (isProtocolError(error)) this.fail(name, error.message);
      throw error;
    }
  }

  end(): void {
    if (this.remaining > 0) {
      throw new ProtocolError(
        'bad_field',
        `${this.type}: ${this.remaining} field(s) too many (${this.fields.length} given)`,
      );
    }
  }
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$/;
const VERSION = /^[0-9]{1,3}\.[0-9]{1,3}$/;
const FIRMWARE = /^[A-Za-z0-9][A-Za-z0-9.+_-]{0,31}$/;
const SHA256 = /^[0-9a-f]{64}$/;
const TOKEN = /^[A-Za-z0-9]{1,16}$/;
const WORD = /^[a-z][a-z0-9_]{0,23}$/;
const LIGHT = /^[a-z][a-z0-9_-]{0,15}$/;
const KEY = /^[a-z][a-z0-9_]{0,15}$/;
const UID = /^(?:[0-9A-F]{2}){4,10}$/;
const SEQ_TEXT = /^(0|[1-9][0-9]{0,4})$/;

interface Codec<T extends Message> {
  readonly type: T['type'];
  /** Talkers that may send this type. */
  readonly senders: readonly Talker[];
  decode(reader: FieldReader): T;
  encode(message: T): string[];
}

function seqField(reader: FieldReader, name: string): number {
  const value = reader.match(name, SEQ_TEXT, `a seq 0-${MAX_SEQ}`);
  const seq = Number(value);
  if (!isSeq(seq)) reader.fail(name, `${value}: expected 0-${MAX_SEQ}`);
  return seq;
}

function text(
  reader: FieldReader,
  name: string,
  value: string | undefined,
  max: number,
): string | undefined {
  if (value === undefined) return undefined;
  if (value.length < 1 || value.length > max) reader.fail(name, `expected 1-${max} characters`);
  if (!isFieldText(value)) reader.fail(name, 'expected printable ASCII without $ , *');
  return value;
}

function withOptional<T extends object, K extends string, V>(
  base: T,
  key: K,
  value: V | undefined,
) {
  return (value === undefined ? base : { ...base, [key]: value }) as T & { readonly [P in K]?: V };
}

const helloCodec: Codec<HelloMessage> = {
  type: 'HELLO',
  senders: ALL,
  decode: (r) => ({
    type: 'HELLO',
    model: r.match('model', NAME, '1-32 letters, digits, . _ -'),
    serial: r.match('serial', NAME, '1-32 letters, digits, . _ -'),
    protocol: r.match('protocol', VERSION, 'a protocol version major.minor, e.g. 1.0'),
    firmware: r.match('firmware', FIRMWARE, '1-32 letters, digits, . + _ -'),
    firmwareSha256: r.match('sha256', SHA256, '64 lower-case hex digits'),
  }),
  encode: (m) => [m.model, m.serial, m.protocol, m.firmware, m.firmwareSha256],
};

const pingCodec: Codec<PingMessage> = {
  type: 'PING',
  senders: ALL,
  decode: (r) => {
    const token = r.remaining > 0 ? r.match('token', TOKEN, '1-16 letters or digits') : undefined;
    return withOptional({ type: 'PING' as const }, 'token', token);
  },
  encode: (m) => (m.token === undefined ? [] : [m.token]),
};

const pongCodec: Codec<PongMessage> = {
  type: 'PONG',
  senders: ALL,
  decode: (r) => {
    const token = r.remaining > 0 ? r.match('token', TOKEN, '1-16 letters or digits') : undefined;
    return withOptional({ type: 'PONG' as const }, 'token', token);
  },
  encode: (m) => (m.token === undefined ? [] : [m.token]),
};

const ackCodec: Codec<AckMessage> = {
  type: 'ACK',
  senders: ALL,
  decode: (r) => ({ type: 'ACK', ackedSeq: seqField(r, 'acked seq') }),
  encode: (m) => [String(m.ackedSeq)],
};

const nakCodec: Codec<NakMessage> = {
  type: 'NAK',
  senders: ALL,
  decode: (r) => {
    const seqText = r.next('seq');
    let nakedSeq: number | undefined;
    if (seqText !== '') {
      if (!SEQ_TEXT.test(seqText) || !isSeq(Number(seqText))) {
        r.fail('seq', `${JSON.stringify(seqText)}: expected a seq 0-${MAX_SEQ} or nothing`);
      }
      nakedSeq = Number(seqText);
    }
    const reason = r.match('reason', WORD, 'a lower-case word, e.g. bad_crc');
    return withOptional({ type: 'NAK' as const, reason }, 'nakedSeq', nakedSeq);
  },
  encode: (m) => [m.nakedSeq === undefined ? '' : String(m.nakedSeq), m.reason],
};

const statusCodec: Codec<StatusMessage> = {
  type: 'STATUS',
  senders: DEVICES,
  decode: (r) => {
    const state = r.match('state', WORD, 'a lower-case word, e.g. ready');
    const details: Record<string, string> = {};
    while (r.remaining > 0) {
      const pair = r.next('detail');
      const equals = pair.indexOf('=');
      const key = equals === -1 ? pair : pair.slice(0, equals);
      if (equals === -1 || !KEY.test(key)) {
        r.fail('detail', `${JSON.stringify(pair)}: expected key=value with a lower-case key`);
      }
      if (Object.hasOwn(details, key)) r.fail('detail', `key ${key} given twice`);
      details[key] = pair.slice(equals + 1);
    }
    return { type: 'STATUS', state, details };
  },
  encode: (m) => [m.state, ...Object.entries(m.details).map(([key, value]) => `${key}=${value}`)],
};

const errorCodec: Codec<ErrorMessage> = {
  type: 'ERROR',
  senders: ALL,
  decode: (r) => {
    const code = r.match('code', WORD, 'a lower-case word, e.g. sensor_fault');
    const detail = text(r, 'detail', r.optional('detail'), 120);
    return withOptional({ type: 'ERROR' as const, code }, 'detail', detail);
  },
  encode: (m) => (m.detail === undefined ? [m.code] : [m.code, m.detail]),
};

const cardCodec: Codec<CardMessage> = {
  type: 'CARD',
  senders: ['SH', 'RD'],
  decode: (r) => {
    const base = {
      type: 'CARD' as const,
      card: r.parse('card', parseCard),
      back: r.parse('back', parseBackColour),
      face: r.parse('face', parseFace),
    };
    const uid = r.remaining > 0 ? r.match('uid', UID, '4-10 bytes as upper-case hex') : undefined;
    return withOptional(base, 'uid', uid);
  },
  encode: (m) => (m.uid === undefined ? [m.card, m.back, m.face] : [m.card, m.back, m.face, m.uid]),
};

const cutCodec: Codec<CutMessage> = {
  type: 'CUT',
  senders: ['SH'],
  decode: () => ({ type: 'CUT' }),
  encode: () => [],
};

const jamCodec: Codec<JamMessage> = {
  type: 'JAM',
  senders: ['SH', 'SF'],
  decode: (r) => {
    const state = r.oneOf('state', ['jammed', 'cleared'] as const);
    const location =
      r.remaining > 0 ? r.match('location', WORD, 'a lower-case word, e.g. exit') : undefined;
    return withOptional({ type: 'JAM' as const, state }, 'location', location);
  },
  encode: (m) => (m.location === undefined ? [m.state] : [m.state, m.location]),
};

const lidCodec: Codec<LidMessage> = {
  type: 'LID',
  senders: ['SH'],
  decode: (r) => ({ type: 'LID', state: r.oneOf('state', ['open', 'closed'] as const) }),
  encode: (m) => [m.state],
};

const indicateCodec: Codec<IndicateMessage> = {
  type: 'INDICATE',
  senders: ['HO'],
  decode: (r) => ({
    type: 'INDICATE',
    light: r.match('light', LIGHT, 'a lower-case light name, e.g. green'),
    mode: r.oneOf('mode', ['on', 'off', 'blink'] as const),
  }),
  encode: (m) => [m.light, m.mode],
};

const gateCodec: Codec<GateMessage> = {
  type: 'GATE',
  senders: ['HO'],
  decode: (r) => ({ type: 'GATE', action: r.oneOf('action', ['lock', 'unlock'] as const) }),
  encode: (m) => [m.action],
};

const shuffleCodec: Codec<ShuffleMessage> = {
  type: 'SHUFFLE',
  senders: ['HO', 'SF'],
  decode: (r) => ({ type: 'SHUFFLE', decks: r.integer('decks', 1, MAX_DECKS) }),
  encode: (m) => [String(m.decks)],
};

const deckCheckCodec: Codec<DeckCheckMessage> = {
  type: 'DECKCHECK',
  senders: ['HO', 'SF'],
  decode: (r) => ({ type: 'DECKCHECK', decks: r.integer('decks', 1, MAX_DECKS) }),
  encode: (m) => [String(m.decks)],
};

const shuffledCodec: Codec<ShuffledMessage> = {
  type: 'SHUFFLED',
  senders: ['SF'],
  decode: (r) => ({
    type: 'SHUFFLED',
    count: r.integer('count', 0, MAX_CARD_COUNT),
    order: r.oneOf('order', ['order', 'none'] as const) === 'order',
  }),
  encode: (m) => [String(m.count), m.order ? 'order' : 'none'],
};

const shuffled2Codec: Codec<Shuffled2Message> = {
  type: 'SHUFFLED2',
  senders: ['SF'],
  decode: (r) => {
    const count = r.integer('count', 0, MAX_CARD_COUNT);
    const order = r.oneOf('order', ['order', 'none'] as const) === 'order';
    if (r.remaining < 1 || r.remaining > MAX_BACKS) {
      r.fail('backs', `${r.remaining} back colours: expected 1-${MAX_BACKS}`);
    }
    const backs: BackColour[] = [];
    while (r.remaining > 0) {
      const back = r.parse('back', parseBackColour);
      if (backs.includes(back)) r.fail('back', `${back} given twice`);
      backs.push(back);
    }
    return { type: 'SHUFFLED2', count, order, backs };
  },
  encode: (m) => [String(m.count), m.order ? 'order' : 'none', ...m.backs],
};

const orderCodec: Codec<OrderMessage> = {
  type: 'ORDER',
  senders: ['SF'],
  decode: (r) => {
    const offset = r.integer('offset', 0, MAX_CARD_COUNT - 1);
    if (r.remaining < 1 || r.remaining > ORDER_CHUNK_CARDS) {
      r.fail('cards', `${r.remaining} cards: expected 1-${ORDER_CHUNK_CARDS}`);
    }
    if (offset + r.remaining > MAX_CARD_COUNT) r.fail('cards', `runs past card ${MAX_CARD_COUNT}`);
    const cards: CardCode[] = [];
    while (r.remaining > 0) cards.push(r.parse('card', parseCard));
    return { type: 'ORDER', offset, cards };
  },
  encode: (m) => [String(m.offset), ...m.cards],
};

const countCodec: Codec<CountMessage> = {
  type: 'COUNT',
  senders: ['SF'],
  decode: (r) => {
    const counted = r.integer('counted', 0, MAX_CARD_COUNT);
    const missing = r.integer('missing', 0, MAX_CARD_COUNT);
    const extra = r.integer('extra', 0, MAX_CARD_COUNT);
    if (r.remaining > COUNT_LIST_MAX)
      r.fail('cards', `${r.remaining} entries: at most ${COUNT_LIST_MAX}`);
    const missingCards: CardCode[] = [];
    const extraCards: CardCode[] = [];
    while (r.remaining > 0) {
      const entry = r.next('card');
      const card = entry.slice(1);
      const sign = entry[0];
      if ((sign !== '-' && sign !== '+') || !isCardCode(card)) {
        r.fail(
          'card',
          `${JSON.stringify(entry)}: expected -<card> (missing) or +<card> (extra), e.g. -AS`,
        );
      }
      (sign === '-' ? missingCards : extraCards).push(card as CardCode);
    }
    if (missingCards.length > missing)
      r.fail('card', `${missingCards.length} missing cards listed, count says ${missing}`);
    if (extraCards.length > extra)
      r.fail('card', `${extraCards.length} extra cards listed, count says ${extra}`);
    return { type: 'COUNT', counted, missing, extra, missingCards, extraCards };
  },
  encode: (m) => [
    String(m.counted),
    String(m.missing),
    String(m.extra),
    ...m.missingCards.map((card) => `-${card}`),
    ...m.extraCards.map((card) => `+${card}`),
  ],
};

const doorCodec: Codec<DoorMessage> = {
  type: 'DOOR',
  senders: ['SF'],
  decode: (r) => ({ type: 'DOOR', state: r.oneOf('state', ['open', 'closed'] as const) }),
  encode: (m) => [m.state],
};

const tagCodec: Codec<TagMessage> = {
  type: 'TAG',
  senders: ['RD'],
  decode: (r) => ({ type: 'TAG', uid: r.match('uid', UID, '4-10 bytes as upper-case hex') }),
  encode: (m) => [m.uid],
};

const RPM = /^([1-9][0-9]?|0)(\.[0-9])?$/;

const rotorCodec: Codec<RotorMessage> = {
  type: 'ROTOR',
  senders: ['RW'],
  decode: (r) => {
    const direction = r.oneOf('direction', SPIN_DIRECTIONS);
    const text = r.match('rpm', RPM, 'revolutions per minute, 0.1-99.9, e.g. 27.5');
    const rpm = Number(text);
    if (rpm <= 0) r.fail('rpm', `${text}: the rotor must turn (expected 0.1-99.9)`);
    return { type: 'ROTOR', direction, rpm };
  },
  encode: (m) => [m.direction, Number.isInteger(m.rpm) ? String(m.rpm) : m.rpm.toFixed(1)],
};

const ballCodec: Codec<BallMessage> = {
  type: 'BALL',
  senders: ['RW'],
  decode: (r) => ({ type: 'BALL', direction: r.oneOf('direction', SPIN_DIRECTIONS) }),
  encode: (m) => [m.direction],
};

const resultCodec: Codec<ResultMessage> = {
  type: 'RESULT',
  senders: ['RW'],
  decode: (r) => ({
    type: 'RESULT',
    number: r.integer('number', 0, WHEEL_MAX_NUMBER),
    revolutions: r.integer('revolutions', 0, MAX_BALL_REVOLUTIONS),
  }),
  encode: (m) => [String(m.number), String(m.revolutions)],
};

const noSpinCodec: Codec<NoSpinMessage> = {
  type: 'NOSPIN',
  senders: ['RW'],
  decode: (r) => ({
    type: 'NOSPIN',
    reason: r.match('reason', WORD, 'a lower-case word, e.g. foreign_object'),
  }),
  encode: (m) => [m.reason],
};

const noMoreBetsCodec: Codec<NoMoreBetsMessage> = {
  type: 'NOMOREBETS',
  senders: ['RW'],
  decode: () => ({ type: 'NOMOREBETS' }),
  encode: () => [],
};

const foreignCodec: Codec<ForeignMessage> = {
  type: 'FOREIGN',
  senders: ['SH'],
  decode: (r) => ({
    type: 'FOREIGN',
    uid: r.match('uid', UID, '4-10 bytes as upper-case hex'),
    back: r.parse('back', parseBackColour),
    face: r.parse('face', parseFace),
  }),
  encode: (m) => [m.uid, m.back, m.face],
};

const noTagCodec: Codec<NoTagMessage> = {
  type: 'NOTAG',
  senders: ['SH'],
  decode: (r) => ({
    type: 'NOTAG',
    back: r.parse('back', parseBackColour),
    face: r.parse('face', parseFace),
  }),
  encode: (m) => [m.back, m.face],
};

type CodecTable = { readonly [T in MessageType]: Codec<MessageOf<T>> };

const CODECS: CodecTable = {
  HELLO: helloCodec,
  PING: pingCodec,
  PONG: pongCodec,
  ACK: ackCodec,
  NAK: nakCodec,
  STATUS: statusCodec,
  ERROR: errorCodec,
  CARD: cardCodec,
  CUT: cutCodec,
  JAM: jamCodec,
  LID: lidCodec,
  INDICATE: indicateCodec,
  GATE: gateCodec,
  SHUFFLE: shuffleCodec,
  DECKCHECK: deckCheckCodec,
  SHUFFLED: shuffledCodec,
  SHUFFLED2: shuffled2Codec,
  ORDER: orderCodec,
  COUNT: countCodec,
  DOOR: doorCodec,
  TAG: tagCodec,
  ROTOR: rotorCodec,
  BALL: ballCodec,
  RESULT: resultCodec,
  NOSPIN: noSpinCodec,
  NOMOREBETS: noMoreBetsCodec,
  FOREIGN: foreignCodec,
  NOTAG: noTagCodec,
};

export const MESSAGE_TYPES = Object.keys(CODECS) as MessageType[];

export function isMessageType(type: string): type is MessageType {
  return Object.hasOwn(CODECS, type);
}

/** Talkers that may send `type`; undefined for a type this version does not know. */
export function sendersOf(type: string): readonly Talker[] | undefined {
  return isMessageType(type) ? CODECS[type].senders : undefined;
}

export function maySend(talker: Talker, type: MessageType): boolean {
  return CODECS[type].senders.includes(talker);
}

export type MessageDecode =
  | { readonly kind: 'message'; readonly message: Message }
  | { readonly kind: 'unsupported'; readonly type: string }
  | { readonly kind: 'invalid'; readonly type: string; readonly error: string };

/** Decodes a frame's TYPE and fields for the talker that sent it; never throws. */
export function decodeMessage(frame: Frame): MessageDecode {
  if (!isMessageType(frame.type)) return { kind: 'unsupported', type: frame.type };
  const codec = CODECS[frame.type] as Codec<Message>;
  if (!codec.senders.includes(frame.talker)) {
    return {
      kind: 'invalid',
      type: frame.type,
      error: `${frame.type} may not come from ${frame.talker}: only from ${codec.senders.join(' ')}`,
    };
  }
  try {
    const reader = new FieldReader(frame.type, frame.fields);
    const message = codec.decode(reader);
    reader.end();
    return { kind: 'message', message };
  } catch (error) {
    if (isProtocolError(error)) return { kind: 'invalid', type: frame.type, error: error.message };
    return { kind: 'invalid', type: frame.type, error: String(error) };
  }
}

/**
 * The fields of a message. Validates by decoding them again, so what encodes
 * always decodes; throws ProtocolError `bad_message` naming the bad field.
 */
export function encodeMessage(message: Message): { type: MessageType; fields: string[] } {
  const codec = (CODECS as Record<string, Codec<Message> | undefined>)[
    (message as { type?: unknown }).type as string
  ];
  if (codec === undefined) {
    throw new ProtocolError(
      'bad_message',
      `unknown message type ${JSON.stringify((message as { type?: unknown }).type)}`,
    );
  }
  let fields: string[];
  try {
    fields = codec.encode(message).map((field) => String(field));
  } catch (error) {
    throw new ProtocolError('bad_message', `bad ${codec.type} message: ${String(error)}`);
  }
  try {
    const reader = new FieldReader(codec.type, fields);
    codec.decode(reader);
    reader.end();
  } catch (error) {
    const detail = isProtocolError(error) ? error.message : String(error);
    throw new ProtocolError('bad_message', `bad ${codec.type} message: ${detail}`);
  }
  return { type: codec.type, fields };
}

/**
 * The frame carrying `message` from `talker` with `seq`; throws ProtocolError
 * when the talker may not send that type, the message is bad or the line
 * would pass 250 bytes.
 */
export function messageFrame(talker: Talker, seq: number, message: Message): Frame {
  const { type, fields } = encodeMessage(message);
  if (!maySend(talker, type)) {
    throw new ProtocolError(
      'bad_message',
      `${type} may not come from ${talker}: only from ${CODECS[type].senders.join(' ')}`,
    );
  }
  const frame: Frame = { talker, seq, type, fields };
  const problem = frameProblem(frame);
  if (problem !== undefined) throw new ProtocolError('bad_frame', problem);
  return frame;
}
