/**
 * The frame grammar (PROTOCOL.md § 2):
 *
 *   $<TALKER>,<SEQ>,<TYPE>[,<FIELD>]...*<CRC>\r\n
 *
 * Pure string functions. Parsing never throws: a line yields either a frame
 * or a discard with its reason, so a noisy serial line can never crash the
 * reader. Encoding validates and throws a ProtocolError (a caller bug), or use
 * `tryEncodeFrame` for a result.
 */
import { crc16Hex } from './crc.ts';
import { ProtocolError } from './errors.ts';

/** `SH` shoe, `SF` shuffler, `RD` card reader, `HO` host, `RW` roulette wheel (1.5). */
export const TALKERS = ['SH', 'SF', 'RD', 'HO', 'RW'] as const;
export type Talker = (typeof TALKERS)[number];
/** Talkers that are devices (everything but the host). */
export type DeviceTalker = Exclude<Talker, 'HO'>;

/** A line is at most 250 bytes including its CR LF. */
export const MAX_LINE_BYTES = 250;
export const LINE_END = '\r\n';
export const MAX_SEQ = 65535;
/** Sequence numbers are taken modulo this (0..65535, then 0 again). */
export const SEQ_MODULUS = 65536;

export interface Frame {
  readonly talker: Talker;
  readonly seq: number;
  readonly type: string;
  readonly fields: readonly string[];
}

export type DiscardReason = 'bad_crc' | 'too_long' | 'malformed' | 'no_start';
export const DISCARD_REASONS: readonly DiscardReason[] = [
  'bad_crc',
  'too_long',
  'malformed',
  'no_start',
];

export interface FrameDiscard {
  readonly kind: 'discard';
  readonly reason: DiscardReason;
  /** The discarded text, one character per byte (latin1). For `too_long`, only its head. */
  readonly raw: string;
  /** What was wrong, for people. */
  readonly detail: string;
  /** Talker and seq when the head of the line still reads as `$TT,SEQ,` (a NAK can name them). */
  readonly talker?: Talker;
  readonly seq?: number;
}

export interface FrameReceived {
  readonly kind: 'frame';
  readonly frame: Frame;
}

/** What a line (or part of one) turned out to be. */
export type FrameEvent = FrameReceived | FrameDiscard;

const TALKER_SET = new Set<string>(TALKERS);
const SEQ_PATTERN = /^(0|[1-9][0-9]{0,4})$/;
const TYPE_PATTERN = /^[A-Z][A-Z0-9]{0,15}$/;
/** Printable ASCII without `$ , *` (CR and LF are not printable). */
const FIELD_PATTERN = /^[\x20-\x23\x25-\x29\x2B\x2D-\x7E]*$/;
const PRINTABLE_PATTERN = /^[\x20-\x7E]*$/;
const CRC_PATTERN = /^[0-9A-F]{4}$/;
const HEAD_PATTERN = /^\$(SH|SF|RD|HO|RW),(0|[1-9][0-9]{0,4}),/;

export function isTalker(value: string): value is Talker {
  return TALKER_SET.has(value);
}

export function isSeq(value: number): boolean {
  return Number.isInteger(value) && value >= 0 && value <= MAX_SEQ;
}

/** The sequence number after `seq`, wrapping 65535 to 0. */
export function nextSeq(seq: number): number {
  return (seq + 1) % SEQ_MODULUS;
}

export function isFrameType(value: string): boolean {
  return TYPE_PATTERN.test(value);
}

export function isFieldText(value: string): boolean {
  return FIELD_PATTERN.test(value);
}

/** The text the CRC covers: everything between `$` and `*`. */
export function frameBody(frame: Frame): string {
  const head = `${frame.talker},${frame.seq},${frame.type}`;
  return frame.fields.length === 0 ? head : `${head},${frame.fields.join(',')}`;
}

/** Why a frame cannot be encoded, or undefined when it can. */
export function frameProblem(frame: Frame): string | undefined {
  if (!isTalker(frame.talker)) {
    return `bad talker ${JSON.stringify(frame.talker)}: expected one of ${TALKERS.join(' ')}`;
  }
  if (!isSeq(frame.seq))
    return `bad seq ${String(frame.seq)}: expected a whole number 0-${MAX_SEQ}`;
  if (!isFrameType(frame.type)) {
    return `bad type ${JSON.stringify(frame.type)}: expected an upper-case word of 1-16 letters and digits`;
  }
  for (const [index, field] of frame.fields.entries()) {
    if (typeof field !== 'string' || !isFieldText(field)) {
      return `bad field ${index + 1} ${JSON.stringify(field)}: expected printable ASCII without $ , * CR LF`;
    }
  }
  const length = frameBody(frame).length + 1 + 5 + LINE_END.length;
  if (length > MAX_LINE_BYTES) {
    return `frame too long: ${length} bytes with CR LF, at most ${MAX_LINE_BYTES}`;
  }
  return undefined;
}

export type EncodeResult = { ok: true; line: string } | { ok: false; error: string };

