/**
 * One end of a device line, pure: the frame decoder, the authentication
 * state machine (PROTOCOL.md § 5) and the link session (§ 3) composed in the
 * order the bytes meet them. No I/O, no clock, no chance: every call takes
 * `now`, randomness comes from the role's `fresh()`, and each call returns
 * the actions to carry out in order: lines to write (already sealed),
 * messages and link events to deliver, and the timer to set
 * (`{kind:'timer', at}`, whenever the next deadline moved). The host's and
 * the device's ends are two small configurations of it
 * (`host-endpoint.ts`, `device-endpoint.ts`); one runner drives either over
 * a transport (`hardware/transports/endpoint-runner.ts`).
 */
import type { Frame, FrameEvent } from '../frame.ts';
import { FrameDecoder } from '../frame-decoder.ts';
import { type LinkAction, type LinkOptions, LinkSession, type LinkStats } from '../link.ts';
import type { HelloMessage, Message } from '../messages.ts';

/** A line to write to the peer, CR LF included; `seq`/`attempt` for the link session's own frames. */
export interface WriteAction {
  readonly kind: 'write';
  readonly line: string;
  readonly type: string;
  readonly seq?: number;
  readonly attempt?: number;
}

export type EndpointAction<Report = never> =
  | WriteAction
  /** A frame of ours the authentication holds back for now (no session keys yet); the link sends it again. */
  | { readonly kind: 'held'; readonly type: string; readonly seq: number; readonly attempt: number }
  /** A frame read off the line, before authentication and the link session judge it. */
  | { readonly kind: 'heard'; readonly frame: Frame }
  /** What the link session reports (its `send` actions are the `write`s above). */
  | Exclude<LinkAction, { kind: 'send' }>
  /** What the authentication reports (the role's own kinds). */
  | { readonly kind: 'auth'; readonly report: Report }
  /** Call `tick` at `at` (monotonic ms); undefined: nothing waits. */
  | { readonly kind: 'timer'; readonly at: number | undefined };

export interface EndpointOptions {
  /** The link session's options. */
  readonly link: LinkOptions;
  /** The HELLO this end says whenever its line opens; absent: it says none (a host may not). */
  readonly hello?: HelloMessage | Message;
  /** A simulator's line that loses frames: false drops a frame before authentication sees it. */
  readonly admit?: (frame: Frame) => boolean;
}

export abstract class LinkEndpoint<Report = never> {
  protected readonly session: LinkSession;
  readonly #decoder: FrameDecoder;
  readonly #hello: Message | undefined;
  readonly #admit: ((frame: Frame) => boolean) | undefined;
  #out: EndpointAction<Report>[] = [];
  /** The deadline last reported by a `timer` action; null: none reported since the line closed. */
  #reported: number | undefined | null = null;
  #opens = 0;

  constructor(options: EndpointOptions) {
    this.session = new LinkSession(options.link);
    this.#decoder = new FrameDecoder(this.session.options.framer);
    this.#hello = options.hello;
    this.#admit = options.admit;
  }

  // ------------------------------------------------------------ inputs

