/**
 * The host's side of device authentication on one line (protocol 1.4,
 * PROTOCOL.md § 5), as a pure state machine that sits between the framer
 * and the link session: every framer event goes through `incoming()` first,
 * every line the link session writes through `outgoing()`.
 *
 * - A device HELLO announcing 1.4 or later (or any HELLO on a paired line)
 *   starts a handshake: the host writes a CHALLENGE (after the HELLO's ACK)
 *   and again every `challengeEveryMs` until the PROOF arrives.
 * - A PROOF is checked: the signature over the statement, the key against
 *   the paired one; then both session keys are derived and every frame
 *   either way is MACed. `PROOF,none` is a device without a key: accepted
 *   on an unpaired line (a bench, with a warning), refused on a paired one.
 * - While a handshake is on, the device's frames are dropped (it sends them
 *   again), and a line that cannot be read is counted but not NAKed
 *   (`unread`: the copy a NAK asks for would be dropped too); once
 *   authenticated, a frame with no MAC, a wrong MAC or a replay is refused
 *   and never reaches the link session.
 * - A paired device that fails the handshake, or whose frames stop
 *   authenticating (`maxRefusedInRow` refusals with no good frame between),
 *   is `failed`: the driver quarantines it until its next good handshake.
 *   After no PROOF, or one that does not decode (garbled past its CRC), the
 *   CHALLENGE goes on, every 4 `challengeEveryMs`: a good PROOF heals it.
 *   After refused frames (a rogue's bad MACs between the device's own, or
 *   line noise), or a PROOF with another key or none (a rogue's answer before
 *   the device's), a fresh CHALLENGE goes `requalifyFirstMs` later, then at
 *   doubling intervals up to `requalifyMaxMs`: only the key holder can
 *   answer it, and its PROOF (a new session) lifts the quarantine; a PROOF
 *   with another key, or none, does not stop the asking.
 * - A HELLO is only a claim until a PROOF signs it. A paired device that
 *   fails while its current HELLO is unproven (no PROOF for it, a version
 *   below 1.4, a PROOF of another key or none) may have had its HELLO
 *   replaced by a rogue's, or by one garbled past its CRC: the genuine
 *   device's PROOFs sign its own HELLO and never match, and it never says
 *   HELLO again. So the host asks for a fresh HELLO (`NAK,<seq>,hello`,
 *   PROTOCOL.md § 4) `requalifyFirstMs` later, then at doubling intervals
 *   up to `requalifyMaxMs`, until a PROOF is taken.
 *
 * No I/O, no clock, no chance: `now` comes in, fresh nonces and X25519 keys
 * come from the caller's `fresh()`.
 */
import type { DeviceTalker, FrameDiscard, FrameEvent } from '../frame.ts';
import { encodeFrame } from '../frame.ts';
import { decodeMessage, type HelloMessage, messageFrame, protocolAtLeast } from '../messages.ts';
import { openFrame, sealLine } from './frame-mac.ts';
import {
  AUTH_SINCE,
  CHALLENGE_TYPE,
  type Challenge,
  CONFIRM_TYPE,
  challengeFrame,
  confirmDigest,
  confirmFrame,
  decodeProof,
  deriveSessionKeys,
  type EphemeralKey,
  MUTUAL_AUTH_SINCE,
  PROOF_TYPE,
  type Proof,
  type SessionKeys,
  statementDigest,
  x25519Secret,
} from './handshake.ts';
import {
  type DevicePublicKey,
  keyFingerprint,
  samePublicKey,
  verifyDigestSignature,
} from './keys.ts';
import { ReplayGuard } from './replay-guard.ts';

export interface HandshakeSecrets {
  readonly nonce: Uint8Array;
  readonly ephemeral: EphemeralKey;
}

/** The host's own key (PROTOCOL.md § 5.2, 1.7): its CONFIRM proves to the device that it holds the pairing. */
export interface HostSigner {
  readonly publicKey: DevicePublicKey;
  /** Signs a 32-byte digest (Ed25519 over it, or ECDSA P-256 with SHA-256 over it, r || s). */
  sign(digest: Uint8Array): Uint8Array;
}