/** Encodes a frame as its wire line, CR LF included; never throws. */
export function tryEncodeFrame(frame: Frame): EncodeResult {
  const problem = frameProblem(frame);
  if (problem !== undefined) return { ok: false, error: problem };
  const body = frameBody(frame);
  return { ok: true, line: `$${body}*${crc16Hex(body)}${LINE_END}` };
}

/** Encodes a frame as its wire line, CR LF included; throws ProtocolError `bad_frame` on a bad frame. */
export function encodeFrame(frame: Frame): string {
  const result = tryEncodeFrame(frame);
  if (!result.ok) throw new ProtocolError('bad_frame', result.error);
  return result.line;
}

function discard(reason: DiscardReason, raw: string, detail: string): FrameDiscard {
  const head = HEAD_PATTERN.exec(raw);
  if (head === null) return { kind: 'discard', reason, raw, detail };
  const seq = Number(head[2]);
  if (!isSeq(seq)) return { kind: 'discard', reason, raw, detail };
  return { kind: 'discard', reason, raw, detail, talker: head[1] as Talker, seq };
}

/**
 * Parses one frame: `$...*CRC`, with or without its trailing CR LF. The CRC
 * is checked before the grammar of the body, so a corrupted frame reads as
 * `bad_crc` (worth a NAK) rather than `malformed`.
 */
export function parseFrameLine(input: string): FrameEvent {
  const line = input.endsWith(LINE_END) ? input.slice(0, -LINE_END.length) : input;
  if (line.length + LINE_END.length > MAX_LINE_BYTES) {
    return discard('too_long', line, `line of ${line.length + 2} bytes, at most ${MAX_LINE_BYTES}`);
  }
  if (!line.startsWith('$')) return discard('no_start', line, 'no $ at the start of the frame');
  const star = line.indexOf('*');
  if (star === -1) return discard('malformed', line, 'no *CRC at the end of the frame');
  const crcText = line.slice(star + 1);
  if (!CRC_PATTERN.test(crcText)) {
    return discard(
      'malformed',
      line,
      `bad CRC text ${JSON.stringify(crcText)}: expected 4 upper-case hex digits then CR LF`,
    );
  }
  const body = line.slice(1, star);
  const expected = crc16Hex(body);
  if (expected !== crcText) {
    return discard(
      'bad_crc',
      line,
      `CRC ${crcText} does not match the frame (computed ${expected})`,
    );
  }
  if (!PRINTABLE_PATTERN.test(body))
    return discard('malformed', line, 'non-printable byte in the frame');
  if (body.includes('$')) return discard('malformed', line, '$ inside the frame');
  const parts = body.split(',');
  const [talker, seqText, type, ...fields] = parts;
  if (talker === undefined || !isTalker(talker)) {
    return discard(
      'malformed',
      line,
      `bad talker ${JSON.stringify(talker ?? '')}: expected one of ${TALKERS.join(' ')}`,
    );
  }
  if (seqText === undefined || !SEQ_PATTERN.test(seqText) || Number(seqText) > MAX_SEQ) {
    return discard(
      'malformed',
      line,
      `bad seq ${JSON.stringify(seqText ?? '')}: expected 0-${MAX_SEQ} without leading zeros`,
    );
  }
  if (type === undefined || !isFrameType(type)) {
    return discard(
      'malformed',
      line,
      `bad type ${JSON.stringify(type ?? '')}: expected an upper-case word`,
    );
  }
  return { kind: 'frame', frame: { talker, seq: Number(seqText), type, fields } };
}

export interface ScanLineOptions {
  /** Whether the line ended with CR LF; a tail cut off by the end of input did not. */
  readonly terminated?: boolean;
  readonly maxLineBytes?: number;
}

/**
 * Everything one line (without its CR LF) holds. Garbage before the first
 * `$` is one `no_start` discard; every `$` starts a new candidate, so a frame
 * that lost its CR LF costs only itself, and the frame after it still parses
 * (a `$` cannot occur inside a frame). Empty lines are ignored.
 */
export function scanLine(line: string, options: ScanLineOptions = {}): FrameEvent[] {
  const terminated = options.terminated ?? true;
  const maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
  if (line.length === 0) return [];
  if (line.length + LINE_END.length > maxLineBytes) {
    return [
      discard(
        'too_long',
        line,
        `line of at least ${line.length + 2} bytes, at most ${maxLineBytes}`,
      ),
    ];
  }
  const events: FrameEvent[] = [];
  let start = line.indexOf('$');
  if (start === -1) return [discard('no_start', line, 'no $ in the line')];
  if (start > 0) events.push(discard('no_start', line.slice(0, start), 'bytes before $'));
  while (start !== -1) {
    const next = line.indexOf('$', start + 1);
    const candidate = line.slice(start, next === -1 ? undefined : next);
    if (next !== -1 || !terminated) {
      events.push(
        discard(
          'malformed',
          candidate,
          next === -1 ? 'input ended before CR LF' : 'no CR LF before the next $',
        ),
      );
    } else {
      events.push(parseFrameLine(candidate));
    }
    start = next;
  }
  return events;
}
