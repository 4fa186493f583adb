/**
 * Signed MQTT requests (docs/integrator/signed-requests-and-acls.md).
 *
 * A request's JSON payload carries an `auth` object:
 *
 *   {"reason":"spilled drink","transaction":"t-1",
 *    "auth":{"key":"3f2a-9c01-77de-b410","ts":1764040000000,"nonce":"9b1c…","sig":"<base64>"}}
 *
 * `sig` is the Ed25519 signature of the UTF-8 bytes of
 *
 *   tableside-request/1 LF <topic> LF <ts> LF <nonce> LF <canonical JSON of the payload without auth>
 *
 * so a signature is good for one table, one op, one moment and one set of
 * fields. The verifier refuses, naming why: no `auth` (unsigned), a key it
 * does not hold (unknown key), a signature that does not verify (bad
 * signature), a `ts` outside the allowed skew or before the daemon started
 * (stale), a nonce it has seen within the skew window (replay).
 *
 * The nonce memory lives in RAM for one skew window; a request signed
 * before the daemon started is stale, so a restart cannot reopen a replay.
 */
import { type KeyObject, randomBytes, sign, verify } from 'node:crypto';
import { canonicalJson, isoTime } from './canonical.ts';
import { fingerprint } from './keys.ts';

export const REQUEST_SIGNATURE_DOMAIN = 'tableside-request/1';
const NONCE_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;
const KEY_ID_PATTERN = /^[0-9a-f]{4}(-[0-9a-f]{4}){3}$/;

export interface RequestAuth {
  /** Fingerprint of the signer's public key. */
  key: string;
  /** Milliseconds since the epoch, when signed. */
  ts: number;
  /** 16-64 characters of [A-Za-z0-9_-], fresh for every request. */
  nonce: string;
  /** Base64 Ed25519 signature (64 bytes). */
  sig: string;
}

/** The exact bytes a request's signature covers. */
export function requestSigningInput(
  topic: string,
  ts: number,
  nonce: string,
  fields: Record<string, unknown>,
): Buffer {
  return Buffer.from(
    `${REQUEST_SIGNATURE_DOMAIN}\n${topic}\n${ts}\n${nonce}\n${canonicalJson(fields)}`,
    'utf8',
  );
}

/** Signs a request's fields for `topic`; returns the payload to publish (fields plus `auth`). */
export function signRequest(
  topic: string,
  fields: Record<string, unknown>,
  privateKey: KeyObject,
  at: { ts: number; nonce?: string },
): Record<string, unknown> & { auth: RequestAuth } {
  const { auth: _ignored, ...body } = fields;
  const nonce = at.nonce ?? randomBytes(16).toString('base64url');
  const sig = sign(null, requestSigningInput(topic, at.ts, nonce, body), privateKey).toString(
    'base64',
  );
  return { ...body, auth: { key: fingerprint(privateKey), ts: at.ts, nonce, sig } };
}

export type RefusalCode = 'unsigned' | 'unknown_key' | 'bad_signature' | 'stale' | 'replay';

export type RequestCheck =
  | {
      ok: true;
      /** The payload without `auth`, for the request's own schema. */
      fields: Record<string, unknown>;
      /** The supervisor's name, or undefined when requests need no signature (bench). */
      signer: string | undefined;
    }
  | { ok: false; code: RefusalCode; error: string };

export interface RequestVerifierOptions {
  /** Supervisor name → public key. Empty: a bench, every request passes unsigned. */
  supervisors: ReadonlyMap<string, KeyObject>;
  /** How far a request's `ts` may lie from the daemon's clock, either way. */
  maxSkewMs: number;
  /** Requests signed before this (the daemon's start) are stale. */
  notBefore: number;
  clock: () => number;
}

export class RequestVerifier {
  private readonly byFingerprint = new Map<string, { name: string; key: KeyObject }>();
  /** `key nonce` → its request's ts, forgotten once out of the window. */
  private readonly seen = new Map<string, number>();
  private readonly options: RequestVerifierOptions;

