/**
 * The frame MAC of protocol 1.4 (PROTOCOL.md § 8.3): once a device has
 * proved itself, every frame either side sends carries a last field
 * `~<MAC>`, the first 128 bits of HMAC-SHA256 under the sender's session
 * key over the frame's body without that field (talker, seq, type, fields),
 * in base64url (22 characters). The CRC then covers the MAC too.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { encodeFrame, type Frame, frameBody, parseFrameLine } from '../frame.ts';

export const MAC_BYTES = 16;
export const MAC_PREFIX = '~';
/** Bytes a MAC adds to a line: `,~` and 22 characters. */
export const MAC_OVERHEAD = 2 + Math.ceil((MAC_BYTES * 4) / 3);

function macOf(key: Uint8Array, body: string): Buffer {
  return createHmac('sha256', key).update(body, 'latin1').digest().subarray(0, MAC_BYTES);
}

export function sealFrame(frame: Frame, key: Uint8Array): Frame {
  const mac = macOf(key, frameBody(frame)).toString('base64url');
  return { ...frame, fields: [...frame.fields, `${MAC_PREFIX}${mac}`] };
}

/** Seals an encoded line (CR LF included) and encodes it again with its new CRC. */
export function sealLine(line: string, key: Uint8Array): string {
  const event = parseFrameLine(line.endsWith('\r\n') ? line.slice(0, -2) : line);
  if (event.kind !== 'frame') throw new RangeError(`cannot seal an invalid frame: ${event.detail}`);
  return encodeFrame(sealFrame(event.frame, key));
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