export interface HostAuthOptions {
  readonly talker: DeviceTalker;
  /** The host's key: the devices paired with this table learned its public half at pairing. */
  readonly hostKey: HostSigner;
  /** The key recorded when the device was paired; absent: an unpaired line (a bench). */
  readonly paired?: DevicePublicKey;
  /** Fresh nonce and ephemeral X25519 key pair for each handshake. */
  readonly fresh: () => HandshakeSecrets;
  readonly challengeEveryMs?: number;
  /** CHALLENGEs sent without a PROOF before the handshake fails. */
  readonly maxChallenges?: number;
  /** Refused frames in a row, with no good one between, before a paired device counts as failed. */
  readonly maxRefusedInRow?: number;
  /** After failing for refused frames: the wait before the first fresh CHALLENGE, doubled after each. */
  readonly requalifyFirstMs?: number;
  /** The longest wait between those CHALLENGEs. */
  readonly requalifyMaxMs?: number;
}

export type AuthRefusal =
  | 'missing_mac'
  | 'bad_mac'
  | 'replay'
  | 'bad_proof'
  | 'key_mismatch'
  | 'no_key'
  | 'no_proof'
  | 'not_authenticating'
  /** A HELLO no PROOF covers (a copy or a forgery): refused, forgotten, nothing applied. */
  | 'unproven_hello';

export type HostAuthAction =
  /** A device's HELLO started (or keeps) a handshake. */
  | { readonly kind: 'challenging' }
  /** Write this line to the device (a CHALLENGE). */
  | { readonly kind: 'write'; readonly line: string }
  /**
   * Hand this event on to the link session (a MAC already checked and stripped).
   * `held`: a HELLO held until the handshake's end, handed on now that it is proven.
   */
  | { readonly kind: 'pass'; readonly event: FrameEvent; readonly held?: true }
  /** The device proved who it is; its HELLO (model, serial, firmware hash) is signed. */
  | {
      readonly kind: 'authenticated';
      readonly key: DevicePublicKey;
      readonly fingerprint: string;
      readonly paired: boolean;
      readonly hello: HelloMessage;
    }
  /** An unpaired device without a key (`PROOF,none`) or below 1.4: it works unauthenticated. */
  | { readonly kind: 'unauthenticated'; readonly detail: string }
  /** A frame refused, never delivered. */
  | {
      readonly kind: 'refused';
      readonly reason: AuthRefusal;
      readonly detail: string;
      readonly type?: string;
      readonly seq?: number;
    }
  /** The device failed to authenticate (paired, or it offered a bad proof): quarantine it. */
  | { readonly kind: 'failed'; readonly reason: AuthRefusal; readonly detail: string }
  /** A frame dropped while the handshake is on (the device sends it again). */
  /** `seq`: a reliable frame dropped while waiting for the PROOF, to be asked for again. */
  | { readonly kind: 'dropped'; readonly detail: string; readonly seq?: number }
  /**
   * A line that could not be read (a bad CRC, malformed) while the PROOF is awaited or
   * after the handshake failed: to be counted, not NAKed. `seq`: the seq its
   * head still shows, to be asked for again once the PROOF is taken.
   */
  | { readonly kind: 'unread'; readonly event: FrameDiscard; readonly seq?: number };

export type HostAuthState = 'idle' | 'plain' | 'challenging' | 'authenticated' | 'failed';

/** A HELLO of the device as it came: held until a PROOF covers it. */
interface HelloSeen {
  readonly message: HelloMessage;
  readonly line: string;
  readonly seq: number;
  readonly event: Extract<FrameEvent, { kind: 'frame' }>;
}

interface Pending {
  readonly hello: HelloSeen;
  readonly helloLine: string;
  readonly challenge: Challenge;
  readonly ephemeral: EphemeralKey;
  readonly line: string;
  sent: number;
  lastSentAt: number;
  /** Asking a device quarantined for refused frames: the wait before the next CHALLENGE. */
  backoffMs?: number;
}

