/**
 * The device's side of authentication on one line (protocol 1.4, bound to
 * the HELLO and mutual from 1.7, PROTOCOL.md § 5), pure: framer events go
 * through `incoming()` before the link session, every line the link session
 * writes through `outgoing()`.
 *
 * - On a CHALLENGE the device asks its signer (`sign` action: a key file or
 *   a secure element, asynchronous) to sign the digest of a statement that
 *   holds its current HELLO line (seq included) and whether the host has
 *   ACKed it; `signed()` gives the PROOF line to write. The same CHALLENGE
 *   again (the PROOF was lost) gets the same PROOF, unsigned again. A device
 *   without a key answers `PROOF,none`.
 * - The session keys are taken into use only when the host's CONFIRM
 *   verifies: signed by the host key the device learned at pairing
 *   (`hostKey`), over the device's statement. A man in the middle can
 *   answer our PROOF with keys of its own choosing, never with that
 *   signature, so it can never ACK a card. A new CHALLENGE drops the keys in
 *   use: until its CONFIRM nothing is sealed. No CONFIRM within
 *   `confirmWaitMs` of the first PROOF since the last confirmed one (new
 *   HELLOs and CHALLENGEs between do not restart the wait): the `host_lost`
 *   action (the fault light), once until a host confirms; every unACKed
 *   event is kept.
 * - A keyed device holds its events (and their ACKs' companions) back from
 *   the moment its HELLO goes out until it has session keys. A device paired
 *   with a host (`hostKey`) takes nothing from the host without a MAC under
 *   confirmed keys but the handshake's frames, the host's HELLO and a bare
 *   NAK `hello`. One without `hostKey` (a bench) talks to an older host
 *   unauthenticated when its HELLO said it predates 1.7, or no CHALLENGE
 *   came within `challengeWaitMs` of the host ACKing our HELLO.
 */
import {
  type DeviceTalker,
  encodeFrame,
  type Frame,
  type FrameEvent,
  parseFrameLine,
} from '../frame.ts';
import { decodeMessage, type HelloMessage, messageFrame, protocolAtLeast } from '../messages.ts';
import { openFrame, sealLine } from './frame-mac.ts';
import {
  CHALLENGE_TYPE,
  CONFIRM_TYPE,
  confirmDigest,
  decodeChallenge,
  decodeConfirm,
  deriveSessionKeys,
  MUTUAL_AUTH_SINCE,
  PROOF_TYPE,
  proofFrame,
  type SessionKeys,
  statementDigest,
  x25519Secret,
} from './handshake.ts';
import type { HandshakeSecrets } from './host-auth.ts';
import {
  type DevicePublicKey,
  keyFingerprint,
  samePublicKey,
  toBase64Url,
  verifyDigestSignature,
} from './keys.ts';

export interface DeviceAuthOptions {
  readonly talker: DeviceTalker;
  /** The device's public key; absent: a device without a key (answers `PROOF,none`). */
  readonly publicKey?: DevicePublicKey;
  /** The host's public key, learned at pairing: only its CONFIRM opens a session. Absent: any host (a bench). */
  readonly hostKey?: DevicePublicKey;
  readonly fresh: () => HandshakeSecrets;
  readonly challengeWaitMs?: number;
  /** How long after its PROOF the device waits for the host's CONFIRM before it reports `host_lost`. */
  readonly confirmWaitMs?: number;
}

export type DeviceAuthAction =
  | { readonly kind: 'pass'; readonly event: FrameEvent }
  | { readonly kind: 'write'; readonly line: string }
  /** Sign `digest` with the device key, then call `signed(id, signature)`. */
  | { readonly kind: 'sign'; readonly id: number; readonly digest: Uint8Array }
  /** Events may flow now (session keys, or unauthenticated): send what was held back. */
  | { readonly kind: 'release'; readonly authenticated: boolean }
  | { readonly kind: 'refused'; readonly detail: string }
  /** No CONFIRM came for our PROOF: no host proved the pairing; events stay held (the fault light). */
  | { readonly kind: 'host_lost'; readonly detail: string };

interface Signing {
  readonly id: number;
  readonly nonceText: string;
  readonly secret: Uint8Array;
  readonly digest: Uint8Array;
  readonly proof: { nonce: Uint8Array; ephemeral: Uint8Array };
  line?: string;
  /** The session keys, in use once the host's CONFIRM verified. */
  keys?: SessionKeys;
  confirmed?: boolean;
}

const ALWAYS_PLAIN = new Set(['HELLO', CHALLENGE_TYPE, PROOF_TYPE]);
const CONFIRM_WAIT_MS = 3000;
const CONTROL = new Set(['HELLO', 'PING', 'PONG', 'ACK', 'NAK']);

export class DeviceAuth {
  readonly #options: DeviceAuthOptions;
  /** Our latest HELLO as it went on the wire: its seq and fields are what a PROOF signs. */
  #hello: Frame | undefined;
  /** The line of our latest HELLO: the same line again (a retransmission) is the same session. */
  #helloLine: string | undefined;
  #signing: Signing | undefined;
  #keys: SessionKeys | undefined;
  #plain = false;
  #helloAckedAt: number | undefined;
  /** Session keys confirmed, waiting for our HELLO's ACK before the held events go. */
  #releaseAtAck = false;
  /**
   * Our first PROOF since a host last confirmed one: the CONFIRM wait runs from it across
   * new HELLOs and CHALLENGEs, so a man in the middle that keeps starting sessions (each
   * refused CONFIRM or ACK drawing a new HELLO) cannot keep the fault light off.
   */
  #unconfirmedSince: number | undefined;
  #lostReported = false;
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
  helloSent(hello: HelloMessage | Frame, seq = 0): void {
    this.#hello = 'talker' in hello ? hello : messageFrame(this.#options.talker, seq, hello);
    this.#keys = undefined;
    this.#signing = undefined;
    this.#plain = false;
    this.#helloAckedAt = undefined;
    this.#releaseAtAck = false;
  }

