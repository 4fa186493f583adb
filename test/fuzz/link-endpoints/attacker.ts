/**
 * An attacker on a paired line (issue 33 item 4): it sits between the shoe
 * and the host and sees every line either way before the line carries it.
 * It can read, drop, hold back and delay lines, inject its own, replay the
 * handshake's lines re-framed with other seqs (HELLO, PROOF and CHALLENGE
 * carry no MAC), and run a handshake of its own with the shoe. Its moves,
 * each armed at a seeded time while the shoe deals:
 *
 * - `hello-next-seq` (N1): the shoe's HELLO re-framed with the seq of the
 *   shoe's next frame, injected to the host;
 * - `hold-ack-replay-hello` (N2): the host's next ACK is held back for good,
 *   then the shoe's HELLO replayed to the host;
 * - `own-handshake` (N3): the shoe's next card is withheld from the host;
 *   the attacker sends the shoe a CHALLENGE of its own, takes the PROOF the
 *   shoe answers (never passed on), derives that session's keys (it chose
 *   the X25519 key), sends a CONFIRM signed with a host key of its own,
 *   ACKs the card itself with a valid MAC, then replays the shoe's HELLO to
 *   the host;
 * - `replay-hello`, `replay-proof`, `replay-challenge`: the last such line
 *   seen, re-framed with another seq, to the host (HELLO, PROOF) or the shoe
 *   (CHALLENGE);
 * - `drop`: the next one to three lines one way are lost;
 * - `hold`: the lines one way are held back 50-1,500 ms, then pass in order.
 */
import { sealLine } from '../../../device-protocol/auth/frame-mac.ts';
import {
  type Challenge,
  challengeFrame,
  confirmDigest,
  confirmFrame,
  decodeProof,
  deriveSessionKeys,
  type EphemeralKey,
  statementDigest,
  x25519Secret,
} from '../../../device-protocol/auth/handshake.ts';
import { encodeFrame, type Frame, parseFrameLine } from '../../../device-protocol/frame.ts';
import { type HelloMessage, messageFrame } from '../../../device-protocol/messages.ts';
import { freshHandshakeSecrets, generatedSigner } from '../../../hardware/keys/device-key.ts';

import type { Random } from '../../../simulators/random.ts';
import type { End } from './line.ts';

/** The attacker's own host key: it signs CONFIRMs with it, as no one but the table holds the table's. */
const ATTACKER_HOST_KEY = generatedSigner('ed25519');

export const ATTACK_MOVES = [
  'hello-next-seq',
  'hold-ack-replay-hello',
  'own-handshake',
  'replay-hello',
  'replay-proof',
  'replay-challenge',
  'drop',
  'hold',
] as const;
export type AttackMove = (typeof ATTACK_MOVES)[number];

/** Where a line goes on: the simulated line's `write`. */
export type Forward = (to: End, line: string, now: number) => void;

interface OwnHandshake {
  readonly ephemeral: EphemeralKey;
  readonly challenge: Challenge;
  readonly withheldSeq: number;
}

export class Attacker {
  /** Moves tried, in order, with what came of each (a trace and the report read them). */
  readonly tried: string[] = [];
  readonly #random: Random;
  readonly #forward: Forward;
  readonly #hello: HelloMessage;
  readonly #log: ((text: string) => void) | undefined;
  #shoeHello: string | undefined;
  #shoeProof: string | undefined;
  #hostChallenge: string | undefined;
  /** The highest seq the shoe put on a frame of its own. */
  #shoeSeq = -1;
  #holdNextAck = false;
  #withholdNextCard = false;
  #own: OwnHandshake | undefined;
  #drop: { to: End; lines: number } | undefined;
  #held: { to: End; until: number; lines: string[] } | undefined;

  constructor(random: Random, forward: Forward, hello: HelloMessage, log?: (text: string) => void) {
    this.#random = random;
    this.#forward = forward;
    this.#hello = hello;
    this.#log = log;
  }

  /** A line written towards `to`: read, and passed on, changed, held or kept back. */
  passing(to: End, line: string, now: number): void {
    const event = parseFrameLine(line);
    const frame = event.kind === 'frame' ? event.frame : undefined;
    if (frame !== undefined && to === 'host') {
      if (frame.type === 'HELLO') this.#shoeHello = line;
      if (frame.type === 'PROOF') this.#shoeProof = line;
      if (frame.type !== 'ACK' && frame.type !== 'NAK' && frame.type !== 'PROOF') {
        this.#shoeSeq = Math.max(this.#shoeSeq, frame.seq);
      }
      if (frame.type === 'PROOF' && this.#own !== undefined) {
        this.#ownProof(line, now);
        return;
      }
      if (frame.type === 'CARD' && this.#withholdNextCard) {
        this.#withholdNextCard = false;
        this.#startOwnHandshake(frame.seq, now);
        return;
      }
    }
    if (frame !== undefined && to === 'device') {
      if (frame.type === 'CHALLENGE') this.#hostChallenge = line;
      if (frame.type === 'ACK' && this.#holdNextAck) {
        this.#holdNextAck = false;
        this.#log?.(`${now} attacker holds back ${frame.type} ${frame.seq} for good`);
        this.#inject('host', this.#replayedHello(false), now, 'the shoe’s HELLO replayed');
        return;
      }
    }
    const drop = this.#drop;
    if (drop !== undefined && drop.to === to) {
      if (--drop.lines <= 0) this.#drop = undefined;
      this.#log?.(`${now} attacker drops a line to the ${to}`);
      return;
    }
    const held = this.#held;
    if (held !== undefined && held.to === to) {
      held.lines.push(line);
      return;
    }
    this.#forward(to, line, now);
  }

