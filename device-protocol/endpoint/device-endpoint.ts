/**
 * A device's end of its line: the link endpoint with the device's
 * authentication (`DeviceAuth`, PROTOCOL.md § 5) between the decoder and the
 * link session. It says HELLO whenever the line opens and sends again at once
 * what was not ACKed (§ 3.7); events wait for the host's ACK of that
 * HELLO and, with a key, for session keys. Signing is the caller's (a key
 * file, a secure element: asynchronous): a `sign` report asks for it, and
 * `signed()` hands the signature back.
 */
import { DeviceAuth, type DeviceAuthAction } from '../auth/device-side-auth.ts';
import type { HandshakeSecrets } from '../auth/host-auth.ts';
import type { DevicePublicKey } from '../auth/keys.ts';
import type { DeviceTalker, FrameEvent } from '../frame.ts';
import type { LinkAction, LinkOptions } from '../link.ts';
import type { HelloMessage, Message } from '../messages.ts';
import { type EndpointAction, type EndpointOptions, LinkEndpoint } from './link-endpoint.ts';

export type DeviceAuthReport =
  /** Sign `digest` with the device key, then call `signed(id, signature, now)`. */
  | { readonly kind: 'sign'; readonly id: number; readonly digest: Uint8Array }
  /** A frame from the host refused (a bad or missing MAC, a bad CHALLENGE or CONFIRM). */
  | { readonly kind: 'refused'; readonly detail: string }
  /** No host confirmed our PROOF (PROTOCOL.md § 5.2): events stay held; light the fault. */
  | { readonly kind: 'host_lost'; readonly detail: string };

export type DeviceEndpointAction = EndpointAction<DeviceAuthReport>;

/**
 * Link-session settings of a device: a real device never gives a card up
 * (`maxAttempts: 0`, retransmit until ACKed), and waits for an ACK as long
 * as the host does (PROTOCOL.md § 3: the same or a longer timeout), so a
 * host still writing a card to its journal is not sent copies of it. It
 * speaks protocol 1.2 or later, so with a 1.2 host it may have 32 events
 * unacknowledged (the in-order window, § 3.8); with an older host, one.
 */
export const DEVICE_SESSION_DEFAULTS = {
  ackTimeoutMs: 500,
  backoffFactor: 1,
  maxAttempts: 0,
  maxInFlight: 32,
} as const;

/** Frames a device kept across its own restart (its outbox), with the seqs they had. */
export interface RestoredFrames {
  readonly frames: readonly { readonly seq: number; readonly message: Message }[];
  /** The seq its counting goes on from (after every seq it ever used). */
  readonly nextSeq: number;
}

export interface DeviceEndpointOptions {
  readonly talker: DeviceTalker;
  /** Said whenever the line opens. */
  readonly hello: HelloMessage;
  /** Link-session options over DEVICE_SESSION_DEFAULTS. */
  readonly link?: Omit<Partial<LinkOptions>, 'localTalker' | 'peerTalker'>;
  /** The device's public key (its signer holds the private one); absent: a device without a key. */
  readonly publicKey?: DevicePublicKey;
  /** The host's public key, learned at pairing: only that host's CONFIRM opens a session. */
  readonly hostKey?: DevicePublicKey;
  /** How long after its PROOF it waits for the host's CONFIRM before it reports `host_lost`. */
  readonly confirmWaitMs?: number;
  /** Fresh nonce and X25519 key pair for each handshake (the caller's randomness). */
  readonly fresh: () => HandshakeSecrets;
  /** How long after its HELLO's ACK it waits for a CHALLENGE before it takes the host for an older one. */
  readonly challengeWaitMs?: number;
  readonly restore?: RestoredFrames;
  readonly admit?: EndpointOptions['admit'];
}

export class DeviceEndpoint extends LinkEndpoint<DeviceAuthReport> {
  readonly #auth: DeviceAuth;
  /** The frames held back at the latest moment any was. */
  #held: { at: number; seqs: number[] } = { at: Number.NaN, seqs: [] };