  /** The host ACKed our HELLO: events go if the keys are confirmed; else a CHALLENGE is awaited. */
  helloAcked(now: number): DeviceAuthAction[] {
    this.#helloAckedAt ??= now;
    if (!this.#releaseAtAck) return [];
    this.#releaseAtAck = false;
    return [{ kind: 'release', authenticated: true }];
  }

  nextDeadline(): number | undefined {
    if (this.#unconfirmedSince !== undefined && !this.#lostReported) {
      return this.#unconfirmedSince + (this.#options.confirmWaitMs ?? CONFIRM_WAIT_MS);
    }
    if (
      this.open ||
      this.#options.hostKey !== undefined ||
      this.#helloAckedAt === undefined ||
      this.#signing !== undefined
    )
      return undefined;
    return this.#helloAckedAt + (this.#options.challengeWaitMs ?? 3000);
  }

  tick(now: number): DeviceAuthAction[] {
    const deadline = this.nextDeadline();
    if (deadline === undefined || now < deadline) return [];
    if (this.#unconfirmedSince !== undefined) {
      this.#lostReported = true;
      return [
        {
          kind: 'host_lost',
          detail: `no CONFIRM of our PROOFs within ${now - this.#unconfirmedSince} ms: no host proved the pairing; events held`,
        },
      ];
    }
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
    if (frame.type === CONFIRM_TYPE) return this.#confirm(event);
    if (frame.type === 'HELLO') {
      const decoded = decodeMessage(frame);
      const actions: DeviceAuthAction[] = [{ kind: 'pass', event }];
      if (
        decoded.kind === 'message' &&
        decoded.message.type === 'HELLO' &&
        !protocolAtLeast(decoded.message.protocol, MUTUAL_AUTH_SINCE) &&
        this.#options.hostKey === undefined &&
        !this.open
      ) {
        this.#plain = true;
        actions.push({ kind: 'release', authenticated: false });
      }
      return actions;
    }
    if (frame.type === 'NAK' && frame.fields.length === 2 && frame.fields[1] === 'hello') {
      // A host that restarted knows no session: its NAK `hello` cannot carry a MAC, and
      // answering it costs only a new HELLO and a new handshake.
      return [{ kind: 'pass', event }];
    }
    if (this.#keys === undefined) {
      if (this.#options.hostKey === undefined || this.#options.publicKey === undefined) {
        return [{ kind: 'pass', event }];
      }
      // Paired with a host: nothing of the host's counts before its CONFIRM (an ACK a man in
      // the middle writes would release a card the host never had).
      return [
        {
          kind: 'refused',
          detail: `${frame.type} ${frame.seq} before the host's CONFIRM: no host has proved the pairing`,
        },
      ];
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
      this.helloSent(event.frame);
    }
  }

  /** The signer's answer to a `sign` action, at `now` (the CONFIRM is awaited from then). */
  signed(id: number, signature: Uint8Array, now = 0): DeviceAuthAction[] {
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
    signing.keys = deriveSessionKeys(signing.secret, signing.digest);
    this.#unconfirmedSince ??= now;
    return [{ kind: 'write', line: signing.line }];
  }

  /** The host's CONFIRM: the session keys go into use if the host key signed our statement. */
  #confirm(event: Extract<FrameEvent, { kind: 'frame' }>): DeviceAuthAction[] {
    const decoded = decodeConfirm(event.frame);
    if (!decoded.ok) return [{ kind: 'refused', detail: decoded.error }];
    const signing = this.#signing;
    if (signing?.keys === undefined) {
      return [{ kind: 'refused', detail: 'CONFIRM with no PROOF of ours outstanding' }];
    }
    if (signing.confirmed) return [];
    const { hostKey, signature } = decoded.value;
    const paired = this.#options.hostKey;
    if (paired !== undefined && !samePublicKey(paired, hostKey)) {
      return [
        {
          kind: 'refused',
          detail: `CONFIRM by host key ${keyFingerprint(hostKey)}, not the paired host ${keyFingerprint(paired)}`,
        },
      ];
    }
    if (!verifyDigestSignature(hostKey, confirmDigest(signing.digest, hostKey), signature)) {
      return [{ kind: 'refused', detail: 'CONFIRM signature does not cover our PROOF' }];
    }
    signing.confirmed = true;
    this.#unconfirmedSince = undefined;
    this.#lostReported = false;
    this.#keys = signing.keys;
    if (this.#helloAckedAt === undefined) {
      // The host ACKs our HELLO right after its CONFIRM, sealed: the held events go then.
      this.#releaseAtAck = true;
      return [];
    }
    return [{ kind: 'release', authenticated: true }];
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
      helloAcked: this.#helloAckedAt !== undefined,
      challenge,
      publicKey: key,
      deviceNonce: secrets.nonce,
      deviceEphemeral: secrets.ephemeral.publicKey,
    });
    // A new CHALLENGE is a new session: until its CONFIRM, nothing is sealed with the old keys.
    this.#keys = undefined;
    this.#releaseAtAck = false;
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