  constructor(options: RequestVerifierOptions) {
    this.options = options;
    for (const [name, key] of options.supervisors) {
      this.byFingerprint.set(fingerprint(key), { name, key });
    }
  }

  /** Whether requests must be signed (the config names supervisors). */
  get enforcing(): boolean {
    return this.byFingerprint.size > 0;
  }

  /** Checks the signature of a parsed payload published on `topic`. Remembers the nonce of a good one. */
  check(topic: string, payload: Record<string, unknown>): RequestCheck {
    const { auth, ...fields } = payload;
    if (!this.enforcing) return { ok: true, fields, signer: undefined };
    if (auth === undefined) {
      return {
        ok: false,
        code: 'unsigned',
        error:
          'unsigned request: this table accepts requests signed by a supervisor key only (`tableside request … --key FILE`)',
      };
    }
    const shape = authProblem(auth);
    if (shape) return { ok: false, code: 'bad_signature', error: `auth: ${shape}` };
    const { key, ts, nonce, sig } = auth as RequestAuth;
    const signer = this.byFingerprint.get(key);
    if (!signer) {
      return {
        ok: false,
        code: 'unknown_key',
        error: `unknown key ${key}: not a supervisor of this table`,
      };
    }
    let good = false;
    try {
      good = verify(
        null,
        requestSigningInput(topic, ts, nonce, fields),
        signer.key,
        Buffer.from(sig, 'base64'),
      );
    } catch {
      good = false;
    }
    if (!good) {
      return {
        ok: false,
        code: 'bad_signature',
        error: `bad signature: key ${key} (${signer.name}) did not sign this request for ${topic}`,
      };
    }
    const now = this.options.clock();
    const skew = this.options.maxSkewMs;
    this.forget(now);
    if (ts < this.options.notBefore) {
      return {
        ok: false,
        code: 'stale',
        error: `stale timestamp: signed ${isoTime(ts)}, before this daemon started; sign it again`,
      };
    }
    if (Math.abs(now - ts) > skew) {
      return {
        ok: false,
        code: 'stale',
        error: `stale timestamp: signed ${isoTime(ts)}, ${Math.round((now - ts) / 1000)} s from the table's clock (at most ${skew / 1000} s allowed)`,
      };
    }
    const id = `${key} ${nonce}`;
    if (this.seen.has(id)) {
      return {
        ok: false,
        code: 'replay',
        error: `replay: nonce ${nonce} of key ${key} was already used`,
      };
    }
    this.seen.set(id, ts);
    return { ok: true, fields, signer: signer.name };
  }

  /** Nonces older than the window cannot come back (their ts is stale). */
  private forget(now: number): void {
    const oldest = now - this.options.maxSkewMs;
    for (const [id, ts] of this.seen) if (ts < oldest) this.seen.delete(id);
  }
}

function authProblem(auth: unknown): string | undefined {
  if (auth === null || typeof auth !== 'object' || Array.isArray(auth)) {
    return 'expected an object {key, ts, nonce, sig}';
  }
  const { key, ts, nonce, sig, ...extra } = auth as Record<string, unknown>;
  const unknown = Object.keys(extra);
  if (unknown.length > 0) return `unknown field(s) ${unknown.join(', ')}`;
  if (typeof key !== 'string' || !KEY_ID_PATTERN.test(key)) {
    return 'key: expected a key fingerprint such as 3f2a-9c01-77de-b410';
  }
  if (!Number.isSafeInteger(ts) || (ts as number) < 0) {
    return 'ts: expected milliseconds since the epoch (an integer)';
  }
  if (typeof nonce !== 'string' || !NONCE_PATTERN.test(nonce)) {
    return 'nonce: expected 16-64 characters of A-Z a-z 0-9 _ -';
  }
  // Canonical base64 only: the last character's spare bits must be zero.
  if (
    typeof sig !== 'string' ||
    !/^[A-Za-z0-9+/]{86}==$/.test(sig) ||
    Buffer.from(sig, 'base64').toString('base64') !== sig
  ) {
    return 'sig: expected a base64 Ed25519 signature (64 bytes)';
  }
  return undefined;
}
