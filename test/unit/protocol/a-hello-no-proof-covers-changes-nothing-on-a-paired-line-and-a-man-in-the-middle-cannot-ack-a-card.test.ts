/**
 * Issue 33 (items 1-3): on a paired line a HELLO is only a claim until a
 * PROOF covers it (PROTOCOL.md § 5.2, 1.7), and the device takes session
 * keys only from a host that proves the pairing (its CONFIRM). Each case is a
 * red-team attack on the pure parts as the driver and the device core compose
 * them (auth-pair.ts, virtual time): N1, one injected HELLO re-framed with
 * the seq of the shoe's next card; N2, a held ACK and a replayed HELLO; N3, a
 * man in the middle that runs its own handshake with the shoe and ACKs a card
 * itself; a replayed PROOF; a replayed CHALLENGE. In every case each card is
 * delivered once and journaled once, in order.
 */
import { describe, expect, it } from 'vitest';
import { sealFrame } from '../../../device-protocol/auth/frame-mac.ts';
import {
  challengeFrame,
  decodeProof,
  deriveSessionKeys,
  statementDigest,
  x25519Secret,
} from '../../../device-protocol/auth/handshake.ts';
import { encodeFrame, parseFrameLine } from '../../../device-protocol/frame.ts';
import { messageFrame } from '../../../device-protocol/messages.ts';
import { freshHandshakeSecrets } from '../../../hardware/keys/device-key.ts';
import { AuthPair, SHOE_HELLO } from '../../property/protocol/auth-pair.ts';

/** A paired shoe on a clean line that has dealt `cards` cards, every one journaled. */
async function dealingPair(cards: number): Promise<AuthPair> {
  const pair = await AuthPair.create();
  pair.open();
  pair.runUntil(pair.now + 100);
  for (let dealt = 0; dealt < cards; dealt++) {
    pair.deal();
    pair.runUntil(pair.now + 50);
  }
  pair.runUntil(pair.now + 1_000);
  expect(pair.stored).toEqual(pair.expected);
  expect(pair.hostAuth.state).toBe('authenticated');
  return pair;
}

function dealMore(pair: AuthPair, cards: number): void {
  for (let dealt = 0; dealt < cards; dealt++) {
    pair.deal();
    pair.runUntil(pair.now + 50);
  }
}

/** Every card once, in order, at the link as in the journal. */
function expectEachCardOnce(pair: AuthPair): void {
  expect(pair.delivered).toEqual(pair.expected);
  expect(pair.stored).toEqual(pair.expected);
  expect(pair.shoeSettled).toBe(true);
}

const shoeHelloLine = (pair: AuthPair): string =>
  pair.written.filter((w) => w.from === 'shoe' && w.type === 'HELLO').at(-1)!.line;

describe('N1: a HELLO re-framed with the seq of the shoe next card', () => {
  it.each([0, 1, 3, 7])('after %i cards removes no card and quarantines nothing', async (cards) => {
    const pair = await dealingPair(cards);
    const injected = encodeFrame(messageFrame('SH', pair.shoeNextSeq, SHOE_HELLO));
    pair.rogueWrites(injected);
    pair.runUntil(pair.now + 20);
    dealMore(pair, 4);
    pair.runUntil(pair.now + 10_000);

    expectEachCardOnce(pair);
    expect(pair.hostAuth.state).toBe('authenticated');
    expect(pair.alarms.filter((alarm) => alarm.startsWith('device_quarantined'))).toEqual([]);
    // Refused and reported: the HELLO no PROOF covered.
    expect(pair.hostAuth.refused.unproven_hello).toBe(1);
    expect(pair.alarms.some((alarm) => alarm.includes('unproven hello'))).toBe(true);
  });
});

describe('N2: a man in the middle holds back one ACK and replays the shoe HELLO', () => {
  it('has that card journaled and delivered once', async () => {
    const pair = await dealingPair(3);
    const hello = shoeHelloLine(pair);
    const held = pair.shoeNextSeq;
    let heldBack = false;
    pair.fault = ({ to, line }) => {
      if (to === 'shoe' && !heldBack && new RegExp(`^\\$HO,\\d+,ACK,${held},`).test(line)) {
        heldBack = true;
        return undefined;
      }
      return line;
    };
    pair.deal();
    pair.runUntil(() => (heldBack ? pair.now : pair.now + 10));
    pair.rogueWrites(hello);
    pair.runUntil(pair.now + 10_000);
    dealMore(pair, 2);
    pair.runUntil(pair.now + 5_000);

    expect(heldBack).toBe(true);
    expectEachCardOnce(pair);
    expect(pair.hostAuth.refused.unproven_hello ?? 0).toBe(0);
  });
});

