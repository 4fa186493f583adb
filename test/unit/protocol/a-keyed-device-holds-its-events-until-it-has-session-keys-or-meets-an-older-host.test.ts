/**
 * The device side of 1.4 (PROTOCOL.md § 5.2): a device with a key holds its
 * events until its session keys exist, or until the host turns out to be
 * older than 1.4 (its HELLO says so, or no CHALLENGE within 3 s of our HELLO
 * being ACKed); control frames go at once. Once keyed, it seals what it sends
 * and refuses what the host sends without a valid MAC; the same CHALLENGE
 * twice gets the same PROOF, signed once. From 1.7 it answers a CHALLENGE
 * before its HELLO's ACK (the host ACKs the HELLO only once a PROOF covers
 * it), and its keys go into use at the host's CONFIRM.
 */
import { describe, expect, it } from 'vitest';
import { DeviceAuth } from '../../../device-protocol/auth/device-side-auth.ts';
import { sealFrame } from '../../../device-protocol/auth/frame-mac.ts';
import { HostAuth } from '../../../device-protocol/auth/host-auth.ts';
import { encodeFrame, type FrameEvent, parseFrameLine } from '../../../device-protocol/frame.ts';
import { type HelloMessage, messageFrame } from '../../../device-protocol/messages.ts';
import {
  freshHandshakeSecrets,
  generatedSigner,
  processHostKey,
} from '../../../hardware/keys/device-key.ts';

const HELLO: HelloMessage = {
  type: 'HELLO',
  model: 'TS-SHOE-2',
  serial: 'SH0042',
  protocol: '1.7',
  firmware: '2.3.1',
  firmwareSha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
};
const card = encodeFrame(
  messageFrame('SH', 1, { type: 'CARD', card: 'AS', back: 'red', face: 'down' }),
);
const ack = encodeFrame(messageFrame('SH', 2, { type: 'ACK', ackedSeq: 0 }));
const hostHello = (protocol: string): FrameEvent => ({
  kind: 'frame',
  frame: messageFrame('HO', 0, { ...HELLO, model: 'tableside', protocol }),
});

async function keyedDevice() {
  const signer = generatedSigner('ed25519');
  const publicKey = await signer.publicKey();
  const device = new DeviceAuth({ talker: 'SH', publicKey, fresh: freshHandshakeSecrets });
  device.helloSent(HELLO);
  return { signer, publicKey, device };
}

