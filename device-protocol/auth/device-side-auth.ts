/**
 * The device's side of authentication on one line (protocol 1.4,
 * PROTOCOL.md § 5), pure: framer events go through `incoming()` before the
 * link session, every line the link session writes through `outgoing()`.
 *
 * - On a CHALLENGE the device asks its signer (`sign` action: a key file or
 *   a secure element, asynchronous) to sign the statement's digest, then
 *   `signed()` gives the PROOF line to write and the session keys. The same
 *   CHALLENGE again (the PROOF was lost) gets the same PROOF, unsigned again.
 *   A device without a key answers `PROOF,none`.
 * - A keyed device answers a CHALLENGE only once the host has ACKed its
 *   current HELLO: one that comes before belongs to an earlier HELLO. So it
 *   never holds session keys while its HELLO is unACKed, and the host's ACK
 *   of a HELLO, never sealed (a HELLO starts a session), always reaches it.
 * - A keyed device holds its events (and their ACKs' companions) back from
 *   the moment its HELLO goes out until it has session keys, unless the
 *   host's HELLO said it predates 1.4, or no CHALLENGE came within
 *   `challengeWaitMs` of the host ACKing our HELLO (an older host that sent
 *   no HELLO): then it talks unauthenticated, as a 1.2 device would.
 * - With session keys, every frame it writes but HELLO carries a MAC, and
 *   every frame from the host must: others are refused.
 */
import { type DeviceTalker, encodeFrame, type FrameEvent, parseFrameLine } from '../frame.ts';
import { decodeMessage, type HelloMessage, protocolAtLeast } from '../messages.ts';
import { openFrame, sealLine } from './frame-mac.ts';
import {
  AUTH_SINCE,
  CHALLENGE_TYPE,
  decodeChallenge,
  deriveSessionKeys,
  PROOF_TYPE,
  proofFrame,
  type SessionKeys,
  statementDigest,
  x25519Secret,
} from './handshake.ts';
import type { HandshakeSecrets } from './host-auth.ts';
import { type DevicePublicKey, toBase64Url } from './keys.ts';

export interface DeviceAuthOptions {
  readonly talker: DeviceTalker;
  /** The device's public key; absent: a device without a key (answers `PROOF,none`). */
  readonly publicKey?: DevicePublicKey;
  readonly fresh: () => HandshakeSecrets;
  readonly challengeWaitMs?: number;
}

export type DeviceAuthAction =
  | { readonly kind: 'pass'; readonly event: FrameEvent }
  | { readonly kind: 'write'; readonly line: string }
  /** Sign `digest` with the device key, then call `signed(id, signature)`. */
  | { readonly kind: 'sign'; readonly id: number; readonly digest: Uint8Array }
  /** Events may flow now (session keys, or unauthenticated): send what was held back. */
  | { readonly kind: 'release'; readonly authenticated: boolean }
  | { readonly kind: 'refused'; readonly detail: string };

interface Signing {
  readonly id: number;
  readonly nonceText: string;
  readonly secret: Uint8Array;
  readonly digest: Uint8Array;
  readonly proof: { nonce: Uint8Array; ephemeral: Uint8Array };
  line?: string;
}

const ALWAYS_PLAIN = new Set(['HELLO', CHALLENGE_TYPE, PROOF_TYPE]);
const CONTROL = new Set(['HELLO', 'PING', 'PONG', 'ACK', 'NAK']);

export class DeviceAuth {
  readonly #options: DeviceAuthOptions;
  #hello: HelloMessage | undefined;
  /** The line of our latest HELLO: the same line again (a retransmission) is the same session. */
  #helloLine: string | undefined;
  #signing: Signing | undefined;
  #keys: SessionKeys | undefined;
  #plain = false;
  #helloAckedAt: number | undefined;
  #ids = 0;

  constructor(options: DeviceAuthOptions) {
    this.#options = options;
  }

  get authenticated(): boolean {
    return this.#keys !== undefined;
  }

  /** Whether events may go out now. */
  get open(): boolean {
    return this.#keys !== undefined || this.#plain || this.#options.publicKey === undefined;
  }

  /** Our HELLO went out (a new connection, or a restart): a new session begins. */
  helloSent(hello: HelloMessage): void {
    this.#hello = hello;
    this.#keys = undefined;
    this.#signing = undefined;
    this.#plain = false;
    this.#helloAckedAt = undefined;
  }

  /** The host ACKed our HELLO: start waiting for its CHALLENGE. */
  helloAcked(now: number): void {
    this.#helloAckedAt ??= now;
  }

