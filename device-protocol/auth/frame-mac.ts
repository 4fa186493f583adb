/**
 * The frame MAC of protocol 1.4 (PROTOCOL.md § 5.3): once a device has
 * proved itself, every frame either side sends carries a last field
 * `~<MAC>`, the first 128 bits of HMAC-SHA256 under the sender's session
 * key over the frame's body without that field (talker, seq, type, fields),
 * in base64url (22 characters). The CRC then covers the MAC too.
 */
import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import { crc16Hex } from '../crc.ts';
import { type Frame, frameBody, LINE_END, MAX_LINE_BYTES } from '../frame.ts';

export const MAC_BYTES = 16;
export const MAC_PREFIX = '~';
/** Bytes a MAC adds to a line: `,~` and 22 characters. */
export const MAC_OVERHEAD = 2 + Math.ceil((MAC_BYTES * 4) / 3);

/** Session keys as key objects, made once per session rather than once per frame. */
const keyObjects = new WeakMap<Uint8Array, KeyObject>();

function macOf(key: Uint8Array, body: string): Buffer {
  let object = keyObjects.get(key);
  if (object === undefined) {
    object = createSecretKey(key);
    keyObjects.set(key, object);
  }
  return createHmac('sha256', object).update(body, 'latin1').digest().subarray(0, MAC_BYTES);
}

export function sealFrame(frame: Frame, key: Uint8Array): Frame {
  const mac = macOf(key, frameBody(frame)).toString('base64url');
  return { ...frame, fields: [...frame.fields, `${MAC_PREFIX}${mac}`] };
}

/**
 * Seals a line the link session encoded (CR LF included): the body between
 * `$` and `*` is exactly what the MAC covers, so the line is not parsed
 * again; the MAC is appended and the CRC computed anew. Throws RangeError
 * when the sealed line would pass 250 bytes (PROTOCOL.md § 5.3).
 */
export function sealLine(line: string, key: Uint8Array): string {
  const star = line.lastIndexOf('*');
  if (line[0] !== '$' || star < 0) throw new RangeError('cannot seal: not a frame line');
  const body = line.slice(1, star);
  const sealed = `${body},${MAC_PREFIX}${macOf(key, body).toString('base64url')}`;
  const out = `$${sealed}*${crc16Hex(sealed)}${LINE_END}`;
  if (out.length > MAX_LINE_BYTES) {
    throw new RangeError(`sealed frame of ${out.length} bytes, at most ${MAX_LINE_BYTES}`);
  }
  return out;
}

export type Opened =
  | { ok: true; frame: Frame }
  | { ok: false; reason: 'missing_mac' | 'bad_mac'; detail: string };

/** Checks and strips the MAC of a received frame. */
export function openFrame(frame: Frame, key: Uint8Array): Opened {
  const last = frame.fields.at(-1);
  if (last === undefined || !last.startsWith(MAC_PREFIX)) {
    return {
      ok: false,
      reason: 'missing_mac',
      detail: `${frame.type} ${frame.seq} carries no MAC`,
    };
  }
  const given = Buffer.from(last.slice(1), 'base64url');
  const inner: Frame = { ...frame, fields: frame.fields.slice(0, -1) };
  const expected = macOf(key, frameBody(inner));
  if (given.length !== MAC_BYTES || !timingSafeEqual(given, expected)) {
    return {
      ok: false,
      reason: 'bad_mac',
      detail: `${frame.type} ${frame.seq}: MAC does not match`,
    };
  }
  return { ok: true, frame: inner };
}