describe('N3: a man in the middle runs its own handshake with the shoe', () => {
  it('cannot ACK the card it withholds: the shoe keeps it, lights its fault, and deals it once a host confirms', async () => {
    const pair = await dealingPair(3);
    const hello = parseFrameLine(shoeHelloLine(pair));
    if (hello.kind !== 'frame') throw new Error('no HELLO');
    const withheld = pair.shoeNextSeq;
    // The attacker sits on the line: it withholds everything the shoe writes to the host.
    const captured: string[] = [];
    pair.fault = ({ to, line }) => {
      if (to === 'host') {
        captured.push(line);
        return undefined;
      }
      return line;
    };
    pair.deal();
    pair.runUntil(pair.now + 20);
    expect(captured.some((line) => line.startsWith(`$SH,${withheld},CARD,`))).toBe(true);

    // Its own CHALLENGE, with an X25519 key it chose.
    const secrets = freshHandshakeSecrets();
    const challenge = { nonce: secrets.nonce, ephemeral: secrets.ephemeral.publicKey };
    pair.rogueWritesToShoe(encodeFrame(challengeFrame(challenge)));
    pair.runUntil(pair.now + 20);
    const proofLine = captured.find((line) => line.includes(',PROOF,'));
    expect(proofLine).toBeDefined();
    const proofEvent = parseFrameLine(proofLine!);
    if (proofEvent.kind !== 'frame') throw new Error('no PROOF');
    const proof = decodeProof(proofEvent.frame);
    if (!proof.ok) throw new Error(proof.error);
    // It derives that session's keys, as the shoe did, and ACKs the card itself, with a valid MAC.
    const digest = statementDigest({
      talker: 'SH',
      hello: hello.frame,
      helloAcked: true,
      challenge,
      publicKey: proof.value.publicKey,
      deviceNonce: proof.value.nonce,
      deviceEphemeral: proof.value.ephemeral,
    });
    const keys = deriveSessionKeys(x25519Secret(secrets.ephemeral, proof.value.ephemeral), digest);
    pair.rogueWritesToShoe(
      encodeFrame(
        sealFrame(messageFrame('HO', 900, { type: 'ACK', ackedSeq: withheld }), keys.hostToDevice),
      ),
    );
    pair.runUntil(pair.now + 4_000);
    // The shoe refused the ACK (no host confirmed that session) and says it lost its host.
    expect(pair.shoeReports.some((report) => report.startsWith('refused: ACK'))).toBe(true);
    expect(pair.shoeReports.some((report) => report.startsWith('host_lost'))).toBe(true);
    expect(pair.shoeSettled).toBe(false);

    // The attacker replays the HELLO to the host and goes: the card is not gone.
    pair.fault = ({ line }) => line;
    const helloLine = shoeHelloLine(pair);
    pair.rogueWrites(helloLine);
    pair.runUntil(pair.now + 10_000);
    expectEachCardOnce(pair);
    expect(pair.hostAuth.state).toBe('authenticated');
  });
});

describe('a replay', () => {
  it('of an old PROOF changes nothing on the host', async () => {
    const pair = await dealingPair(2);
    const oldProof = pair.written.find((w) => w.from === 'shoe' && w.type === 'PROOF')!.line;
    const handshakes = pair.hostAuth.handshakes;
    pair.rogueWrites(oldProof);
    pair.runUntil(pair.now + 20);
    dealMore(pair, 2);
    pair.runUntil(pair.now + 5_000);
    expect(pair.hostAuth.handshakes).toBe(handshakes);
    expect(pair.hostAuth.state).toBe('authenticated');
    expectEachCardOnce(pair);
  });

  it('of an old CHALLENGE to the shoe loses and doubles no card', async () => {
    const pair = await dealingPair(2);
    const oldChallenge = pair.written.find(
      (w) => w.from === 'host' && w.type === 'CHALLENGE',
    )!.line;
    pair.rogueWritesToShoe(oldChallenge);
    pair.runUntil(pair.now + 20);
    dealMore(pair, 3);
    pair.runUntil(pair.now + 15_000);
    expectEachCardOnce(pair);
    expect(pair.hostAuth.state).toBe('authenticated');
  });
});