  /** Bytes read from the line. */
  receive(bytes: Uint8Array | string, now: number): EndpointAction<Report>[] {
    return this.turn(() => {
      for (const event of this.#decoder.push(bytes)) {
        if (event.kind === 'frame') {
          this.emit({ kind: 'heard', frame: event.frame });
          if (this.#admit !== undefined && !this.#admit(event.frame)) continue;
        }
        this.incoming(event, now);
      }
    });
  }

  /** Time passed: retransmissions, CHALLENGEs, give-ups. Call it at the `timer` action's `at`. */
  tick(now: number): EndpointAction<Report>[] {
    // The timer that called this is spent: the next deadline is reported even if unchanged.
    this.#reported = null;
    return this.turn(() => {
      this.roleTick(now);
      this.runLink(this.session.tick(now), now);
    });
  }

  /** Queues a message to the peer; it goes when the link allows (window, HELLO gate), until ACKed. */
  send(message: Message, now: number): EndpointAction<Report>[] {
    return this.turn(() => this.runLink(this.session.send(message, now), now));
  }

  /** The line (re)opened: this end says its HELLO (PROTOCOL.md § 4) and sends what it owes. */
  lineOpened(now: number): EndpointAction<Report>[] {
    this.#opens++;
    this.#decoder.end();
    // A timer reported while the line was down may have been let go: report it afresh.
    this.#reported = null;
    return this.turn(() => {
      this.opened(now, this.#opens > 1);
      if (this.#hello !== undefined) this.runLink(this.session.send(this.#hello, now), now);
      this.afterHello(now);
    });
  }

  /** Says this end's HELLO again inside a turn (a new session on the same line), then what it owes. */
  protected sayHelloAgain(now: number): void {
    if (this.#hello !== undefined) this.runLink(this.session.send(this.#hello, now), now);
    this.afterHello(now);
  }

  /** The line closed: a line cut mid-frame is not joined to the next connection's bytes. */
  lineClosed(): void {
    this.#decoder.end();
    this.#reported = null;
  }

  /** When `tick` must be called next at the latest; undefined when nothing waits. */
  nextDeadline(): number | undefined {
    const link = this.session.nextDeadline();
    const role = this.roleDeadline();
    if (link === undefined) return role;
    return role === undefined ? link : Math.min(link, role);
  }

  // ------------------------------------------------------------ state

  get stats(): LinkStats {
    return this.session.stats;
  }

  /** Frames the link session received (`stats.received` without copying the stats). */
  get framesReceived(): number {
    return this.session.framesReceived;
  }

  get pending(): { inFlight: number; queued: number } {
    return this.session.pending;
  }

  /** The HELLO the peer sent last, if any. */
  peerHello(): HelloMessage | undefined {
    return this.session.peerHello();
  }

  // ------------------------------------------------------------ the role's part

  /** A framer event from the line, for the authentication, then the link session. */
  protected abstract incoming(event: FrameEvent, now: number): void;
  /** The line to write for one the link session sends; undefined: hold it back. */
  protected abstract seal(line: string, type: string): string | undefined;
  protected abstract roleDeadline(): number | undefined;
  protected abstract roleTick(now: number): void;
  /** Before the HELLO of a (re)opened line. */
  protected opened(_now: number, _reopened: boolean): void {
    // Nothing by default: the host's end marks a reopen.
  }
  /** After the HELLO of a (re)opened line. */
  protected afterHello(_now: number): void {
    // Nothing by default: each role says what follows its HELLO.
  }
  /** A frame of ours `seal` held back. */
  protected heldBack(_seq: number, _now: number): void {
    // Nothing by default: only a device holds frames back.
  }
  /** A link action about to be reported (the role may act on it too). */
  protected linkReported(_action: Exclude<LinkAction, { kind: 'send' }>, _now: number): void {
    // Nothing by default: the device's end starts waiting for a CHALLENGE at its HELLO's ACK.
  }

  /** Runs `work`, collecting what it emits, and reports the timer if it moved. */
  protected turn(work: () => void): EndpointAction<Report>[] {
    const out: EndpointAction<Report>[] = [];
    const outer = this.#out;
    this.#out = out;
    try {
      work();
    } finally {
      this.#out = outer;
    }
    const at = this.nextDeadline();
    if (at !== this.#reported) {
      this.#reported = at;
      out.push({ kind: 'timer', at });
    }
    return out;
  }

  protected emit(action: EndpointAction<Report>): void {
    this.#out.push(action);
  }

  /** The link session's actions: its lines sealed by the role, the rest reported. */
  protected runLink(actions: readonly LinkAction[], now: number): void {
    for (const action of actions) {
      if (action.kind !== 'send') {
        this.emit(action);
        this.linkReported(action, now);
        continue;
      }
      const line = this.seal(action.line, action.type);
      if (line === undefined) this.heldBack(action.seq, now);
      this.emit(
        line === undefined
          ? { kind: 'held', type: action.type, seq: action.seq, attempt: action.attempt }
          : { kind: 'write', line, type: action.type, seq: action.seq, attempt: action.attempt },
      );
    }
  }
}
