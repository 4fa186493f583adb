/**
 * Fuzz every field protocol 1.4 adds (PROOF: key type, public key, nonce,
 * X25519 key, signature; CHALLENGE: nonce, X25519 key; the frame MAC):
 * random and mutated values never throw, never authenticate, and never let
 * a frame through. Seeded: FUZZ_SEED=<n> replays a failure.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeviceAuth } from '../../device-protocol/auth/device-side-auth.ts';
import { HostAuth } from '../../device-protocol/auth/host-auth.ts';
import { ReplayGuard } from '../../device-protocol/auth/replay-guard.ts';
import {
  encodeFrame,
  type Frame,
  type FrameEvent,
  isFieldText,
  parseFrameLine,
} from '../../device-protocol/frame.ts';
import { messageFrame } from '../../device-protocol/messages.ts';
import {
  freshHandshakeSecrets,
  generatedSigner,
  processHostKey,
} from '../../hardware/keys/device-key.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
const signer = generatedSigner('ed25519');
const otherSigner = generatedSigner('p256');
const HELLO = messageFrame('SH', 0, {
  type: 'HELLO',
  model: 'TS-SHOE-2',
  serial: 'SH0042',
  protocol: '1.7',
  firmware: '2.3.1',
  firmwareSha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
});

const frameEvent = (frame: Frame): FrameEvent => ({ kind: 'frame', frame });

/** A host that has challenged, the device's valid PROOF for it, and the device. */
async function handshake(maxRefusedInRow = 16) {
  const publicKey = await signer.publicKey();
  const host = new HostAuth({
    talker: 'SH',
    fresh: freshHandshakeSecrets,
    hostKey: processHostKey(),
    paired: publicKey,
    maxRefusedInRow,
  });
  const device = new DeviceAuth({ talker: 'SH', publicKey, fresh: freshHandshakeSecrets });
  device.helloSent({
    type: 'HELLO',
    model: 'TS-SHOE-2',
    serial: 'SH0042',
    protocol: '1.7',
    firmware: '2.3.1',
    firmwareSha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  });
  // From 1.7 the device answers before its HELLO's ACK: the host ACKs it once a PROOF covers it.
  const challenge = host.incoming(frameEvent(HELLO), 0).find((a) => a.kind === 'write');
  if (challenge?.kind !== 'write') throw new Error('no CHALLENGE');
  const challengeEvent = parseFrameLine(challenge.line);
  const sign = device.incoming(challengeEvent).find((a) => a.kind === 'sign');
  if (sign?.kind !== 'sign') throw new Error('no sign request');
  const written = device
    .signed(sign.id, signer.signNow(sign.digest))
    .find((a) => a.kind === 'write');
  if (written?.kind !== 'write') throw new Error('no PROOF');
  const proof = parseFrameLine(written.line);
  if (proof.kind !== 'frame') throw new Error('bad PROOF');
  /** The host takes the PROOF; its CONFIRM puts the device's keys into use. What the host reports. */
  const accept = (at: number) => {
    const actions = host.incoming(frameEvent(proof.frame), at);
    for (const action of actions) {
      if (action.kind === 'write') device.incoming(parseFrameLine(action.line));
    }
    return actions.filter((action) => action.kind !== 'write' && action.kind !== 'pass');
  };
  return { host, device, proof: proof.frame, challenge: challengeEvent, accept };
}

/** Field text the grammar allows: printable ASCII but `$ , *`. */
const fieldText = fc
  .string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
    maxLength: 100,
  })
  .filter(isFieldText);

function mutate(value: string): fc.Arbitrary<string> {
  return fc.oneof(
    fieldText,
    fc.constant(''),
    fc.constant(value.slice(0, -1)),
    fc.constant(`${value}A`),
    fc
      .integer({ min: 0, max: Math.max(0, value.length - 1) })
      .chain((at) =>
        fc
          .constantFrom('A', '_', '-', '0', 'z')
          .map((c) => value.slice(0, at) + c + value.slice(at + 1)),
      ),
  );
}

