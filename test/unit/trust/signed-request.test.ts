import { createPrivateKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../firmware-host/trust/canonical.ts';
import {
  fingerprint,
  formatPublicKey,
  generateKeyPair,
  parsePublicKey,
  publicKeyProblem,
} from '../../../firmware-host/trust/keys.ts';
import {
  RequestVerifier,
  requestSigningInput,
  signRequest,
} from '../../../firmware-host/trust/signed-request.ts';

const TOPIC = 'tableside/t1/bridge/request/void_hand';
const NOW = 1_764_040_000_000;
const alice = generateKeyPair();
const mallory = generateKeyPair();

function verifier(clock = () => NOW, supervisors = new Map([['alice', alice.publicKey]])) {
  return new RequestVerifier({ supervisors, maxSkewMs: 30_000, notBefore: NOW - 60_000, clock });
}

const signed = (
  fields: Record<string, unknown> = { reason: 'spilled drink', transaction: 't-1' },
  at = { ts: NOW },
) => signRequest(TOPIC, fields, alice.privateKey, at);

describe('signed requests', () => {
  it('accepts a request signed by a supervisor and names the signer, without the auth field', () => {
    const check = verifier().check(TOPIC, signed());
    expect(check).toEqual({
      ok: true,
      signer: 'alice',
      fields: { reason: 'spilled drink', transaction: 't-1' },
    });
  });

  it('signs the canonical form: key order and whitespace of the payload do not matter', () => {
    const payload = signed({ transaction: 't-2', reason: 'x', stakes: { b: 1, a: 2 } });
    const reordered = JSON.parse(
      JSON.stringify(
        { stakes: { a: 2, b: 1 }, auth: payload.auth, reason: 'x', transaction: 't-2' },
        null,
        3,
      ),
    );
    expect(verifier().check(TOPIC, reordered).ok).toBe(true);
    expect(canonicalJson({ b: [1, { d: 'é', c: null }], a: 1.5 })).toBe(
      '{"a":1.5,"b":[1,{"c":null,"d":"é"}]}',
    );
  });

  it('matches a golden vector: a fixed key gives the exact signature in docs/integrator/signed-requests-and-acls.md', () => {
    // RFC 8032 test 1 secret key, as PKCS#8.
    const key = createPrivateKey({
      key: Buffer.concat([
        Buffer.from('302e020100300506032b657004220420', 'hex'),
        Buffer.from('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'hex'),
      ]),
      format: 'der',
      type: 'pkcs8',
    });
    expect(formatPublicKey(key)).toBe('ed25519:11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=');
    // Fingerprint and signature computed independently (python hashlib, openssl pkeyutl -rawin).
    expect(fingerprint(key)).toBe('21fe-31df-a154-a261');
    const input = requestSigningInput(TOPIC, NOW, 'AAAAAAAAAAAAAAAAAAAAAA', {
      reason: 'spilled drink',
      transaction: 't-1',
    });
    expect(input.toString()).toBe(
      `tableside-request/1\n${TOPIC}\n${NOW}\nAAAAAAAAAAAAAAAAAAAAAA\n{"reason":"spilled drink","transaction":"t-1"}`,
    );
    const payload = signRequest(TOPIC, { reason: 'spilled drink', transaction: 't-1' }, key, {
      ts: NOW,
      nonce: 'AAAAAAAAAAAAAAAAAAAAAA',
    });
    expect(payload.auth.sig).toBe(
      'X38WYKzIRLxsvzTRnsxFnz5iAEV9rMRBU0CGn7Vx84+7AHR9be4RoMw5ifzfHcOTpLgdBHnz/g8meLMrIXnHBg==',
    );
    expect(verifier(() => NOW, new Map([['golden', key]])).check(TOPIC, payload).ok).toBe(true);
  });

  it('refuses an unsigned request, naming it', () => {
    const check = verifier().check(TOPIC, { reason: 'x' });
    expect(check).toMatchObject({ ok: false, code: 'unsigned' });
  });

  it('refuses a key it does not hold', () => {
    const payload = signRequest(TOPIC, { reason: 'x' }, mallory.privateKey, { ts: NOW });
    const check = verifier().check(TOPIC, payload);
    expect(check).toMatchObject({ ok: false, code: 'unknown_key' });
    if (!check.ok) expect(check.error).toContain(fingerprint(mallory.publicKey));
  });

  it('refuses a bad signature: a flipped bit, another field, another topic, a borrowed key id', () => {
    const payload = signed();
    const sig = Buffer.from(payload.auth.sig, 'base64');
    sig[10]! ^= 0x01;
    const flipped = { ...payload, auth: { ...payload.auth, sig: sig.toString('base64') } };
    expect(verifier().check(TOPIC, flipped)).toMatchObject({ ok: false, code: 'bad_signature' });
    expect(verifier().check(TOPIC, { ...payload, reason: 'other' })).toMatchObject({
      ok: false,
      code: 'bad_signature',
    });
    expect(verifier().check('tableside/t2/bridge/request/void_hand', payload)).toMatchObject({
      ok: false,
      code: 'bad_signature',
    });
    const forged = signRequest(TOPIC, { reason: 'x' }, mallory.privateKey, { ts: NOW });
    forged.auth.key = fingerprint(alice.publicKey);
    expect(verifier().check(TOPIC, forged)).toMatchObject({ ok: false, code: 'bad_signature' });
  });

  it('refuses a stale timestamp: too old, too far ahead, or from before the daemon started', () => {
    expect(verifier().check(TOPIC, signed(undefined, { ts: NOW - 31_000 }))).toMatchObject({
      ok: false,
      code: 'stale',
    });
    expect(verifier().check(TOPIC, signed(undefined, { ts: NOW + 31_000 }))).toMatchObject({
      ok: false,
      code: 'stale',
    });
    const restarted = new RequestVerifier({
      supervisors: new Map([['alice', alice.publicKey]]),
      maxSkewMs: 30_000,
      notBefore: NOW + 1,
      clock: () => NOW + 2,
    });
    const check = restarted.check(TOPIC, signed());
    expect(check).toMatchObject({ ok: false, code: 'stale' });
    if (!check.ok) expect(check.error).toMatch(/before this daemon started/);
  });

  it('answers a signed timestamp beyond the range of dates as stale, without throwing', () => {
    const check = verifier().check(TOPIC, signed(undefined, { ts: 9_000_000_000_000_000 }));
    expect(check).toMatchObject({ ok: false, code: 'stale' });
    if (!check.ok) expect(check.error).toMatch(/9000000000000000 ms/);
  });

  it('refuses a replay of a nonce within the window, and forgets nonces once stale', () => {
    let now = NOW;
    const v = verifier(() => now);
    const payload = signed();
    expect(v.check(TOPIC, payload).ok).toBe(true);
    expect(v.check(TOPIC, payload)).toMatchObject({ ok: false, code: 'replay' });
    now += 31_000;
    // Forgotten, but now stale: still refused.
    expect(v.check(TOPIC, payload)).toMatchObject({ ok: false, code: 'stale' });
  });

  it('refuses malformed auth fields, naming the field', () => {
    const payload = signed();
    const cases: [unknown, RegExp][] = [
      ['text', /expected an object/],
      [{ ...payload.auth, extra: 1 }, /unknown field\(s\) extra/],
      [{ ...payload.auth, key: 'alice' }, /key: expected a key fingerprint/],
      [{ ...payload.auth, ts: '1764040000000' }, /ts: expected milliseconds/],
      [{ ...payload.auth, nonce: 'short' }, /nonce: expected 16-64/],
      [{ ...payload.auth, sig: 'abc' }, /sig: expected a base64/],
    ];
    for (const [auth, message] of cases) {
      const check = verifier().check(TOPIC, { ...payload, auth });
      expect(check.ok, String(message)).toBe(false);
      if (!check.ok) expect(check.error).toMatch(message);
    }
  });

  it('takes unsigned requests on a bench with no supervisors (the daemon warns at start)', () => {
    const bench = verifier(() => NOW, new Map());
    expect(bench.enforcing).toBe(false);
    expect(bench.check(TOPIC, { reason: 'x', auth: 'ignored' })).toEqual({
      ok: true,
      signer: undefined,
      fields: { reason: 'x' },
    });
  });

  it('reads and writes public keys as ed25519:<base64>, refusing anything else with a reason', () => {
    const text = formatPublicKey(alice.publicKey);
    expect(fingerprint(parsePublicKey(text))).toBe(fingerprint(alice.publicKey));
    expect(publicKeyProblem('ssh-ed25519 AAAA')).toMatch(/ed25519:<base64>/);
    expect(publicKeyProblem('ed25519:AAAA')).toMatch(/32 bytes/);
  });
});