const CONTROL = new Set(['ACK', 'NAK']);
/** Frames that deal nothing: a device sends them unsealed between a reconnect and its new keys. */
const NOTHING_TO_DEAL = new Set(['ACK', 'NAK', 'PING', 'PONG']);

export class HostAuth {
  readonly #options: Required<Omit<HostAuthOptions, 'paired'>> & { paired?: DevicePublicKey };
  #state: HostAuthState = 'idle';
  #pending: Pending | undefined;
  #keys: SessionKeys | undefined;
  #guard = new ReplayGuard();
  #refusedInRow = 0;
  #key: DevicePublicKey | undefined;
  /** The latest HELLO of this connection, asked about again when a requalifying CHALLENGE goes. */
  #helloSeen: HelloSeen | undefined;
  /** The HELLO a PROOF signed as starting a session (given to the link); any other is only a claim. */
  #provenHello: HelloSeen | undefined;
  /** Asking a paired device that failed on an unproven HELLO for a fresh one: when next, and the wait after. */
  #helloAsk: { at: number; backoffMs: number } | undefined;

  constructor(options: HostAuthOptions) {
    this.#options = {
      challengeEveryMs: 500,
      maxChallenges: 8,
      maxRefusedInRow: 16,
      requalifyFirstMs: 2_000,
      requalifyMaxMs: 30_000,
      ...options,
    };
  }

  get state(): HostAuthState {
    return this.#state;
  }

  get paired(): DevicePublicKey | undefined {
    return this.#options.paired;
  }

  /** The key the device proved in this connection, if any. */
  get provenKey(): DevicePublicKey | undefined {
    return this.#state === 'authenticated' ? this.#key : undefined;
  }

  /** The line closed: the next connection starts with a new HELLO and a new handshake. */
  reset(): void {
    this.#state = 'idle';
    this.#pending = undefined;
    this.#keys = undefined;
    this.#key = undefined;
    this.#helloSeen = undefined;
    this.#provenHello = undefined;
    this.#helloAsk = undefined;
    this.#refusedInRow = 0;
  }

  nextDeadline(): number | undefined {
    const helloAsk = this.#state === 'failed' ? this.#helloAsk?.at : undefined;
    const pending = this.#pending;
    if (pending === undefined || (this.#state !== 'challenging' && this.#state !== 'failed')) {
      return helloAsk;
    }
    const challenge = pending.lastSentAt + this.#interval();
    return helloAsk === undefined ? challenge : Math.min(challenge, helloAsk);
  }

  tick(now: number): HostAuthAction[] {
    const actions = this.#challengeTick(now);
    const ask = this.#helloAsk;
    if (this.#state === 'failed' && ask !== undefined && now >= ask.at) {
      ask.backoffMs = Math.min(ask.backoffMs * 2, this.#options.requalifyMaxMs);
      ask.at = now + ask.backoffMs;
      const message = { type: 'NAK', reason: 'hello' } as const;
      const seq = this.#helloSeen?.seq;
      const nak = seq === undefined ? message : { ...message, nakedSeq: seq };
      // Outside the link session, as a CHALLENGE (seq 0): a host without a session may send it bare.
      actions.push({ kind: 'write', line: encodeFrame(messageFrame('HO', 0, nak)) });
    }
    return actions;
  }

  #challengeTick(now: number): HostAuthAction[] {
    const pending = this.#pending;
    if (pending === undefined || (this.#state !== 'challenging' && this.#state !== 'failed')) {
      return [];
    }
    if (now - pending.lastSentAt < this.#interval()) return [];
    const actions: HostAuthAction[] = [];
    if (this.#state === 'challenging' && pending.sent >= this.#options.maxChallenges) {
      const detail = `no PROOF after ${pending.sent} CHALLENGEs`;
      if (this.#options.paired === undefined) {
        // An unpaired bench device that says 1.7 but never proves anything: unauthenticated.
        this.#state = 'plain';
        this.#pending = undefined;
        return [
          { kind: 'pass', event: pending.hello.event, held: true },
          { kind: 'unauthenticated', detail },
        ];
      }
      actions.push(...this.#fail('no_proof', detail, now));
      // Keep asking, slowly: a PROOF that arrives late (a line that was down) still heals it.
      this.#pending = pending;
    }
    pending.sent++;
    pending.lastSentAt = now;
    if (pending.backoffMs !== undefined) {
      pending.backoffMs = Math.min(pending.backoffMs * 2, this.#options.requalifyMaxMs);
    }
    actions.push({ kind: 'write', line: pending.line });
    return actions;
  }

  #interval(): number {
    const backoff = this.#pending?.backoffMs;
    if (backoff !== undefined) return backoff;
    return this.#state === 'failed'
      ? this.#options.challengeEveryMs * 4
      : this.#options.challengeEveryMs;
  }

  /** Seals a line the link session writes, once the device has proved itself (HELLO never). */
  outgoing(line: string, type: string): string {
    if (this.#state !== 'authenticated' || this.#keys === undefined || type === 'HELLO') {
      return line;
    }
    try {
      return sealLine(line, this.#keys.hostToDevice);
    } catch {
      // Too long to seal (PROTOCOL.md § 5.3): sent bare, the device refuses it, visibly.
      return line;
    }
  }

  incoming(event: FrameEvent, now: number): HostAuthAction[] {
    if (event.kind === 'discard') return this.#discard(event);
    const frame = event.frame;
    if (frame.type === PROOF_TYPE) return this.#proof(event, now);
    if (frame.type === CHALLENGE_TYPE || frame.type === CONFIRM_TYPE) {
      return [
        this.#refusal(
          'bad_proof',
          `${frame.type} from ${frame.talker}: only the host sends it`,
          frame,
        ),
      ];
    }
    if (frame.type === 'HELLO') return this.#hello(event, now);
    switch (this.#state) {
      case 'idle':
      case 'plain':
        return [{ kind: 'pass', event }];
      case 'challenging':
        // ACK and NAK only release or resend our own frames (the HELLO, PINGs sent as the line
        // opened): let them through, so the handshake costs no retransmission. Nothing else.
        if (CONTROL.has(frame.type)) return [{ kind: 'pass', event }];
        return [
          {
            kind: 'dropped',
            detail: `${frame.type} ${frame.seq} before the device's PROOF`,
            seq: frame.seq,
          },
        ];
      case 'failed':
        return [
          {
            kind: 'dropped',
            detail: `${frame.type} ${frame.seq} from a device that failed to authenticate`,
          },
        ];
      case 'authenticated': {
        const opened = openFrame(frame, this.#keys!.deviceToHost);
        if (!opened.ok && opened.reason === 'missing_mac' && NOTHING_TO_DEAL.has(frame.type)) {
          // A device that has just reconnected ACKs, and answers PINGs of the old connection
          // again, before its HELLO reaches us and before its new session has keys: without a
          // MAC. Not passed (it sends them again, sealed), and no alarm: none carries a card.
          return [{ kind: 'dropped', detail: opened.detail }];
        }
        if (!opened.ok) return this.#refuse(opened.reason, opened.detail, frame, now);
        if (!CONTROL.has(frame.type) && !this.#guard.accept(frame.seq)) {
          return this.#refuse(
            'replay',
            `${frame.type} ${frame.seq} was accepted long ago in this session: a replay`,
            frame,
            now,
          );
        }
        this.#refusedInRow = 0;
        return [{ kind: 'pass', event: { kind: 'frame', frame: opened.frame } }];
      }
    }
  }

  /**
   * A line that could not be read. While we wait for the PROOF, or after the
   * handshake failed, a NAK would only bring a copy we drop as well (and the
   * PROOF is not sent again on a NAK: the CHALLENGE asks for it): the device
   * would answer each NAK without seq by sending all it holds again, none of
   * it ACKed, and each corrupted copy would draw another NAK, a retransmission
   * storm at line speed for the whole wait. So it is counted, not answered.
   */
  #discard(event: FrameDiscard): HostAuthAction[] {
    if (this.#state !== 'challenging' && this.#state !== 'failed') return [{ kind: 'pass', event }];
    const askable =
      this.#state === 'challenging' && event.talker === this.#options.talker
        ? event.seq
        : undefined;
    return [
      askable === undefined ? { kind: 'unread', event } : { kind: 'unread', event, seq: askable },
    ];
  }

  #hello(event: Extract<FrameEvent, { kind: 'frame' }>, now: number): HostAuthAction[] {
    const pass: HostAuthAction = { kind: 'pass', event };
    const decoded = decodeMessage(event.frame);
    if (decoded.kind !== 'message' || decoded.message.type !== 'HELLO') return [pass];
    const hello = decoded.message;
    const line = encodeFrame(event.frame);
    const pending = this.#pending;
    if (
      (this.#state === 'challenging' || this.#state === 'failed') &&
      pending !== undefined &&
      pending.helloLine === line
    ) {
      // The same HELLO again (the device's ACK timeout, or a copy): the same CHALLENGE.
      pending.lastSentAt = now;
      return [{ kind: 'write', line: pending.line }];
    }
    if (!protocolAtLeast(hello.protocol, MUTUAL_AUTH_SINCE)) return this.#olderHello(event, now);
    // A HELLO is only a claim until a PROOF covers it (PROTOCOL.md § 5.2): nothing it implies
    // (a new session, its seq in the link) is applied before, so it is held here, not passed.
    const seen: HelloSeen = { message: hello, line, seq: event.frame.seq, event };
    this.#helloSeen = seen;
    const fresh = this.#freshChallenge(seen, now);
    fresh.sent = 1;
    this.#pending = fresh;
    this.#keys = undefined;
    this.#state = 'challenging';
    return [{ kind: 'challenging' }, { kind: 'write', line: fresh.line }];
  }

  /** A HELLO below 1.7: its PROOF would bind neither its seq nor the host. */
  #olderHello(event: Extract<FrameEvent, { kind: 'frame' }>, now: number): HostAuthAction[] {
    const hello = decodeMessage(event.frame) as { message: HelloMessage };
    const protocol = hello.message.protocol;
    const paired = this.#options.paired !== undefined;
    if (paired && this.#provenHello !== undefined) {
      // A proven session goes on: a claim of an older device changes nothing in it.
      return [
        this.#refusal(
          'unproven_hello',
          `HELLO ${event.frame.seq} announcing ${protocol} during a proven session: no PROOF can cover it; ignored`,
          event.frame,
        ),
      ];
    }
    this.#keys = undefined;
    this.#key = undefined;
    this.#pending = undefined;
    this.#guard = new ReplayGuard();
    this.#refusedInRow = 0;
    const line = encodeFrame(event.frame);
    this.#helloSeen = { message: hello.message, line, seq: event.frame.seq, event };
    if (paired) {
      const detail = protocolAtLeast(protocol, AUTH_SINCE)
        ? `paired device announced protocol ${protocol}: its proof binds neither its HELLO's seq nor the host; upgrade its firmware to protocol ${MUTUAL_AUTH_SINCE} (PROTOCOL.md § 5)`
        : `paired device announced protocol ${protocol}, without authentication (${MUTUAL_AUTH_SINCE})`;
      return this.#fail('not_authenticating', detail, now);
    }
    this.#state = 'plain';
    return [
      { kind: 'pass', event },
      {
        kind: 'unauthenticated',
        detail: protocolAtLeast(protocol, AUTH_SINCE)
          ? `protocol ${protocol} predates the authentication of ${MUTUAL_AUTH_SINCE}`
          : `protocol ${protocol} has no device authentication`,
      },
    ];
  }

  /** A CHALLENGE with a fresh nonce and X25519 key, for this HELLO: not sent yet. */
  #freshChallenge(hello: HelloSeen, now: number): Pending {
    const secrets = this.#options.fresh();
    const challenge: Challenge = { nonce: secrets.nonce, ephemeral: secrets.ephemeral.publicKey };
    return {
      hello,
      helloLine: hello.line,
      challenge,
      ephemeral: secrets.ephemeral,
      line: encodeFrame(challengeFrame(challenge)),
      sent: 0,
      lastSentAt: now,
    };
  }

  #proof(event: Extract<FrameEvent, { kind: 'frame' }>, now: number): HostAuthAction[] {
    const frame = event.frame;
    const pending = this.#pending;
    if (pending === undefined || (this.#state !== 'challenging' && this.#state !== 'failed')) {
      return [{ kind: 'dropped', detail: 'PROOF with no CHALLENGE outstanding' }];
    }
    if (frame.talker !== this.#options.talker) {
      return [
        this.#refusal(
          'bad_proof',
          `PROOF from ${frame.talker} on a ${this.#options.talker} line`,
          frame,
        ),
      ];
    }
    const requalifying = this.#state === 'failed' && pending.backoffMs !== undefined;
    if (frame.fields.length === 1 && frame.fields[0] === 'none') {
      // Anyone on the line can answer PROOF,none or prove another key: while we ask a
      // quarantined device to prove itself again, that stops nothing (nor is it alarmed again).
      if (requalifying) return [{ kind: 'dropped', detail: 'PROOF,none to a fresh CHALLENGE' }];
      if (this.#options.paired !== undefined) {
        return this.#askAfresh(
          now,
          this.#fail('no_key', 'paired device answered PROOF,none: it has no key', now),
        );
      }
      this.#state = 'plain';
      this.#pending = undefined;
      // On a bench the HELLO is taken as it says: there is nothing to cover it with.
      return [
        { kind: 'pass', event: pending.hello.event, held: true },
        { kind: 'unauthenticated', detail: 'the device has no key (PROOF,none)' },
      ];
    }
    const decoded = decodeProof(frame);
    if (!decoded.ok) {
      // Asked again below: the answer to that is dropped, not alarmed a second time.
      if (this.#state === 'failed') return [{ kind: 'dropped', detail: `PROOF: ${decoded.error}` }];
      const actions = this.#fail('bad_proof', decoded.error, now);
      // A PROOF garbled past its CRC reads as a bad one, and a device whose HELLO was ACKed
      // never says HELLO again: keep asking, slowly, as for a PROOF that never came; the
      // same CHALLENGE gets the same PROOF, intact this time.
      this.#pending = pending;
      return actions;
    }
    const proof = decoded.value;
    const covered = this.#coveredHello(pending, proof);
    if (covered === undefined) {
      // An answer to an earlier CHALLENGE of ours signs another nonce: wait for the current one.
      return [{ kind: 'dropped', detail: 'PROOF signature does not match the current CHALLENGE' }];
    }
    const paired = this.#options.paired;
    if (paired !== undefined && !samePublicKey(paired, proof.publicKey)) {
      if (requalifying) {
        return [
          { kind: 'dropped', detail: `PROOF with another key ${keyFingerprint(proof.publicKey)}` },
        ];
      }
      return this.#askAfresh(
        now,
        this.#fail(
          'key_mismatch',
          `device key ${keyFingerprint(proof.publicKey)} is not the paired key ${keyFingerprint(paired)}`,
          now,
        ),
      );
    }
    let secret: Uint8Array;
    try {
      secret = x25519Secret(pending.ephemeral, proof.ephemeral);
    } catch (error) {
      return this.#fail('bad_proof', `PROOF X25519 key: ${(error as Error).message}`, now);
    }
    const { hello, helloAcked, digest } = covered;
    const hostKey = this.#options.hostKey;
    const confirm = encodeFrame(
      confirmFrame({
        hostKey: hostKey.publicKey,
        signature: hostKey.sign(confirmDigest(digest, hostKey.publicKey)),
      }),
    );
    this.#keys = deriveSessionKeys(secret, digest);
    this.#key = proof.publicKey;
    this.#state = 'authenticated';
    this.#pending = undefined;
    this.#helloAsk = undefined;
    this.#refusedInRow = 0;
    const actions: HostAuthAction[] = [{ kind: 'write', line: confirm }];
    if (hello.line !== pending.hello.line) {
      // The HELLO we challenged is not the device's: a copy or a forgery, refused and forgotten.
      actions.push(
        this.#refusal(
          'unproven_hello',
          `HELLO ${pending.hello.seq} is not the device's: its PROOF covers HELLO ${hello.seq}`,
          { type: 'HELLO', seq: pending.hello.seq },
        ),
      );
    }
    this.#helloSeen = hello;
    if (!helloAcked) {
      // The device waits for this HELLO's ACK: a new session, its seqs counted from here.
      this.#provenHello = hello;
      this.#guard = new ReplayGuard();
      actions.push({ kind: 'pass', event: hello.event, held: true });
    }
    // Else the keys of the session of an ACKed HELLO are renewed: the link goes on as it was.
    actions.push({
      kind: 'authenticated',
      key: proof.publicKey,
      fingerprint: keyFingerprint(proof.publicKey),
      paired: paired !== undefined,
      hello: hello.message,
    });
    return actions;
  }

  /**
   * Which HELLO the PROOF covers (PROTOCOL.md § 5.2): the one challenged, or
   * the one proven before, each as still awaiting its ACK or ACKed.
   * Undefined: the signature covers none of them under this CHALLENGE.
   */
  #coveredHello(
    pending: Pending,
    proof: Proof,
  ): { hello: HelloSeen; helloAcked: boolean; digest: Uint8Array } | undefined {
    const candidates = [pending.hello];
    const proven = this.#provenHello;
    if (proven !== undefined && proven.line !== pending.hello.line) candidates.push(proven);
    for (const hello of candidates) {
      for (const helloAcked of [false, true]) {
        const digest = statementDigest({
          talker: this.#options.talker,
          hello: hello.event.frame,
          helloAcked,
          challenge: pending.challenge,
          publicKey: proof.publicKey,
          deviceNonce: proof.nonce,
          deviceEphemeral: proof.ephemeral,
        });
        if (verifyDigestSignature(proof.publicKey, digest, proof.signature)) {
          return { hello, helloAcked, digest };
        }
      }
    }
    return undefined;
  }

  #refusal(
    reason: AuthRefusal,
    detail: string,
    frame: { type: string; seq: number },
  ): HostAuthAction {
    return { kind: 'refused', reason, detail, type: frame.type, seq: frame.seq };
  }

  #refuse(
    reason: AuthRefusal,
    detail: string,
    frame: { type: string; seq: number },
    now: number,
  ): HostAuthAction[] {
    const actions: HostAuthAction[] = [this.#refusal(reason, detail, frame)];
    this.#refusedInRow++;
    if (this.#options.paired !== undefined && this.#refusedInRow >= this.#options.maxRefusedInRow) {
      // Those frames may be a rogue's, written between the device's own, or line noise.
      actions.push(
        ...this.#askAfresh(
          now,
          this.#fail(
            'not_authenticating',
            `${this.#refusedInRow} frames in a row failed authentication`,
            now,
          ),
        ),
      );
    }
    return actions;
  }

  /**
   * After a failure anyone on the line can cause (refused frames, a PROOF with
   * another key or none), the device whose HELLO was ACKed never says HELLO
   * again: ask it to prove itself afresh (only the key holder can), slowly, so
   * the quarantine can end.
   */
  #askAfresh(now: number, failed: HostAuthAction[]): HostAuthAction[] {
    const hello = this.#helloSeen;
    if (hello !== undefined) {
      const pending = this.#freshChallenge(hello, now);
      pending.backoffMs = this.#options.requalifyFirstMs;
      this.#pending = pending;
    }
    return failed;
  }

  #fail(reason: AuthRefusal, detail: string, now: number): HostAuthAction[] {
    const hello = this.#helloSeen;
    if (
      this.#options.paired !== undefined &&
      hello !== undefined &&
      hello.line !== this.#provenHello?.line
    ) {
      // Failed on a HELLO no PROOF signed (perhaps a rogue's): ask the device for its own.
      // A new HELLO that fails too keeps the backoff reached; only a PROOF ends the asking.
      this.#helloAsk ??= {
        at: now + this.#options.requalifyFirstMs,
        backoffMs: this.#options.requalifyFirstMs,
      };
    }
    this.#state = 'failed';
    this.#pending = undefined;
    this.#keys = undefined;
    return [{ kind: 'failed', reason, detail }];
  }
}
