/**
 * The handshake (PROTOCOL.md § 5; 1.4, bound to the HELLO and mutual from
 * 1.7): after a device's HELLO the host sends
 * `CHALLENGE,<host nonce>,<host X25519 key>`; the device answers
 * `PROOF,<key type>,<its public key>,<device nonce>,<device X25519 key>,<signature>`,
 * signing the digest of a statement that holds its whole HELLO (talker,
 * seq, protocol, model, serial, firmware and its SHA-256), whether that
 * HELLO was ACKed, both nonces and both X25519 keys. The host answers
 * `CONFIRM,<key type>,<host public key>,<signature>`, signing the digest of
 * its own statement over the device's: the device takes the session keys
 * into use only then, and only from the host key it learned at pairing. Both
 * sides derive two session keys (one per direction) with HKDF-SHA256 from
 * the X25519 secret, salted with the device's digest, so a frame MACed in
 * one session or one direction is refused in any other.
 *
 * CHALLENGE, PROOF and CONFIRM live outside the link session: they are not
 * ACKed, take no seq (their seq field is 0); the host sends its CHALLENGE
 * again until the proof arrives; a device answers every CHALLENGE.
 */
import { createHash, createPublicKey, diffieHellman, hkdfSync, type KeyObject } from 'node:crypto';
import { type DeviceTalker, encodeFrame, type Frame } from '../frame.ts';
import {
  type DevicePublicKey,
  decodeRawPublicKey,
  fromBase64Url,
  isKeyType,
  KEY_TYPES,
  toBase64Url,
} from './keys.ts';

/** The protocol version that adds device authentication. */
export const AUTH_SINCE = '1.4';
/** The version whose proof covers the HELLO's seq and whose host proves the pairing (CONFIRM). */
export const MUTUAL_AUTH_SINCE = '1.7';
export const CHALLENGE_TYPE = 'CHALLENGE';
export const PROOF_TYPE = 'PROOF';
export const CONFIRM_TYPE = 'CONFIRM';
export const HANDSHAKE_TYPES: ReadonlySet<string> = new Set([
  CHALLENGE_TYPE,
  PROOF_TYPE,
  CONFIRM_TYPE,
]);
export const NONCE_BYTES = 16;
export const X25519_KEY_BYTES = 32;
export const SIGNATURE_BYTES = 64;

export interface Challenge {
  readonly nonce: Uint8Array;
  /** The host's ephemeral X25519 public key, raw. */
  readonly ephemeral: Uint8Array;
}

export interface Proof {
  readonly publicKey: DevicePublicKey;
  readonly nonce: Uint8Array;
  /** The device's ephemeral X25519 public key, raw. */
  readonly ephemeral: Uint8Array;
  readonly signature: Uint8Array;
}

/** An ephemeral X25519 key pair, made fresh by the caller for every connection. */
export interface EphemeralKey {
  readonly privateKey: KeyObject;
  readonly publicKey: Uint8Array;
}

export type Decoded<T> = { ok: true; value: T } | { ok: false; error: string };

export function challengeFrame(challenge: Challenge): Frame {
  return {
    talker: 'HO',
    seq: 0,
    type: CHALLENGE_TYPE,
    fields: [toBase64Url(challenge.nonce), toBase64Url(challenge.ephemeral)],
  };
}

export function proofFrame(talker: DeviceTalker, proof: Proof): Frame {
  return {
    talker,
    seq: 0,
    type: PROOF_TYPE,
    fields: [
      proof.publicKey.type,
      toBase64Url(proof.publicKey.raw),
      toBase64Url(proof.nonce),
      toBase64Url(proof.ephemeral),
      toBase64Url(proof.signature),
    ],
  };
}

function bytesField(
  fields: readonly string[],
  index: number,
  name: string,
  length: number,
): Uint8Array | string {
  const bytes = fromBase64Url(fields[index] ?? '', length);
  return bytes ?? `${name}: expected ${length} bytes of base64url`;
}