  constructor(options: DeviceEndpointOptions) {
    super({
      link: {
        ...DEVICE_SESSION_DEFAULTS,
        ...options.link,
        localTalker: options.talker,
        peerTalker: 'HO',
        ...(options.restore === undefined ? {} : { initialSeq: options.restore.nextSeq }),
      },
      hello: options.hello,
      ...(options.admit === undefined ? {} : { admit: options.admit }),
    });
    if (options.restore) this.session.restore(options.restore.frames);
    this.#auth = new DeviceAuth({
      talker: options.talker,
      fresh: options.fresh,
      ...(options.publicKey === undefined ? {} : { publicKey: options.publicKey }),
      ...(options.hostKey === undefined ? {} : { hostKey: options.hostKey }),
      ...(options.confirmWaitMs === undefined ? {} : { confirmWaitMs: options.confirmWaitMs }),
      ...(options.challengeWaitMs === undefined
        ? {}
        : { challengeWaitMs: options.challengeWaitMs }),
    });
  }

  /** Whether this connection's frames carry MACs (protocol 1.4). */
  get authenticated(): boolean {
    return this.#auth.authenticated;
  }

  /** Whether the host has ACKed our HELLO, so that events flow. */
  get helloAcknowledged(): boolean {
    return this.session.helloAcknowledged;
  }

  /**
   * Queues a frame built from raw fields, past the codecs (a simulator's
   * broken firmware: a field no message may carry); otherwise like `send`.
   */
  sendRaw(type: string, fields: readonly string[], now: number): DeviceEndpointAction[] {
    return this.turn(() => this.runLink(this.session.sendRaw(type, fields, now), now));
  }

  /** The signer's answer to a `sign` report. */
  signed(id: number, signature: Uint8Array, now: number): DeviceEndpointAction[] {
    return this.turn(() => this.#handle(this.#auth.signed(id, signature, now), now));
  }

  /** The signer failed (a secure element that did not answer): the next CHALLENGE tries again. */
  signFailed(id: number): DeviceEndpointAction[] {
    return this.turn(() => this.#auth.signFailed(id));
  }

  protected incoming(event: FrameEvent, now: number): void {
    this.#handle(this.#auth.incoming(event), now);
  }

  protected seal(line: string, type: string): string | undefined {
    return this.#auth.outgoing(line, type);
  }

  protected roleDeadline(): number | undefined {
    return this.#auth.nextDeadline();
  }

  protected roleTick(now: number): void {
    this.#handle(this.#auth.tick(now), now);
  }

  protected override heldBack(seq: number, now: number): void {
    if (this.#held.at !== now) this.#held = { at: now, seqs: [] };
    this.#held.seqs.push(seq);
  }

  protected override afterHello(now: number): void {
    // What was not ACKed before goes again right after the HELLO, with its old seq (§ 3.7).
    this.runLink(this.session.retransmitNow(now), now);
  }

  protected override linkReported(
    action: Exclude<LinkAction, { kind: 'send' }>,
    now: number,
  ): void {
    if (action.kind === 'acked' && action.type === 'HELLO')
      this.#handle(this.#auth.helloAcked(now), now);
  }

  #handle(actions: readonly DeviceAuthAction[], now: number): void {
    for (const action of actions) {
      switch (action.kind) {
        case 'pass':
          this.runLink(this.session.receive(action.event, now), now);
          break;
        case 'write':
          this.emit({ kind: 'write', line: action.line, type: 'PROOF' });
          break;
        case 'release': {
          // Events may flow (session keys, or an older host): what was held back goes now.
          this.runLink(this.session.retransmitNow(now), now);
          // Held back at this very moment (the host's ACK and HELLO in one read), a frame
          // counts for the link as just sent, and would wait a whole ACK timeout.
          const { at, seqs } = this.#held;
          this.#held = { at: Number.NaN, seqs: [] };
          if (at !== now) break;
          for (const seq of seqs) this.runLink(this.session.sendAgain(seq, now), now);
          break;
        }
        case 'sign':
          this.emit({
            kind: 'auth',
            report: { kind: 'sign', id: action.id, digest: action.digest },
          });
          break;
        case 'refused':
          this.emit({ kind: 'auth', report: { kind: action.kind, detail: action.detail } });
          break;
        case 'host_lost':
          this.emit({ kind: 'auth', report: { kind: action.kind, detail: action.detail } });
          // Whoever challenged us could not prove the pairing: a new HELLO asks the host afresh,
          // as a reconnect does; every unACKed event is kept and goes once a host confirms.
          this.sayHelloAgain(now);
          break;
      }
    }
  }
}
