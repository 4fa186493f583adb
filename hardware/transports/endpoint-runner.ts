/**
 * Drives a link endpoint (device-protocol/endpoint/) over a reconnecting
 * link, the same for the host's drivers and the device core: bytes read go
 * into the endpoint, and its actions come out: lines written to the link,
 * the one real timer set at the endpoint's deadline, and everything else
 * handed to the owner. The endpoint is pure; the timer and the writes live
 * here only.
 */
import type { EndpointAction, WriteAction } from '../../device-protocol/endpoint/link-endpoint.ts';
import type { ReconnectingLink } from './reconnecting-link.ts';

/** What the runner needs of an endpoint (either role). */
export interface RunnableEndpoint<Report> {
  receive(bytes: Uint8Array, now: number): EndpointAction<Report>[];
  tick(now: number): EndpointAction<Report>[];
  lineOpened(now: number): EndpointAction<Report>[];
  lineClosed(): void;
}

/** An endpoint action the runner hands to its owner. */
export type HandledAction<Report> = Exclude<
  EndpointAction<Report>,
  { kind: 'write' } | { kind: 'timer' }
>;

export interface EndpointRunnerOptions<Report> {
  readonly endpoint: RunnableEndpoint<Report>;
  readonly link: ReconnectingLink;
  /** Monotonic milliseconds. */
  readonly now: () => number;
  /** Carries out what the endpoint reports: deliveries, ACKs, give-ups, authentication. */
  readonly handle: (action: HandledAction<Report>) => void;
  /** How a line goes on the wire (a simulator's hooks); default: to the link, while it is open. */
  readonly write?: (action: WriteAction) => void;
  /**
   * ACKs made in one turn go out in one write once it ends: the ACKs of the
   * cards one group commit made durable cost one write on the line, not one
   * each (a pty or USB write is a system call and a wake-up on both ends).
   */
  readonly coalesceAcks?: boolean;
  /** Ticks only while the link is open (a device: what it would send goes again at the reopen). */
  readonly tickOnlyWhileOpen?: boolean;
}

export class EndpointRunner<Report> {
  readonly #options: EndpointRunnerOptions<Report>;
  readonly #endpoint: RunnableEndpoint<Report>;
  readonly #link: ReconnectingLink;
  #timer: NodeJS.Timeout | undefined;
  #running = false;
  /** ACK lines of this turn, written together once it ends. */
  #unwrittenAcks: string[] = [];

  constructor(options: EndpointRunnerOptions<Report>) {
    this.#options = options;
    this.#endpoint = options.endpoint;
    this.#link = options.link;
  }

  get running(): boolean {
    return this.#running;
  }

  start(): void {
    this.#running = true;
  }

  stop(): void {
    this.#running = false;
    this.#clearTimer();
    this.#unwrittenAcks = [];
  }

  /** Bytes read from the link. */
  receive(chunk: Uint8Array): void {
    this.run(this.#endpoint.receive(chunk, this.#options.now()));
  }

  /** The link opened (again). */
  opened(): void {
    this.run(this.#endpoint.lineOpened(this.#options.now()));
  }

  /** The link closed: nothing is written until it reopens, and the reopen sends it all. */
  closed(): void {
    this.#clearTimer();
    this.#endpoint.lineClosed();
  }

  /** Carries out an endpoint's actions, in order. */
  run(actions: readonly EndpointAction<Report>[]): void {
    for (const action of actions) {
      switch (action.kind) {
        case 'write':
          this.#write(action);
          break;
        case 'timer':
          this.#schedule(action.at);
          break;
        default:
          this.#options.handle(action);
          break;
      }
    }
  }

  #write(action: WriteAction): void {
    if (this.#options.write !== undefined) {
      this.#options.write(action);
      return;
    }
    if (this.#options.coalesceAcks && action.type === 'ACK') {
      this.#unwrittenAcks.push(action.line);
      if (this.#unwrittenAcks.length === 1) queueMicrotask(() => this.#flushAcks());
      return;
    }
    // Any other line: the ACKs before it first, so the line keeps the endpoint's order.
    this.#flushAcks();
    this.#writeBytes(action.line);
  }

  #flushAcks(): void {
    const lines = this.#unwrittenAcks;
    if (lines.length === 0) return;
    this.#unwrittenAcks = [];
    this.#writeBytes(lines.length === 1 ? lines[0]! : lines.join(''));
  }

  #writeBytes(line: string): void {
    if (!this.#link.isOpen) return;
    // A failed write closes the link, and the link reports that (and reconnects).
    this.#link.write(Buffer.from(line, 'latin1')).catch(() => undefined);
  }

  #schedule(at: number | undefined): void {
    this.#clearTimer();
    if (at === undefined || !this.#running) return;
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        if (!this.#running) return;
        if (this.#options.tickOnlyWhileOpen && !this.#link.isOpen) return;
        this.run(this.#endpoint.tick(this.#options.now()));
      },
      Math.max(0, Math.ceil(at - this.#options.now())),
    );
  }

  #clearTimer(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