  /** The shoe's latest HELLO as it went on the wire (its seq is signed since 1.7), or one framed from its claims. */
  #shoeHelloFrame(): Frame {
    const seen = this.#shoeHello === undefined ? undefined : parseFrameLine(this.#shoeHello);
    return seen?.kind === 'frame' ? seen.frame : messageFrame('SH', 0, this.#hello);
  }

  /** Arms a move at `now`. */
  arm(move: AttackMove, now: number): void {
    this.tried.push(move);
    this.#log?.(`${now} attacker arms ${move}`);
    const random = this.#random;
    switch (move) {
      case 'hello-next-seq':
        this.#inject('host', this.#replayedHello(true), now, 'HELLO at the shoe’s next seq');
        return;
      case 'hold-ack-replay-hello':
        this.#holdNextAck = true;
        return;
      case 'own-handshake':
        this.#withholdNextCard = true;
        return;
      case 'replay-hello':
        this.#inject('host', this.#reframed(this.#shoeHello, this.#otherSeq()), now, 'HELLO');
        return;
      case 'replay-proof':
        this.#inject('host', this.#reframed(this.#shoeProof, this.#otherSeq()), now, 'PROOF');
        return;
      case 'replay-challenge':
        this.#inject(
          'device',
          this.#reframed(this.#hostChallenge, random.int(200)),
          now,
          'CHALLENGE',
        );
        return;
      case 'drop':
        this.#drop = { to: random.chance(0.5) ? 'host' : 'device', lines: 1 + random.int(3) };
        return;
      case 'hold':
        this.#releaseHeld(now);
        this.#held = {
          to: random.chance(0.5) ? 'host' : 'device',
          until: now + 50 + random.int(1_450),
          lines: [],
        };
        return;
    }
  }

  nextAt(): number | undefined {
    return this.#held?.until;
  }

  tick(now: number): void {
    if (this.#held !== undefined && this.#held.until <= now) this.#releaseHeld(now);
  }

  /** Stops attacking (the line turns clean): what it holds passes, nothing more is armed. */
  stop(now: number): void {
    this.#releaseHeld(now);
    this.#drop = undefined;
    this.#holdNextAck = false;
    this.#withholdNextCard = false;
  }

  #releaseHeld(now: number): void {
    const held = this.#held;
    if (held === undefined) return;
    this.#held = undefined;
    for (const line of held.lines) this.#forward(held.to, line, now);
  }

  #otherSeq(): number {
    return Math.max(0, this.#shoeSeq + 1 - this.#random.int(4));
  }

  #replayedHello(nextSeq: boolean): string | undefined {
    return nextSeq || this.#random.chance(0.5)
      ? this.#reframed(this.#shoeHello, this.#shoeSeq + 1)
      : this.#shoeHello;
  }

  #reframed(line: string | undefined, seq: number): string | undefined {
    if (line === undefined) return undefined;
    const event = parseFrameLine(line);
    if (event.kind !== 'frame') return undefined;
    return encodeFrame({ ...event.frame, seq });
  }

  #inject(to: End, line: string | undefined, now: number, what: string): void {
    if (line === undefined) {
      this.#log?.(`${now} attacker has no ${what} to inject yet`);
      return;
    }
    this.#log?.(`${now} attacker injects ${what} to the ${to}`);
    this.#forward(to, line, now);
  }

  #startOwnHandshake(withheldSeq: number, now: number): void {
    const secrets = freshHandshakeSecrets();
    const challenge: Challenge = { nonce: secrets.nonce, ephemeral: secrets.ephemeral.publicKey };
    this.#own = { ephemeral: secrets.ephemeral, challenge, withheldSeq };
    this.#log?.(`${now} attacker withholds CARD ${withheldSeq} and challenges the shoe itself`);
    this.#forward('device', encodeFrame(challengeFrame(challenge)), now);
  }

  /** The shoe's PROOF to our own CHALLENGE: its session keys are ours; ACK the withheld card. */
  #ownProof(line: string, now: number): void {
    const own = this.#own!;
    const event = parseFrameLine(line);
    const decoded = event.kind === 'frame' ? decodeProof(event.frame) : undefined;
    if (decoded === undefined || !decoded.ok) {
      this.#forward('host', line, now);
      return;
    }
    this.#own = undefined;
    const proof = decoded.value;
    const digest = statementDigest({
      talker: 'SH',
      hello: this.#shoeHelloFrame(),
      helloAcked: true,
      challenge: own.challenge,
      publicKey: proof.publicKey,
      deviceNonce: proof.nonce,
      deviceEphemeral: proof.ephemeral,
    });
    // Its own session's keys, as a device that takes any host's session would hold them.
    const keys = deriveSessionKeys(x25519Secret(own.ephemeral, proof.ephemeral), digest);
    // Its CONFIRM, signed with its own host key: a device that recorded the table's refuses it.
    const hostKey = ATTACKER_HOST_KEY.publicKeyNow;
    const confirm = confirmFrame({
      hostKey,
      signature: ATTACKER_HOST_KEY.signNow(confirmDigest(digest, hostKey)),
    });
    this.#forward('device', encodeFrame(confirm), now);
    const ack = encodeFrame(messageFrame('HO', 0, { type: 'ACK', ackedSeq: own.withheldSeq }));
    this.#log?.(`${now} attacker ACKs CARD ${own.withheldSeq} with the keys of its own session`);
    this.#forward('device', sealLine(ack, keys.hostToDevice), now);
    this.#inject('host', this.#replayedHello(false), now, 'the shoe’s HELLO replayed');
  }
}