describe('fuzzing the fields protocol 1.4 adds', () => {
  it('a PROOF with any field changed never authenticates and never throws', async () => {
    const { proof } = await handshake();
    await fc.assert(
      fc.asyncProperty(
        fc
          .integer({ min: 0, max: 4 })
          .chain((index) => mutate(proof.fields[index]!).map((value) => ({ index, value }))),
        async ({ index, value }) => {
          fc.pre(value !== proof.fields[index]);
          const fresh = await handshake();
          const fields = [...fresh.proof.fields];
          fields[index] = value;
          const actions = fresh.host.incoming(frameEvent({ ...fresh.proof, fields }), 1);
          expect(actions.some((a) => a.kind === 'authenticated')).toBe(false);
          expect(fresh.host.state).not.toBe('authenticated');
        },
      ),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('a PROOF with extra or missing fields, or from a key that is not paired, is refused', async () => {
    const { host, proof } = await handshake();
    expect(
      host.incoming(frameEvent({ ...proof, fields: proof.fields.slice(0, 4) }), 1),
    ).toMatchObject([{ kind: 'failed', reason: 'bad_proof' }]);
    const again = await handshake();
    expect(
      again.host.incoming(frameEvent({ ...again.proof, fields: [...again.proof.fields, 'x'] }), 1),
    ).toMatchObject([{ kind: 'failed', reason: 'bad_proof' }]);
    const third = await handshake();
    const otherKey = await otherSigner.publicKey();
    expect(otherKey.type).toBe('p256');
    const fields = [...third.proof.fields];
    fields[0] = 'p256';
    fields[1] = Buffer.from(otherKey.raw).toString('base64url');
    expect(third.host.incoming(frameEvent({ ...third.proof, fields }), 1)[0]).toMatchObject({
      kind: 'dropped',
    });
  });

  it('a CHALLENGE with any field changed never throws; a bad one is refused, a well-formed one signed', async () => {
    const { challenge } = await handshake();
    if (challenge.kind !== 'frame') throw new Error('bad CHALLENGE');
    await fc.assert(
      fc.property(
        fc
          .integer({ min: 0, max: 1 })
          .chain((index) =>
            mutate(challenge.frame.fields[index]!).map((value) => ({ index, value })),
          ),
        fc.boolean(),
        ({ index, value }, keyless) => {
          const device = new DeviceAuth({
            talker: 'SH',
            fresh: freshHandshakeSecrets,
            ...(keyless ? {} : { publicKey: { type: 'ed25519', raw: new Uint8Array(32).fill(9) } }),
          });
          device.helloSent({
            type: 'HELLO',
            model: 'M',
            serial: 'S',
            protocol: '1.7',
            firmware: '1',
            firmwareSha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
          });
          device.helloAcked(0);
          const fields = [...challenge.frame.fields];
          fields[index] = value;
          const actions = device.incoming(frameEvent({ ...challenge.frame, fields }));
          expect(actions).toHaveLength(1);
          // A keyless device answers PROOF,none to a well-formed CHALLENGE; a bad one is refused.
          expect(keyless ? ['refused', 'write'] : ['refused', 'sign']).toContain(actions[0]!.kind);
          expect(device.authenticated).toBe(false);
        },
      ),
      { seed: SEED, numRuns: 500 },
    );
  });

  it('any MAC field but the right one is refused, as is a frame with none', async () => {
    const { host, accept } = await handshake(1_000_000);
    expect(accept(1)[0]).toMatchObject({ kind: 'authenticated' });
    const card = messageFrame('SH', 1, { type: 'CARD', card: 'AS', back: 'red', face: 'down' });
    await fc.assert(
      fc.property(fieldText, fc.boolean(), (mac, tilde) => {
        const last = tilde ? `~${mac}` : mac;
        const actions = host.incoming(frameEvent({ ...card, fields: [...card.fields, last] }), 2);
        expect(actions[0]).toMatchObject({ kind: 'refused' });
        expect(actions.some((a) => a.kind === 'pass')).toBe(false);
      }),
      { seed: SEED, numRuns: 1000 },
    );
    expect(host.incoming(frameEvent(card), 3)[0]).toMatchObject({
      kind: 'refused',
      reason: 'missing_mac',
    });
  });

  it('random frames never throw in any state: idle, challenging, plain, failed', async () => {
    const publicKey = await signer.publicKey();
    const frame = fc.record({
      talker: fc.constantFrom('SH', 'SF', 'RD', 'HO' as const),
      seq: fc.integer({ min: 0, max: 65535 }),
      type: fc.constantFrom('CARD', 'HELLO', 'ACK', 'PROOF', 'CHALLENGE', 'X'),
      fields: fc.array(fieldText, { maxLength: 6 }),
    }) as fc.Arbitrary<Frame>;
    const hosts = () => {
      const idle = new HostAuth({
        talker: 'SH',
        hostKey: processHostKey(),
        fresh: freshHandshakeSecrets,
        paired: publicKey,
      });
      const challenging = new HostAuth({
        talker: 'SH',
        fresh: freshHandshakeSecrets,
        hostKey: processHostKey(),
        paired: publicKey,
      });
      challenging.incoming(frameEvent(HELLO), 0);
      const plain = new HostAuth({
        talker: 'SH',
        hostKey: processHostKey(),
        fresh: freshHandshakeSecrets,
      });
      plain.incoming(
        frameEvent({ ...HELLO, fields: HELLO.fields.map((f) => (f === '1.7' ? '1.2' : f)) }),
        0,
      );
      const failed = new HostAuth({
        talker: 'SH',
        fresh: freshHandshakeSecrets,
        hostKey: processHostKey(),
        paired: publicKey,
      });
      failed.incoming(frameEvent(HELLO), 0);
      failed.incoming(frameEvent({ talker: 'SH', seq: 0, type: 'PROOF', fields: ['none'] }), 1);
      expect([idle.state, challenging.state, plain.state, failed.state]).toEqual([
        'idle',
        'challenging',
        'plain',
        'failed',
      ]);
      return [idle, challenging, plain, failed];
    };
    const all = hosts();
    fc.assert(
      fc.property(frame, (random) => {
        for (const host of all) {
          const actions = host.incoming(frameEvent(random), 5);
          expect(Array.isArray(actions)).toBe(true);
        }
      }),
      { seed: SEED, numRuns: 1000 },
    );
  });

  it('random frames never pass unchecked once authenticated', async () => {
    const { host, accept } = await handshake();
    accept(1);
    const frame = fc.record({
      talker: fc.constantFrom('SH', 'SF', 'RD', 'HO' as const),
      seq: fc.integer({ min: 0, max: 65535 }),
      type: fc.constantFrom(
        'CARD',
        'CUT',
        'ACK',
        'NAK',
        'PING',
        'PROOF',
        'CHALLENGE',
        'ORDER',
        'X',
      ),
      fields: fc.array(fieldText, { maxLength: 6 }),
    }) as fc.Arbitrary<Frame>;
    fc.assert(
      fc.property(frame, (random) => {
        const actions = host.incoming(frameEvent(random), 5);
        if (random.type !== 'HELLO') {
          expect(actions.some((a) => a.kind === 'pass')).toBe(false);
        }
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });
});

describe('replays inside one session', () => {
  it('a frame played back more than 2048 seqs later is refused; a retransmission is not', async () => {
    const { host, device, accept } = await handshake();
    accept(1);
    const sealed = (seq: number) => {
      const line = device.outgoing(encodeFrame(messageFrame('SH', seq, { type: 'CUT' })), 'CUT');
      const event = parseFrameLine(line!);
      if (event.kind !== 'frame') throw new Error('bad sealed line');
      return event;
    };
    const first = sealed(1);
    expect(host.incoming(first, 2)[0]).toMatchObject({ kind: 'pass' });
    expect(host.incoming(first, 3)[0]).toMatchObject({ kind: 'pass' }); // a retransmission
    for (let seq = 2; seq <= 2100; seq++)
      expect(host.incoming(sealed(seq), 4)[0]!.kind).toBe('pass');
    expect(host.incoming(first, 5)[0]).toMatchObject({ kind: 'refused', reason: 'replay' });
    // A frame still within the window goes through (its ACK may have been lost).
    expect(host.incoming(sealed(2000), 6)[0]!.kind).toBe('pass');
  });

  it('the guard lets three laps of the seq counter through and catches a replay on each', () => {
    const guard = new ReplayGuard();
    for (let lap = 0; lap < 3; lap++) {
      let refused = 0;
      for (let step = 0; step < 65536; step++) if (!guard.accept(step)) refused++;
      expect(refused).toBe(0);
      expect(guard.accept(60000)).toBe(false);
    }
  });
});