export function decodeChallenge(frame: Frame): Decoded<Challenge> {
  if (frame.talker !== 'HO') return { ok: false, error: 'CHALLENGE comes from the host only' };
  if (frame.fields.length !== 2) {
    return { ok: false, error: `CHALLENGE has 2 fields (nonce, key), not ${frame.fields.length}` };
  }
  const nonce = bytesField(frame.fields, 0, 'nonce', NONCE_BYTES);
  if (typeof nonce === 'string') return { ok: false, error: `CHALLENGE ${nonce}` };
  const ephemeral = bytesField(frame.fields, 1, 'key', X25519_KEY_BYTES);
  if (typeof ephemeral === 'string') return { ok: false, error: `CHALLENGE ${ephemeral}` };
  return { ok: true, value: { nonce, ephemeral } };
}

export function decodeProof(frame: Frame): Decoded<Proof> {
  if (frame.talker === 'HO') return { ok: false, error: 'PROOF comes from a device only' };
  if (frame.fields.length !== 5) {
    return {
      ok: false,
      error: `PROOF has 5 fields (key type, public key, nonce, key, signature), not ${frame.fields.length}`,
    };
  }
  const type = frame.fields[0]!;
  if (!isKeyType(type)) {
    return {
      ok: false,
      error: `PROOF key type: expected ${KEY_TYPES.join(' or ')}, got "${type.slice(0, 16)}"`,
    };
  }
  const publicKey = decodeRawPublicKey(type, frame.fields[1]!);
  if (!publicKey.ok) return { ok: false, error: `PROOF public key: ${publicKey.error}` };
  const nonce = bytesField(frame.fields, 2, 'nonce', NONCE_BYTES);
  if (typeof nonce === 'string') return { ok: false, error: `PROOF ${nonce}` };
  const ephemeral = bytesField(frame.fields, 3, 'key', X25519_KEY_BYTES);
  if (typeof ephemeral === 'string') return { ok: false, error: `PROOF ${ephemeral}` };
  const signature = bytesField(frame.fields, 4, 'signature', SIGNATURE_BYTES);
  if (typeof signature === 'string') return { ok: false, error: `PROOF ${signature}` };
  return { ok: true, value: { publicKey: publicKey.key, nonce, ephemeral, signature } };
}

/** The host's answer to a PROOF: its key and its signature of the confirmation's digest. */
export interface Confirm {
  readonly hostKey: DevicePublicKey;
  readonly signature: Uint8Array;
}

export function confirmFrame(confirm: Confirm): Frame {
  return {
    talker: 'HO',
    seq: 0,
    type: CONFIRM_TYPE,
    fields: [
      confirm.hostKey.type,
      toBase64Url(confirm.hostKey.raw),
      toBase64Url(confirm.signature),
    ],
  };
}

export function decodeConfirm(frame: Frame): Decoded<Confirm> {
  if (frame.talker !== 'HO') return { ok: false, error: 'CONFIRM comes from the host only' };
  if (frame.fields.length !== 3) {
    return {
      ok: false,
      error: `CONFIRM has 3 fields (key type, public key, signature), not ${frame.fields.length}`,
    };
  }
  const type = frame.fields[0]!;
  if (!isKeyType(type)) {
    return {
      ok: false,
      error: `CONFIRM key type: expected ${KEY_TYPES.join(' or ')}, got "${type.slice(0, 16)}"`,
    };
  }
  const hostKey = decodeRawPublicKey(type, frame.fields[1]!);
  if (!hostKey.ok) return { ok: false, error: `CONFIRM public key: ${hostKey.error}` };
  const signature = bytesField(frame.fields, 2, 'signature', SIGNATURE_BYTES);
  if (typeof signature === 'string') return { ok: false, error: `CONFIRM ${signature}` };
  return { ok: true, value: { hostKey: hostKey.key, signature } };
}

