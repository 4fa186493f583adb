/**
 * Issue 24 item 6, the quarantine that could never end (PROTOCOL.md § 5.4):
 * 16 refused frames in a row (a rogue's bad MACs written between a paired
 * shoe's own frames, or CRC-valid line noise) quarantine a paired device,
 * and a device whose HELLO was ACKed never says HELLO again. So the host
 * asks it afresh: a new CHALLENGE 2 s later, then every 4, 8, 16 and 30 s at
 * most. A PROOF with another key, or none, stops nothing; the genuine
 * shoe's PROOF is a new session, and its frames pass again. So too after a
 * rogue's PROOF (none, or another key) beat the shoe's to the first
 * CHALLENGE. Virtual time.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DeviceAuth } from '../../../device-protocol/auth/device-side-auth.ts';
import { sealLine } from '../../../device-protocol/auth/frame-mac.ts';
import { HostAuth, type HostAuthAction } from '../../../device-protocol/auth/host-auth.ts';
import {
  encodeFrame,
  type FrameEvent,
  messageFrame,
  parseFrameLine,
} from '../../../device-protocol/index.ts';
import {
  freshHandshakeSecrets,
  generatedSigner,
  processHostKey,
} from '../../../hardware/keys/device-key.ts';

const HELLO = {
  type: 'HELLO',
  model: 'TS-SHOE-2',
  serial: 'SH0042',
  protocol: '1.7',
  firmware: '2.3.1',
  firmwareSha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
} as const;
const helloEvent: FrameEvent = { kind: 'frame', frame: messageFrame('SH', 0, HELLO) };

const cardLine = (seq: number) =>
  encodeFrame(messageFrame('SH', seq, { type: 'CARD', card: 'AS', back: 'red', face: 'down' }));

type Signer = ReturnType<typeof generatedSigner>;

/** The device's PROOF to a CHALLENGE line, signed by `signer`. */
function answer(device: DeviceAuth, signer: Signer, challenge: string): string {
  const sign = device.incoming(parseFrameLine(challenge)).find((a) => a.kind === 'sign');
  if (sign?.kind !== 'sign') throw new Error('the device did not sign the CHALLENGE');
  const proof = device.signed(sign.id, signer.signNow(sign.digest)).find((a) => a.kind === 'write');
  if (proof?.kind !== 'write') throw new Error('no PROOF');
  return proof.line;
}

function written(actions: readonly HostAuthAction[]): string[] {
  return actions.flatMap((a) => (a.kind === 'write' ? [a.line] : []));
}

/** The host takes a PROOF; its CONFIRM reaches the device, whose keys go into use. */
function proven(host: HostAuth, device: DeviceAuth, proof: string, at: number): HostAuthAction[] {
  const actions = host.incoming(parseFrameLine(proof), at);
  for (const line of written(actions)) {
    if (line.includes(',CONFIRM,')) device.incoming(parseFrameLine(line));
  }
  return actions;
}

/** Runs the host's timer from deadline to deadline up to `until`: when each CHALLENGE went. */
function challengesUntil(host: HostAuth, until: number): Array<{ at: number; line: string }> {
  const sent: Array<{ at: number; line: string }> = [];
  for (let at = host.nextDeadline(); at !== undefined && at <= until; at = host.nextDeadline()) {
    for (const line of written(host.tick(at))) sent.push({ at, line });
  }
  return sent;
}

async function authenticatedPair() {
  const signer = generatedSigner('ed25519');
  const publicKey = await signer.publicKey();
  const host = new HostAuth({
    talker: 'SH',
    hostKey: processHostKey(),
    fresh: freshHandshakeSecrets,
    paired: publicKey,
  });
  const device = new DeviceAuth({ talker: 'SH', publicKey, fresh: freshHandshakeSecrets });
  device.helloSent(HELLO);
  const [challenge] = written(host.incoming(helloEvent, 0));
  const proof = answer(device, signer, challenge!);
  expect(proven(host, device, proof, 10).at(-1)).toMatchObject({ kind: 'authenticated' });
  return { host, device, signer, challenge: challenge! };
}

/** A sealed frame of the device, as the host reads it. */
function fromDevice(device: DeviceAuth, line: string): FrameEvent {
  const sealed = device.outgoing(line, 'CARD');
  if (sealed === undefined) throw new Error('the device holds its frame');
  return parseFrameLine(sealed);
}

