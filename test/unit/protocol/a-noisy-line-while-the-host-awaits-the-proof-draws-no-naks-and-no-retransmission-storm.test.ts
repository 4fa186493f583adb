/**
 * PROTOCOL.md § 5.2 over a noisy line: while the host waits for a device's
 * PROOF it drops the device's frames without ACKing them. If it NAKed every
 * line it could not read meanwhile, each NAK without seq would make the
 * device send all it holds again (its oldest event and every PONG the host's
 * PINGs drew, none of them ACKed), each corrupted copy would draw another NAK,
 * and the line would run a retransmission storm until the PROOF came (the
 * corrupting-pty drill saw 3,000 to 150,000 retransmissions for 416 cards,
 * each time after a corrupted PROOF).
 *
 * Pure parts on a scripted wire, with a virtual clock: the device's link
 * session and authentication (a keyless 1.5 shoe), the host's (unpaired),
 * and a line that takes 1 ms each way and corrupts the head of every fifth
 * line the shoe writes, and its first PROOF.
 */
import { describe, expect, it } from 'vitest';
import { DeviceAuth } from '../../../device-protocol/auth/device-side-auth.ts';
import { HostAuth } from '../../../device-protocol/auth/host-auth.ts';
import {
  encodeFrame,
  type LinkAction,
  LinkSession,
  messageFrame,
  parseFrameLine,
} from '../../../device-protocol/index.ts';
import type { HelloMessage, Message } from '../../../device-protocol/messages.ts';
import { freshHandshakeSecrets, processHostKey } from '../../../hardware/keys/device-key.ts';

const SHA = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const SHOE_HELLO: HelloMessage = {
  type: 'HELLO',
  model: 'TS-SHOE-2',
  serial: 'SH0042',
  protocol: '1.7',
  firmware: '2.3.1',
  firmwareSha256: SHA,
};
const HOST_HELLO: HelloMessage = {
  type: 'HELLO',
  model: 'tableside',
  serial: 'table',
  protocol: '1.7',
  firmware: '0.1.0',
  firmwareSha256: SHA,
};
const CARDS = ['AS', 'KD', '7H'] as const;
const HOP_MS = 1;
const PING_EVERY_MS = 20;

/** A line whose head no longer reads as `$SH,SEQ,`: the host can only NAK it without seq. */
function corruptHead(line: string): string {
  return `$XH${line.slice(3)}`;
}

/** A device's settings: retransmit every 300 ms, forever, a window of 32. */
function shoeSession(): LinkSession {
  return new LinkSession({
    localTalker: 'SH',
    peerTalker: 'HO',
    ackTimeoutMs: 300,
    backoffFactor: 1,
    maxAttempts: 0,
    maxInFlight: 32,
  });
}

function drill() {
  let now = 0;
  const wire: Array<{ at: number; to: 'host' | 'shoe'; line: string }> = [];
  const shoeLink = shoeSession();
  const shoeAuth = new DeviceAuth({ talker: 'SH', fresh: freshHandshakeSecrets });
  const hostLink = new LinkSession({
    localTalker: 'HO',
    peerTalker: 'SH',
    ackTimeoutMs: 400,
    maxAttempts: 6,
  });
  const hostAuth = new HostAuth({
    talker: 'SH',
    hostKey: processHostKey(),
    fresh: freshHandshakeSecrets,
  });

  let shoeLines = 0;
  let proofsCorrupted = 0;
  const shoeWrites = (type: string, line: string) => {
    shoeLines++;
    let sent = line;
    // The first PROOF is corrupted, the next one not.
    if (type === 'PROOF') {
      if (proofsCorrupted++ === 0) sent = corruptHead(line);
    } else if (shoeLines % 5 === 0) sent = corruptHead(line);
    wire.push({ at: now + HOP_MS, to: 'host', line: sent });
  };
  const hostWrites = (line: string) => wire.push({ at: now + HOP_MS, to: 'shoe', line });

  const shoeRun = (actions: readonly LinkAction[]) => {
    for (const action of actions) {
      if (action.kind === 'send') {
        const line = shoeAuth.outgoing(action.line, action.type);
        if (line !== undefined) shoeWrites(action.type, line);
      } else if (action.kind === 'acked' && action.type === 'HELLO') {
        shoeAuth.helloAcked(now);
      }
    }
  };
  const shoeSend = (message: Message) => {
    if (message.type === 'HELLO') shoeAuth.helloSent(message);
    shoeRun(shoeLink.send(message, now));
  };

  // What the host did, and while its handshake was on.
  const delivered: string[] = [];
  let naksDuringHandshake = 0;
  const droppedSeqs: number[] = [];
  const hostRun = (actions: readonly LinkAction[]) => {
    for (const action of actions) {
      if (action.kind === 'send') {
        if (action.type === 'NAK' && hostAuth.state === 'challenging') naksDuringHandshake++;
        hostWrites(hostAuth.outgoing(action.line, action.type));
      } else if (action.kind === 'deliver' && action.message.type === 'CARD') {
        delivered.push(action.message.card);
      }
    }
  };
  // Composed as the host endpoint composes them (device-protocol/endpoint/host-endpoint.ts).
  const hostReads = (line: string) => {
    for (const action of hostAuth.incoming(parseFrameLine(line), now)) {
      switch (action.kind) {
        case 'pass':
          hostRun(hostLink.receive(action.event, now));
          break;
        case 'write':
          hostWrites(action.line);
          break;
        case 'unread':
          hostRun(hostLink.discardUnanswered(action.event));
          if (action.seq !== undefined) droppedSeqs.push(action.seq);
          break;
        case 'dropped':
          if (action.seq !== undefined) droppedSeqs.push(action.seq);
          break;
        case 'authenticated':
        case 'unauthenticated':
          for (const seq of new Set(droppedSeqs.splice(0))) hostRun(hostLink.askAgain(seq));
          break;
        default:
          break;
      }
    }
  };
  const shoeReads = (line: string) => {
    for (const action of shoeAuth.incoming(parseFrameLine(line))) {
      if (action.kind === 'pass') shoeRun(shoeLink.receive(action.event, now));
      else if (action.kind === 'write') shoeWrites('PROOF', action.line);
      else if (action.kind === 'release') shoeRun(shoeLink.retransmitNow(now));
    }
  };

  /** Runs the line until `end` (virtual ms), or until the shoe has sent `limit` lines. */
  const runUntil = (end: number, limit = 20_000) => {
    let nextPing = Math.ceil((now + 1) / PING_EVERY_MS) * PING_EVERY_MS;
    while (shoeLines < limit) {
      const due = [
        wire[0]?.at,
        shoeLink.nextDeadline(),
        hostLink.nextDeadline(),
        hostAuth.nextDeadline(),
        nextPing,
      ].filter((at): at is number => at !== undefined);
      const next = Math.max(now, Math.min(...due));
      if (next > end) break;
      now = next;
      if (wire[0] !== undefined && wire[0].at <= now) {
        const { to, line } = wire.shift()!;
        if (to === 'host') hostReads(line);
        else shoeReads(line);
        continue;
      }
      if (nextPing <= now) {
        hostRun(hostLink.send({ type: 'PING', token: `P${now}` }, now));
        nextPing += PING_EVERY_MS;
      }
      shoeRun(shoeLink.tick(now));
      hostRun(hostLink.tick(now));
      for (const action of hostAuth.tick(now)) {
        if (action.kind === 'write') hostWrites(action.line);
      }
    }
    now = Math.max(now, end);
  };

  // The line opens: both HELLOs; the dealer deals three cards at once.
  hostRun(hostLink.send(HOST_HELLO, now));
  shoeSend(SHOE_HELLO);
  for (const card of CARDS) shoeSend({ type: 'CARD', card, back: 'red', face: 'down' });

  return {
    runUntil,
    get hostAuthState() {
      return hostAuth.state;
    },
    get retransmitted() {
      return shoeLink.stats.retransmitted;
    },
    get naksDuringHandshake() {
      return naksDuringHandshake;
    },
    get crcErrors() {
      return hostLink.stats.discarded.bad_crc;
    },
    delivered,
  };
}