  nextDeadline(): number | undefined {
    if (this.open || this.#helloAckedAt === undefined || this.#signing !== undefined)
      return undefined;
    return this.#helloAckedAt + (this.#options.challengeWaitMs ?? 3000);
  }

  tick(now: number): DeviceAuthAction[] {
    const deadline = this.nextDeadline();
    if (deadline === undefined || now < deadline) return [];
    // No CHALLENGE from a host that ACKed our HELLO: an older host.
    this.#plain = true;
    return [{ kind: 'release', authenticated: false }];
  }

  /**
   * The line to write for a line the link session sends; undefined: hold it
   * back for now. A HELLO line other than our latest (a reconnect, a
   * restart, a NAK `hello`) starts a new session.
   */
  outgoing(line: string, type: string): string | undefined {
    if (type === 'HELLO' && line !== this.#helloLine) this.#newHello(line);
    if (ALWAYS_PLAIN.has(type)) return line;
    if (this.#keys !== undefined) {
      try {
        return sealLine(line, this.#keys.deviceToHost);
      } catch {
        // Too long to seal (PROTOCOL.md § 5.3): sent bare, the host refuses it with an alarm.
        return line;
      }
    }
    if (this.open || CONTROL.has(type)) return line;
    return undefined;
  }

  incoming(event: FrameEvent): DeviceAuthAction[] {
    if (event.kind === 'discard') return [{ kind: 'pass', event }];
    const frame = event.frame;
    if (frame.type === CHALLENGE_TYPE) return this.#challenge(event);
    if (frame.type === 'HELLO') {
      const decoded = decodeMessage(frame);
      const actions: DeviceAuthAction[] = [{ kind: 'pass', event }];
      if (
        decoded.kind === 'message' &&
        decoded.message.type === 'HELLO' &&
        !protocolAtLeast(decoded.message.protocol, AUTH_SINCE) &&
        !this.open
      ) {
        this.#plain = true;
        actions.push({ kind: 'release', authenticated: false });
      }
      return actions;
    }
    if (this.#keys === undefined) return [{ kind: 'pass', event }];
    if (frame.type === 'NAK' && frame.fields.length === 2 && frame.fields[1] === 'hello') {
      // A host that restarted knows no session: its NAK `hello` cannot carry a MAC, and
      // answering it costs only a new HELLO and a new handshake.
      return [{ kind: 'pass', event }];
    }
    const opened = openFrame(frame, this.#keys.hostToDevice);
    if (!opened.ok) return [{ kind: 'refused', detail: opened.detail }];
    return [{ kind: 'pass', event: { kind: 'frame', frame: opened.frame } }];
  }

  #newHello(line: string): void {
    this.#helloLine = line;
    const event = parseFrameLine(line);
    if (event.kind !== 'frame') return;
    const decoded = decodeMessage(event.frame);
    if (decoded.kind === 'message' && decoded.message.type === 'HELLO') {
      this.helloSent(decoded.message);
    }
  }

  /** The signer's answer to a `sign` action. */
  signed(id: number, signature: Uint8Array): DeviceAuthAction[] {
    const signing = this.#signing;
    const key = this.#options.publicKey;
    if (signing === undefined || signing.id !== id || key === undefined) return [];
    signing.line = encodeFrame(
      proofFrame(this.#options.talker, {
        publicKey: key,
        nonce: signing.proof.nonce,
        ephemeral: signing.proof.ephemeral,
        signature,
      }),
    );
    this.#keys = deriveSessionKeys(signing.secret, signing.digest);
    return [
      { kind: 'write', line: signing.line },
      { kind: 'release', authenticated: true },
    ];
  }

  /** The signer failed (a secure element that did not answer): the next CHALLENGE tries again. */
  signFailed(id: number): void {
    if (this.#signing?.id === id) this.#signing = undefined;
  }

  #challenge(event: Extract<FrameEvent, { kind: 'frame' }>): DeviceAuthAction[] {
    const decoded = decodeChallenge(event.frame);
    if (!decoded.ok) return [{ kind: 'refused', detail: decoded.error }];
    const key = this.#options.publicKey;
    if (key === undefined) {
      const line = encodeFrame({
        talker: this.#options.talker,
        seq: 0,
        type: PROOF_TYPE,
        fields: ['none'],
      });
      return [{ kind: 'write', line }];
    }
    const hello = this.#hello;
    if (hello === undefined) return [{ kind: 'refused', detail: 'CHALLENGE before our HELLO' }];
    if (this.#helloAckedAt === undefined) {
      // The host challenges a HELLO only after ACKing it, so a CHALLENGE before that ACK
      // answers an earlier HELLO of ours (from before a reconnect): its PROOF would be
      // refused, and its keys would make us refuse the plain ACK of the HELLO we did send
      // (issue 24). Ignored; if it was ours after all (the ACK was lost), our HELLO goes
      // again on its timer and the host ACKs it and sends the same CHALLENGE.
      return [];
    }
    const challenge = decoded.value;
    const nonceText = toBase64Url(challenge.nonce);
    const current = this.#signing;
    if (current !== undefined && current.nonceText === nonceText) {
      // Our PROOF was lost (or is still being signed): the same answer, no second signature.
      return current.line === undefined ? [] : [{ kind: 'write', line: current.line }];
    }
    const secrets = this.#options.fresh();
    let secret: Uint8Array;
    try {
      secret = x25519Secret(secrets.ephemeral, challenge.ephemeral);
    } catch (error) {
      return [{ kind: 'refused', detail: `CHALLENGE key: ${(error as Error).message}` }];
    }
    const digest = statementDigest({
      talker: this.#options.talker,
      hello,
      challenge,
      publicKey: key,
      deviceNonce: secrets.nonce,
      deviceEphemeral: secrets.ephemeral.publicKey,
    });
    // A new CHALLENGE is a new session: until it is signed, nothing is sealed with the old keys.
    this.#keys = undefined;
    this.#ids++;
    this.#signing = {
      id: this.#ids,
      nonceText,
      secret,
      digest,
      proof: { nonce: secrets.nonce, ephemeral: secrets.ephemeral.publicKey },
    };
    return [{ kind: 'sign', id: this.#ids, digest }];
  }
}