/** The text between `$` and `*` of a frame: talker, seq, type and fields. */
export function frameBody(frame: Frame): string {
  const line = encodeFrame(frame);
  return line.slice(1, line.lastIndexOf('*'));
}

export interface StatementParts {
  readonly talker: DeviceTalker;
  /** The device's HELLO as it went on the wire: its seq and every field are signed. */
  readonly hello: Frame;
  /**
   * Whether the host had ACKed that HELLO when the device answered: a PROOF
   * of an ACKed HELLO renews the keys of a session, and never starts one.
   */
  readonly helloAcked: boolean;
  readonly challenge: Challenge;
  readonly publicKey: DevicePublicKey;
  readonly deviceNonce: Uint8Array;
  readonly deviceEphemeral: Uint8Array;
}

/** The statement a device signs (PROTOCOL.md § 5.2), as text so a firmware engineer can print it. */
export function proofStatement(parts: StatementParts): string {
  return [
    `tableside device proof ${MUTUAL_AUTH_SINCE}`,
    `talker=${parts.talker}`,
    `hello=${frameBody(parts.hello)}`,
    `hello_acked=${parts.helloAcked ? 'yes' : 'no'}`,
    `key=${parts.publicKey.type}:${toBase64Url(parts.publicKey.raw)}`,
    `host_nonce=${toBase64Url(parts.challenge.nonce)}`,
    `host_x25519=${toBase64Url(parts.challenge.ephemeral)}`,
    `device_nonce=${toBase64Url(parts.deviceNonce)}`,
    `device_x25519=${toBase64Url(parts.deviceEphemeral)}`,
    '',
  ].join('\n');
}

/** SHA-256 of the statement: what the device's key (or secure element) signs. */
export function statementDigest(parts: StatementParts): Uint8Array {
  return new Uint8Array(createHash('sha256').update(proofStatement(parts), 'utf8').digest());
}

/** The statement the host signs in its CONFIRM (PROTOCOL.md § 5.2): the device's, and its own key. */
export function confirmStatement(proofDigest: Uint8Array, hostKey: DevicePublicKey): string {
  return [
    `tableside host confirm ${MUTUAL_AUTH_SINCE}`,
    `proof_sha256=${Buffer.from(proofDigest).toString('hex')}`,
    `host_key=${hostKey.type}:${toBase64Url(hostKey.raw)}`,
    '',
  ].join('\n');
}

/** SHA-256 of the host's statement: what the host key signs. */
export function confirmDigest(proofDigest: Uint8Array, hostKey: DevicePublicKey): Uint8Array {
  return new Uint8Array(
    createHash('sha256').update(confirmStatement(proofDigest, hostKey), 'utf8').digest(),
  );
}

export interface SessionKeys {
  /** MACs the device's frames. */
  readonly deviceToHost: Uint8Array;
  /** MACs the host's frames. */
  readonly hostToDevice: Uint8Array;
}

/** X25519 secret of our ephemeral key and the peer's; throws on a low-order peer key. */
export function x25519Secret(own: EphemeralKey, peer: Uint8Array): Uint8Array {
  const publicKey = createPublicKey({
    key: { kty: 'OKP', crv: 'X25519', x: toBase64Url(peer) },
    format: 'jwk',
  });
  const secret = new Uint8Array(diffieHellman({ privateKey: own.privateKey, publicKey }));
  // An all-zero secret means the peer sent a low-order point: refuse it.
  if (secret.every((byte) => byte === 0)) throw new RangeError('X25519 key of low order');
  return secret;
}

export function deriveSessionKeys(secret: Uint8Array, digest: Uint8Array): SessionKeys {
  const okm = new Uint8Array(
    hkdfSync('sha256', secret, digest, `tableside ${MUTUAL_AUTH_SINCE} session keys`, 64),
  );
  return { deviceToHost: okm.slice(0, 32), hostToDevice: okm.slice(32, 64) };
}