describe('a paired device quarantined for refused frames', () => {
  it('is challenged afresh with backoff, and only its own PROOF lifts the quarantine', async () => {
    const { host, device, signer, challenge } = await authenticatedPair();
    expect(host.incoming(fromDevice(device, cardLine(1)), 20)[0]!.kind).toBe('pass');

    // A rogue writes 16 CRC-valid frames with a MAC of no session.
    const rogueKey = randomBytes(32);
    const refusals: HostAuthAction[] = [];
    for (let seq = 2; seq < 18; seq++) {
      refusals.push(...host.incoming(parseFrameLine(sealLine(cardLine(seq), rogueKey)), 100));
    }
    expect(refusals.filter((a) => a.kind === 'refused')).toHaveLength(16);
    expect(refusals.filter((a) => a.kind === 'failed')).toEqual([
      {
        kind: 'failed',
        reason: 'not_authenticating',
        detail: '16 frames in a row failed authentication',
      },
    ]);
    expect(host.state).toBe('failed');
    // The genuine shoe's frames are not dealt while it is quarantined.
    expect(host.incoming(fromDevice(device, cardLine(18)), 200)[0]!.kind).toBe('dropped');

    const challenges = challengesUntil(host, 100_000);
    expect(challenges.map((c) => c.at)).toEqual([2_100, 6_100, 14_100, 30_100, 60_100, 90_100]);
    // One fresh CHALLENGE asked again and again (one new session), not the one already answered.
    expect(new Set(challenges.map((c) => c.line)).size).toBe(1);
    expect(challenges[0]!.line).not.toBe(challenge);

    // The rogue answers it with a key of its own, or with none: nothing changes.
    const rogue = generatedSigner('ed25519');
    const rogueDevice = new DeviceAuth({
      talker: 'SH',
      publicKey: await rogue.publicKey(),
      fresh: freshHandshakeSecrets,
    });
    rogueDevice.helloSent(HELLO);
    const rogueProof = answer(rogueDevice, rogue, challenges[0]!.line);
    expect(host.incoming(parseFrameLine(rogueProof), 90_200)).toMatchObject([{ kind: 'dropped' }]);
    const none = encodeFrame({ talker: 'SH', seq: 0, type: 'PROOF', fields: ['none'] });
    expect(host.incoming(parseFrameLine(none), 90_200)).toMatchObject([{ kind: 'dropped' }]);
    expect(host.state).toBe('failed');
    expect(host.nextDeadline()).toBe(120_100);

    // The genuine shoe answers: a new session, and its frames pass again; the old session's fail.
    const oldSession = fromDevice(device, cardLine(19));
    const proof = answer(device, signer, challenges.at(-1)!.line);
    expect(proven(host, device, proof, 90_300).at(-1)).toMatchObject({
      kind: 'authenticated',
      paired: true,
    });
    expect(host.state).toBe('authenticated');
    expect(host.nextDeadline()).toBeUndefined();
    expect(host.incoming(fromDevice(device, cardLine(20)), 90_400)[0]!.kind).toBe('pass');
    expect(host.incoming(oldSession, 90_400)[0]).toMatchObject({
      kind: 'refused',
      reason: 'bad_mac',
    });
    // Its count of refusals in a row starts again: one more bad frame does not quarantine it.
    expect(host.state).toBe('authenticated');
  });

  it('leaves an unpaired line alone: nothing to prove, nothing to ask again', async () => {
    const signer = generatedSigner('ed25519');
    const publicKey = await signer.publicKey();
    const host = new HostAuth({
      talker: 'SH',
      hostKey: processHostKey(),
      fresh: freshHandshakeSecrets,
    });
    const device = new DeviceAuth({ talker: 'SH', publicKey, fresh: freshHandshakeSecrets });
    device.helloSent(HELLO);
    const [challenge] = written(host.incoming(helloEvent, 0));
    proven(host, device, answer(device, signer, challenge!), 10);
    const rogueKey = randomBytes(32);
    const actions: HostAuthAction[] = [];
    for (let seq = 2; seq < 40; seq++) {
      actions.push(...host.incoming(parseFrameLine(sealLine(cardLine(seq), rogueKey)), 100));
    }
    expect(actions.every((a) => a.kind === 'refused')).toBe(true);
    expect(host.nextDeadline()).toBeUndefined();
  });

  it('starts the backoff again after a good PROOF', async () => {
    const { host, device, signer } = await authenticatedPair();
    const rogueKey = randomBytes(32);
    const burst = (at: number) => {
      for (let seq = 100; seq < 116; seq++) {
        host.incoming(parseFrameLine(sealLine(cardLine(seq), rogueKey)), at);
      }
    };
    burst(1_000);
    const first = challengesUntil(host, 7_000);
    expect(first.map((c) => c.at)).toEqual([3_000, 7_000]);
    expect(
      proven(host, device, answer(device, signer, first[1]!.line), 7_010).at(-1),
    ).toMatchObject({ kind: 'authenticated' });
    burst(8_000);
    expect(host.state).toBe('failed');
    expect(host.nextDeadline()).toBe(10_000);
  });
});

describe("a rogue's PROOF during a paired shoe's handshake", () => {
  it('quarantines the shoe only until its own PROOF to a fresh CHALLENGE', async () => {
    const signer = generatedSigner('ed25519');
    const publicKey = await signer.publicKey();
    const host = new HostAuth({
      talker: 'SH',
      hostKey: processHostKey(),
      fresh: freshHandshakeSecrets,
      paired: publicKey,
    });
    const device = new DeviceAuth({ talker: 'SH', publicKey, fresh: freshHandshakeSecrets });
    device.helloSent(HELLO);
    const [challenge] = written(host.incoming(helloEvent, 0));

    // The rogue needs no key and no CHALLENGE to write PROOF,none.
    const none = encodeFrame({ talker: 'SH', seq: 0, type: 'PROOF', fields: ['none'] });
    expect(host.incoming(parseFrameLine(none), 5)).toMatchObject([
      { kind: 'failed', reason: 'no_key' },
    ]);
    // The shoe's answer to the first CHALLENGE signs a nonce no longer asked.
    const late = answer(device, signer, challenge!);
    expect(host.incoming(parseFrameLine(late), 10)).toMatchObject([{ kind: 'dropped' }]);
    expect(host.state).toBe('failed');

    const [fresh] = challengesUntil(host, 2_005);
    expect(fresh!.at).toBe(2_005);
    expect(proven(host, device, answer(device, signer, fresh!.line), 2_010).at(-1)).toMatchObject({
      kind: 'authenticated',
      paired: true,
    });
    expect(host.incoming(fromDevice(device, cardLine(1)), 2_020)[0]!.kind).toBe('pass');
  });
});
