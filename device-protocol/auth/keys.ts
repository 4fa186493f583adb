/**
 * Device public keys as the protocol and the table config carry them (1.4,
 * PROTOCOL.md § 5): a key type and the raw key in base64url, `ed25519:<43>`
 * or `p256:<44>` (a compressed P-256 point, as a secure element's key is
 * sent in 33 bytes to fit a PROOF frame in one line). The fingerprint is
 * what a technician compares on the device's own display when pairing.
 */
import { createHash, createPublicKey, ECDH, type KeyObject, verify } from 'node:crypto';

export const KEY_TYPES = ['ed25519', 'p256'] as const;
export type KeyType = (typeof KEY_TYPES)[number];

export interface DevicePublicKey {
  readonly type: KeyType;
  /** Ed25519: 32 bytes; P-256: the 33-byte compressed point. */
  readonly raw: Uint8Array;
}

const RAW_LENGTH: Readonly<Record<KeyType, number>> = { ed25519: 32, p256: 33 };
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export function isKeyType(value: string): value is KeyType {
  return (KEY_TYPES as readonly string[]).includes(value);
}

export function toBase64Url(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
}

/** Decodes base64url of exactly `length` bytes; undefined when it is not that. */
export function fromBase64Url(text: string, length: number): Uint8Array | undefined {
  if (!BASE64URL.test(text) || text.length !== Math.ceil((length * 4) / 3)) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  if (bytes.length !== length || bytes.toString('base64url') !== text) return undefined;
  return new Uint8Array(bytes);
}

/** Why `raw` is not a usable key of `type`, or undefined when it is. */
export function publicKeyProblem(type: KeyType, raw: Uint8Array): string | undefined {
  if (raw.length !== RAW_LENGTH[type]) {
    return `a ${type} public key is ${RAW_LENGTH[type]} bytes, not ${raw.length}`;
  }
  try {
    publicKeyObject({ type, raw });
    return undefined;
  } catch {
    return `not a valid ${type} public key`;
  }
}

/** Reads the key in its raw base64url form, as a PROOF frame carries it. */
export function decodeRawPublicKey(
  type: KeyType,
  text: string,
): { ok: true; key: DevicePublicKey } | { ok: false; error: string } {
  const raw = fromBase64Url(text, RAW_LENGTH[type]);
  if (raw === undefined) {
    return {
      ok: false,
      error: `expected a ${type} public key as ${RAW_LENGTH[type]} bytes of base64url`,
    };
  }
  const problem = publicKeyProblem(type, raw);
  return problem === undefined ? { ok: true, key: { type, raw } } : { ok: false, error: problem };
}

/** `ed25519:<base64url>`: the form the table config stores. */
export function formatPublicKey(key: DevicePublicKey): string {
  return `${key.type}:${toBase64Url(key.raw)}`;
}

export function parsePublicKey(
  text: string,
): { ok: true; key: DevicePublicKey } | { ok: false; error: string } {
  const colon = text.indexOf(':');
  const type = colon < 0 ? '' : text.slice(0, colon);
  if (!isKeyType(type)) {
    return {
      ok: false,
      error: `expected "ed25519:<base64url>" or "p256:<base64url>", got "${text.slice(0, 24)}"`,
    };
  }
  return decodeRawPublicKey(type, text.slice(colon + 1));
}

export function samePublicKey(a: DevicePublicKey, b: DevicePublicKey): boolean {
  return a.type === b.type && Buffer.compare(a.raw, b.raw) === 0;
}

/**
 * Short fingerprint for trust on first use: the first 8 bytes of SHA-256
 * over the config form, as four groups of 4 upper-case hex digits
 * (`3F7A-9C21-0B4E-D852`), short enough to read off a device's display.
 */
export function keyFingerprint(key: DevicePublicKey): string {
  const hex = createHash('sha256').update(formatPublicKey(key)).digest('hex').slice(0, 16);
  return hex.toUpperCase().match(/.{4}/g)!.join('-');
}

const keyObjects = new Map<string, KeyObject>();

export function publicKeyObject(key: DevicePublicKey): KeyObject {
  const id = formatPublicKey(key);
  const cached = keyObjects.get(id);
  if (cached !== undefined) return cached;
  let object: KeyObject;
  if (key.type === 'ed25519') {
    object = createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: toBase64Url(key.raw) },
      format: 'jwk',
    });
  } else {
    const point = ECDH.convertKey(
      Buffer.from(key.raw),
      'prime256v1',
      undefined,
      undefined,
      'uncompressed',
    ) as Buffer;
    object = createPublicKey({
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: point.subarray(1, 33).toString('base64url'),
        y: point.subarray(33, 65).toString('base64url'),
      },
      format: 'jwk',
    });
  }
  if (keyObjects.size > 256) keyObjects.clear();
  keyObjects.set(id, object);
  return object;
}

/** Compresses an uncompressed P-256 point (X || Y, 64 bytes, as an ATECC608 returns it). */
export function compressP256(xy: Uint8Array): Uint8Array {
  if (xy.length !== 64) throw new RangeError(`expected 64 bytes of X || Y, got ${xy.length}`);
  const out = new Uint8Array(33);
  out[0] = (xy[63]! & 1) === 1 ? 0x03 : 0x02;
  out.set(xy.subarray(0, 32), 1);
  return out;
}

/**
 * Checks a device's signature of a 32-byte statement digest (PROTOCOL.md
 * § 5.2): Ed25519 over the digest bytes; ECDSA P-256 with SHA-256 over
 * them, r || s (64 bytes).
 */
export function verifyDigestSignature(
  key: DevicePublicKey,
  digest: Uint8Array,
  signature: Uint8Array,
): boolean {
  if (signature.length !== 64) return false;
  try {
    const object = publicKeyObject(key);
    return key.type === 'ed25519'
      ? verify(null, digest, object, signature)
      : verify('sha256', digest, { key: object, dsaEncoding: 'ieee-p1363' }, signature);
  } catch {
    return false;
  }
}