describe('a keyed device', () => {
  it('holds events, not control frames, until a handshake gives it keys; then seals everything', async () => {
    const { signer, publicKey, device } = await keyedDevice();
    expect(device.outgoing(card, 'CARD')).toBeUndefined();
    expect(device.outgoing(ack, 'ACK')).toBe(ack);
    const host = new HostAuth({
      talker: 'SH',
      hostKey: processHostKey(),
      fresh: freshHandshakeSecrets,
      paired: publicKey,
    });
    const challenge = host.incoming(
      parseFrameLine(encodeFrame(messageFrame('SH', 0, HELLO))),
      0,
    )[1]!;
    if (challenge.kind !== 'write') throw new Error('no CHALLENGE');
    const first = device.incoming(parseFrameLine(challenge.line));
    const sign = first[0]!;
    if (sign.kind !== 'sign') throw new Error('no sign');
    // The CHALLENGE again while the signature is on its way: no second signature.
    expect(device.incoming(parseFrameLine(challenge.line))).toEqual([]);
    const done = device.signed(sign.id, signer.signNow(sign.digest));
    expect(done.map((action) => action.kind)).toEqual(['write']);
    const proofLine = (done[0] as { line: string }).line;
    // The PROOF lost: the same CHALLENGE again gets the same PROOF.
    expect(device.incoming(parseFrameLine(challenge.line))).toEqual([
      { kind: 'write', line: proofLine },
    ]);
    const proven = host.incoming(parseFrameLine(proofLine), 1);
    expect(proven.at(-1)).toMatchObject({ kind: 'authenticated' });
    const confirm = proven[0]!;
    if (confirm.kind !== 'write') throw new Error('no CONFIRM');
    // The keys go into use at the CONFIRM; the events wait for the HELLO's (sealed) ACK.
    expect(device.incoming(parseFrameLine(confirm.line))).toEqual([]);
    expect(device.outgoing(card, 'CARD')).toMatch(/,~/);
    expect(device.helloAcked(2)).toEqual([{ kind: 'release', authenticated: true }]);

    const sealed = device.outgoing(card, 'CARD')!;
    expect(sealed).toMatch(/^\$SH,1,CARD,AS,red,down,~[A-Za-z0-9_-]{22}\*[0-9A-F]{4}\r\n$/);
    expect(host.incoming(parseFrameLine(sealed), 2)[0]!.kind).toBe('pass');
    // A host frame without a MAC, or sealed with another key, is refused by the device.
    const plainGate = messageFrame('HO', 5, { type: 'GATE', action: 'unlock' });
    expect(device.incoming({ kind: 'frame', frame: plainGate })[0]).toMatchObject({
      kind: 'refused',
    });
    const forged = sealFrame(plainGate, new Uint8Array(32).fill(7));
    expect(device.incoming({ kind: 'frame', frame: forged })[0]).toMatchObject({ kind: 'refused' });
    // But a bare NAK `hello` passes: a host that restarted has no session to MAC it with.
    const nakHello = messageFrame('HO', 6, { type: 'NAK', nakedSeq: 1, reason: 'hello' });
    expect(device.incoming({ kind: 'frame', frame: nakHello })[0]).toMatchObject({ kind: 'pass' });
    const nakOther = messageFrame('HO', 7, { type: 'NAK', nakedSeq: 1, reason: 'bad_crc' });
    expect(device.incoming({ kind: 'frame', frame: nakOther })[0]).toMatchObject({
      kind: 'refused',
    });
    const real = parseFrameLine(host.outgoing(encodeFrame(plainGate), 'GATE'));
    expect(device.incoming(real)[0]).toMatchObject({
      kind: 'pass',
      event: { kind: 'frame', frame: { type: 'GATE', fields: ['unlock'] } },
    });
  });

  it('talks unauthenticated to a host whose HELLO says 1.2', async () => {
    const { device } = await keyedDevice();
    expect(device.incoming(hostHello('1.2')).map((a) => a.kind)).toEqual(['pass', 'release']);
    expect(device.outgoing(card, 'CARD')).toBe(card);
  });

  it('talks unauthenticated when no CHALLENGE comes within 3 s of its HELLO being ACKed', async () => {
    const { device } = await keyedDevice();
    expect(device.nextDeadline()).toBeUndefined();
    device.helloAcked(100);
    expect(device.nextDeadline()).toBe(3100);
    expect(device.tick(3000)).toEqual([]);
    expect(device.tick(3100)).toEqual([{ kind: 'release', authenticated: false }]);
    expect(device.outgoing(card, 'CARD')).toBe(card);
    // A new HELLO (a reconnect) starts over: events are held again.
    device.helloSent(HELLO);
    expect(device.outgoing(card, 'CARD')).toBeUndefined();
  });

  it('a device without a key answers PROOF,none and never holds anything', () => {
    const device = new DeviceAuth({ talker: 'RD', fresh: freshHandshakeSecrets });
    device.helloSent({ ...HELLO, model: 'TS-READER' });
    expect(device.outgoing(card, 'CARD')).toBe(card);
    const host = new HostAuth({
      talker: 'RD',
      hostKey: processHostKey(),
      fresh: freshHandshakeSecrets,
    });
    const challenge = host.incoming(
      parseFrameLine(encodeFrame(messageFrame('RD', 0, { ...HELLO, model: 'TS-READER' }))),
      0,
    )[1]!;
    if (challenge.kind !== 'write') throw new Error('no CHALLENGE');
    const answer = device.incoming(parseFrameLine(challenge.line));
    expect(answer).toHaveLength(1);
    expect(answer[0]!.kind).toBe('write');
    expect((answer[0] as { line: string }).line).toMatch(/^\$RD,0,PROOF,none\*[0-9A-F]{4}\r\n$/);
    expect(host.incoming(parseFrameLine((answer[0] as { line: string }).line), 1)).toMatchObject([
      { kind: 'pass' },
      { kind: 'unauthenticated', detail: 'the device has no key (PROOF,none)' },
    ]);
  });
});

describe('a keyed device whose signer fails', () => {
  it('signs again on the next CHALLENGE', async () => {
    const { publicKey, device } = await keyedDevice();
    const host = new HostAuth({
      talker: 'SH',
      hostKey: processHostKey(),
      fresh: freshHandshakeSecrets,
      paired: publicKey,
    });
    const challenge = host.incoming(
      parseFrameLine(encodeFrame(messageFrame('SH', 0, HELLO))),
      0,
    )[1]!;
    if (challenge.kind !== 'write') throw new Error('no CHALLENGE');
    device.helloAcked(1);
    const first = device.incoming(parseFrameLine(challenge.line))[0]!;
    if (first.kind !== 'sign') throw new Error('no sign');
    device.signFailed(first.id);
    const again = device.incoming(parseFrameLine(challenge.line))[0]!;
    expect(again.kind).toBe('sign');
  });
});
