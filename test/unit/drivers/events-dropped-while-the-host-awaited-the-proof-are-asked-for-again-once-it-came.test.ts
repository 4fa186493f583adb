/**
 * PROTOCOL.md § 5.2: while the host waits for a device's PROOF it drops the
 * device's events. A device without a key sends them right after its HELLO
 * is ACKed, before its `PROOF,none` crosses the CHALLENGE; the host then
 * NAKs each one it dropped (`before_proof`) as soon as the handshake is over,
 * so the device sends it again at once instead of after its ACK timeout.
 */
import { describe, expect, it } from 'vitest';
import { DeviceAuth } from '../../../device-protocol/auth/device-auth.ts';
import { type FrameEvent, messageFrame, parseFrameLine } from '../../../device-protocol/index.ts';
import type { CardMessage } from '../../../device-protocol/messages.ts';
import { DriverAuth } from '../../../firmware-host/drivers/device-auth.ts';
import { freshHandshakeSecrets } from '../../../hardware/keys/device-key.ts';
import { shoeHello } from '../../helpers/device-hello.ts';

const HELLO = shoeHello('1.4');
const frame = (seq: number, message: Parameters<typeof messageFrame>[2]): FrameEvent => ({
  kind: 'frame',
  frame: messageFrame('SH', seq, message),
});

function driverAuth() {
  const written: string[] = [];
  const passed: FrameEvent[] = [];
  const unread: FrameEvent[] = [];
  const askedAgain: number[][] = [];
  const auth = new DriverAuth({
    name: 'shoe',
    talker: 'SH',
    now: () => 0,
    clock: () => 0,
    write: (line) => written.push(line),
    pass: (event) => passed.push(event),
    unread: (event) => unread.push(event),
    alarm: () => undefined,
    quarantine: () => undefined,
    authenticated: () => undefined,
    askAgain: (seqs) => askedAgain.push([...seqs]),
    schedule: () => undefined,
  });
  return { auth, written, passed, unread, askedAgain };
}

function proofNoneFor(challengeLine: string): FrameEvent {
  const device = new DeviceAuth({ talker: 'SH', fresh: freshHandshakeSecrets });
  device.helloSent(HELLO);
  const proof = device.incoming(parseFrameLine(challengeLine)).find((a) => a.kind === 'write');
  if (proof?.kind !== 'write') throw new Error('the keyless device wrote no PROOF');
  expect(proof.line).toContain('PROOF,none');
  return parseFrameLine(proof.line);
}

describe('events dropped while the host awaited the PROOF', () => {
  it('are asked for again, each once, as soon as the PROOF came', () => {
    const { auth, written, passed, askedAgain } = driverAuth();
    auth.incoming(frame(7, HELLO), 0);
    expect(auth.status().state).toBe('handshake');
    const challenge = written.find((line) => line.includes('CHALLENGE'));
    expect(challenge).toBeDefined();
    // Two cards before the PROOF, one of them twice: dropped, not passed.
    const card = (code: CardMessage['card']): CardMessage => ({
      type: 'CARD',
      card: code,
      back: 'red',
      face: 'down',
    });
    auth.incoming(frame(8, card('AS')), 1);
    auth.incoming(frame(9, card('KD')), 1);
    auth.incoming(frame(8, card('AS')), 2);
    expect(passed.map((event) => event.kind === 'frame' && event.frame.type)).toEqual(['HELLO']);
    expect(askedAgain).toEqual([]);
    auth.incoming(proofNoneFor(challenge!), 3);
    expect(auth.status().state).toBe('unauthenticated');
    expect(askedAgain).toEqual([[8, 9]]);
    expect(auth.status().dropped).toBe(3);
  });

  it('are not NAKed when they arrive corrupted, but counted and asked for once the PROOF came', () => {
    const { auth, written, passed, unread, askedAgain } = driverAuth();
    auth.incoming(frame(7, HELLO), 0);
    const challenge = written.find((line) => line.includes('CHALLENGE'));
    // A card whose CRC no longer matches (its head still reads SH,8), and a line
    // whose head is gone: the link session would NAK both, and the copies it asked
    // for would be dropped too (a NAK without seq sends everything again).
    const corrupted = parseFrameLine('$SH,8,CARD,AS,red,dawn*0000');
    const headless = parseFrameLine('$XH,9,PONG*0000');
    expect([corrupted.kind, headless.kind]).toEqual(['discard', 'discard']);
    auth.incoming(corrupted, 1);
    auth.incoming(headless, 1);
    expect(passed.map((event) => event.kind)).toEqual(['frame']);
    expect(unread).toEqual([corrupted, headless]);
    auth.incoming(proofNoneFor(challenge!), 3);
    expect(askedAgain).toEqual([[8]]);
    // Once the handshake is over, a corrupted line goes to the link session, to be NAKed.
    auth.incoming(corrupted, 4);
    expect(passed.at(-1)).toBe(corrupted);
  });

  it('are not asked for after a new HELLO: the device sends everything again by itself', () => {
    const { auth, written, askedAgain } = driverAuth();
    auth.incoming(frame(7, HELLO), 0);
    auth.incoming(
      frame(8, { type: 'CARD', card: 'AS', back: 'red', face: 'down' } as CardMessage),
      1,
    );
    written.length = 0;
    auth.incoming(frame(9, HELLO), 2);
    const challenge = written.find((line) => line.includes('CHALLENGE'));
    auth.incoming(proofNoneFor(challenge!), 3);
    expect(askedAgain).toEqual([]);
  });
});