describe('a noisy line while the host awaits the PROOF', () => {
  it('draws no NAK from the host, so the shoe resends on its timer only, not in a storm', () => {
    const line = drill();
    // The first PROOF was corrupted: the shoe's HELLO, unACKed until a PROOF covers it,
    // goes again at 300 ms and draws the same CHALLENGE again.
    line.runUntil(295);
    expect(line.hostAuthState).toBe('challenging');
    // One timer round (300 ms) of the card and the PONGs so far; the storm was thousands.
    expect(line.retransmitted).toBeLessThan(30);
    // The corrupted lines were counted, not NAKed.
    expect(line.crcErrors).toBeGreaterThan(0);
    expect(line.naksDuringHandshake).toBe(0);
  });

  it('then takes the card and the PONGs it dropped, each sent again about once', () => {
    const line = drill();
    line.runUntil(295);
    const beforeProof = line.retransmitted;
    // The PROOF comes after 300 ms; the host asks for what it dropped, the shoe sends it.
    line.runUntil(600);
    expect(line.hostAuthState).toBe('plain');
    expect(line.delivered).toEqual([...CARDS]);
    expect(line.naksDuringHandshake).toBe(0);
    // The card and about 25 PONGs were owed: each asked for once, and every corrupted
    // copy's NAK without seq sends what is still owed once more. When NAKs read
    // together each sent all of it again, this took 110.
    expect(line.retransmitted - beforeProof).toBeLessThan(70);
  });
});

describe('NAKs the shoe reads together', () => {
  it('send each unacknowledged frame again once, not once per NAK', () => {
    const shoe = shoeSession();
    const sent = (actions: readonly LinkAction[]) =>
      actions.filter((action) => action.kind === 'send').map((action) => action.seq);
    const read = (line: string, now: number) => shoe.receive(parseFrameLine(line), now);
    shoe.send(SHOE_HELLO, 0);
    read(encodeFrame(messageFrame('HO', 0, { type: 'ACK', ackedSeq: 0 })), 1);
    // Three PINGs answered: three PONGs the host has not ACKed.
    for (const seq of [1, 2, 3]) read(encodeFrame(messageFrame('HO', seq, { type: 'PING' })), 2);
    expect(shoe.pending.inFlight).toBe(3);
    // Three of the host's NAKs without seq arrive in one read (three corrupted copies).
    const nak = (seq: number) =>
      encodeFrame(messageFrame('HO', seq, { type: 'NAK', reason: 'bad_crc' }));
    const resent = [4, 5, 6].flatMap((seq) => sent(read(nak(seq), 10)));
    expect(resent).toEqual([1, 2, 3]);
    // A NAK read later may name the new copies: they go again.
    expect(sent(read(nak(7), 12))).toEqual([1, 2, 3]);
    // So does a NAK naming one, read with a NAK without seq that already sent it: once.
    expect([
      ...sent(read(nak(8), 14)),
      ...sent(
        read(
          encodeFrame(messageFrame('HO', 9, { type: 'NAK', nakedSeq: 2, reason: 'bad_crc' })),
          14,
        ),
      ),
    ]).toEqual([1, 2, 3]);
  });
});
