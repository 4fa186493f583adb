/**
 * The host's end of a device line: the link endpoint with the host's
 * authentication (`HostAuth`, PROTOCOL.md § 5) between the decoder and the
 * link session. Beyond composing them it keeps one rule of its own: the
 * device's frames dropped while its PROOF was awaited are asked for again by
 * NAK `before_proof` as soon as the handshake is over (§ 5.2), so the device
 * sends them at once rather than after its ACK timeout.
 */
import {
  type HandshakeSecrets,
  HostAuth,
  type HostAuthAction,
  type HostAuthOptions,
  type HostSigner,
} from '../auth/host-auth.ts';
import type { DevicePublicKey } from '../auth/keys.ts';
import type { DeviceTalker, FrameEvent } from '../frame.ts';
import type { LinkOptions } from '../link.ts';
import type { Message } from '../messages.ts';
import { type EndpointAction, type EndpointOptions, LinkEndpoint } from './link-endpoint.ts';

/**
 * What the host's authentication reports: `challenging` when a device's
 * HELLO started (or keeps) a handshake, and HostAuth's own verdicts.
 */
export type HostAuthReport = Extract<
  HostAuthAction,
  { kind: 'challenging' | 'authenticated' | 'unauthenticated' | 'refused' | 'failed' | 'dropped' }
>;

export type HostEndpointAction = EndpointAction<HostAuthReport>;

export interface HostEndpointOptions {
  /** The one device talker on this line. */
  readonly peer: DeviceTalker;
  /** Link-session options (the host's talker and its peer are set here). */
  readonly link?: Omit<LinkOptions, 'localTalker' | 'peerTalker'>;
  /** The host's HELLO, said whenever the line opens; absent: none (devices never wait for it). */
  readonly hello?: Message;
  /** The device's paired key: it must prove it. Absent: an unpaired line (a bench). */
  readonly paired?: DevicePublicKey;
  /** Fresh nonce and X25519 key pair for each handshake (the caller's randomness). */
  readonly fresh: () => HandshakeSecrets;
  /** The host's key, whose CONFIRM the paired devices check (PROTOCOL.md § 5.2). */
  readonly hostKey: HostSigner;
  /** HostAuth's timings, for tests. */
  readonly auth?: Omit<HostAuthOptions, 'talker' | 'paired' | 'fresh' | 'hostKey'>;
  readonly admit?: EndpointOptions['admit'];
}

/** At most this many dropped frames are asked for again (a window is 32). */
const ASK_AGAIN_AT_MOST = 64;

export class HostEndpoint extends LinkEndpoint<HostAuthReport> {
  readonly #auth: HostAuth;
  /** Seqs dropped while the PROOF was awaited: NAKed once the handshake ends. */
  #dropped: number[] = [];

  constructor(options: HostEndpointOptions) {
    super({
      link: { ...options.link, localTalker: 'HO', peerTalker: options.peer },
      ...(options.hello === undefined ? {} : { hello: options.hello }),
      ...(options.admit === undefined ? {} : { admit: options.admit }),
    });
    this.#auth = new HostAuth({
      ...options.auth,
      talker: options.peer,
      fresh: options.fresh,
      hostKey: options.hostKey,
      ...(options.paired === undefined ? {} : { paired: options.paired }),
    });
  }

  /** The key the device proved on this connection (for pairing). */
  get provenKey(): DevicePublicKey | undefined {
    return this.#auth.provenKey;
  }

  get authState(): HostAuth['state'] {
    return this.#auth.state;
  }

  /** ACKs a message delivered with `ack: 'deferred'`, once the caller has stored it. */
  ack(seq: number, now: number): HostEndpointAction[] {
    return this.turn(() => this.runLink(this.session.ack(seq), now));
  }

  /** Refuses a message delivered with `ack: 'deferred'`: NAKed, its retransmission delivered again. */
  reject(seq: number, reason: string, now: number): HostEndpointAction[] {
    return this.turn(() => this.runLink(this.session.reject(seq, reason), now));
  }

  protected incoming(event: FrameEvent, now: number): void {
    this.#handle(this.#auth.incoming(event, now), now);
  }

  protected seal(line: string, type: string): string {
    return this.#auth.outgoing(line, type);
  }

  protected roleDeadline(): number | undefined {
    return this.#auth.nextDeadline();
  }

  protected roleTick(now: number): void {
    this.#handle(this.#auth.tick(now), now);
  }

  protected override opened(_now: number, reopened: boolean): void {
    // Until the device says HELLO again its events get NAK `hello` (§ 4): the HELLO it
    // wrote into our closed port is lost. The authenticated session outlives the reopen,
    // as the link session does: a device that did not notice goes on sealing.
    if (reopened) this.session.lineReopened();
  }

  protected override afterHello(now: number): void {
    this.runLink(this.session.tick(now), now);
  }

  #handle(actions: readonly HostAuthAction[], now: number): void {
    for (const action of actions) {
      switch (action.kind) {
        case 'pass': {
          this.runLink(this.session.receive(action.event, now), now);
          if (
            action.event.kind === 'frame' &&
            action.event.frame.type === 'HELLO' &&
            action.held === undefined
          ) {
            // A new HELLO taken at once: the device sends all it keeps again by itself.
            this.#dropped = [];
          }
          break;
        }
        case 'challenging':
          // A new HELLO: what was dropped before it, the device sends again by itself.
          this.#dropped = [];
          this.emit(this.#report(action));
          break;
        case 'write':
          this.emit({ kind: 'write', line: action.line, type: lineType(action.line) });
          break;
        case 'unread':
          // Counted, not NAKed: the copy a NAK asks for would be dropped too (§ 5.2).
          this.runLink(this.session.discardUnanswered(action.event), now);
          this.#remember(action.seq);
          break;
        case 'dropped':
          this.emit(this.#report(action));
          this.#remember(action.seq);
          break;
        case 'authenticated':
        case 'unauthenticated':
          this.emit(this.#report(action));
          this.#askAgain(now);
          break;
        case 'refused':
        case 'failed':
          this.emit(this.#report(action));
          break;
      }
    }
  }

  #report(report: HostAuthReport): HostEndpointAction {
    return { kind: 'auth', report };
  }

  #remember(seq: number | undefined): void {
    if (seq !== undefined && this.#dropped.length < ASK_AGAIN_AT_MOST) this.#dropped.push(seq);
  }

  #askAgain(now: number): void {
    if (this.#dropped.length === 0) return;
    const seqs = [...new Set(this.#dropped)];
    this.#dropped = [];
    for (const seq of seqs) this.runLink(this.session.askAgain(seq), now);
  }
}

/** The TYPE of a line the authentication writes (CHALLENGE, or a NAK asking for a HELLO). */
function lineType(line: string): string {
  return line.split(',', 3)[2]?.split('*', 1)[0] ?? '';
}
