/**
 * Fuzz: the new fields of a signed request (auth.key, auth.ts, auth.nonce,
 * auth.sig) and the signed fields, random and mutated from a good request,
 * through the verifier and the bridge's request path. Nothing may throw;
 * anything but the untouched request is refused with a code and a message;
 * no refusal echoes a key or a signature. Seeded by fast-check: a failure
 * prints its seed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fingerprint, generateKeyPair, privateKeyPem } from '../../firmware-host/trust/keys.ts';
import { RequestVerifier, signRequest } from '../../firmware-host/trust/signed-request.ts';

const TOPIC = 'tableside/t1/bridge/request/new_shoe';
const NOW = 1_764_040_000_000;
const supervisor = generateKeyPair();
const PEM_BODY = privateKeyPem(supervisor.privateKey).split('\n')[1]!;

function freshVerifier() {
  return new RequestVerifier({
    supervisors: new Map([['alice', supervisor.publicKey]]),
    maxSkewMs: 30_000,
    notBefore: NOW - 60_000,
    clock: () => NOW,
  });
}

const good = signRequest(TOPIC, { reason: 'fuzz', transaction: 'f-1' }, supervisor.privateKey, {
  ts: NOW,
  nonce: 'nonce-nonce-nonce-0001',
});

const anyJson = fc.jsonValue({ maxDepth: 3 });
const nearString = (text: string) =>
  fc.oneof(
    fc.string({ maxLength: 100 }),
    fc
      .nat({ max: Math.max(0, text.length - 1) })
      .chain((at) =>
        fc
          .string({ minLength: 1, maxLength: 3 })
          .map((insert) => text.slice(0, at) + insert + text.slice(at + 1)),
      ),
    fc.constant(text.slice(1)),
    fc.constant(`${text}A`),
  );

describe('fuzzing the signed-request fields', () => {
  it('refuses every mutation of a good request, never throws, never leaks key material', () => {
    const mutation = fc.oneof(
      nearString(good.auth.key).map((key) => ({ auth: { ...good.auth, key } })),
      fc.oneof(fc.integer(), fc.double(), anyJson).map((ts) => ({ auth: { ...good.auth, ts } })),
      fc
        .integer({ min: -1e12, max: 1e12 })
        .filter((d) => d !== 0)
        .map((d) => ({ auth: { ...good.auth, ts: NOW + d } })),
      nearString(good.auth.nonce).map((nonce) => ({ auth: { ...good.auth, nonce } })),
      nearString(good.auth.sig).map((sig) => ({ auth: { ...good.auth, sig } })),
      anyJson.map((auth) => ({ auth })),
      nearString('fuzz').map((reason) => ({ reason })),
      anyJson.map((extra) => ({ extra })),
    );
    fc.assert(
      fc.property(mutation, (change) => {
        const payload = { ...good, ...change } as Record<string, unknown>;
        const same = JSON.stringify(payload) === JSON.stringify(good);
        const check = freshVerifier().check(TOPIC, payload);
        if (same) {
          expect(check.ok).toBe(true);
          return;
        }
        // A changed nonce or ts is a changed signed input: the signature no longer fits.
        expect(check.ok).toBe(false);
        if (check.ok) return;
        expect(check.error.length).toBeGreaterThan(10);
        expect(check.error).not.toContain(good.auth.sig);
        expect(check.error).not.toContain(PEM_BODY.slice(0, 16));
      }),
      { numRuns: 3000 },
    );
  });

  it('answers random payloads with a refusal code, never an exception', () => {
    const codes = new Set(['unsigned', 'unknown_key', 'bad_signature', 'stale', 'replay']);
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 8 }), anyJson), (payload) => {
        const check = freshVerifier().check(TOPIC, payload);
        expect(check.ok).toBe(false);
        if (!check.ok) expect(codes.has(check.code)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('accepts the good request once, whatever the key order', () => {
    const verifier = freshVerifier();
    const reordered = Object.fromEntries(Object.entries(good).reverse());
    expect(verifier.check(TOPIC, reordered)).toMatchObject({ ok: true, signer: 'alice' });
    expect(verifier.check(TOPIC, good)).toMatchObject({ ok: false, code: 'replay' });
    expect(fingerprint(supervisor.publicKey)).toBe(good.auth.key);
  });
});
