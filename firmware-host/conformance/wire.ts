/**
 * The host's end of the line for a conformance run: it writes exactly the
 * frames the suite scripts (none of a link session's own: no automatic
 * retransmission, ACKs only when told or in `autoAck` mode) and records
 * everything both ways in a trace. Waits take a stated timeout and end early
 * when the line closes, so no check can hang. Authentication (§ 5) runs
 * through the pure `HostAuth` once the suite engages it.
 */
import {
  type HandshakeSecrets,
  HostAuth,
  type HostAuthAction,
  type HostSigner,
} from '../../device-protocol/auth/host-auth.ts';
import type { DevicePublicKey } from '../../device-protocol/auth/keys.ts';
import { crc16Hex } from '../../device-protocol/crc.ts';
import {
  type DeviceTalker,
  encodeFrame,
  type Frame,
  type FrameEvent,
  frameBody,
} from '../../device-protocol/frame.ts';
import { FrameDecoder } from '../../device-protocol/frame-decoder.ts';
import { encodeMessage, type Message } from '../../device-protocol/messages.ts';
import { freshHandshakeSecrets, processHostKey } from '../../hardware/keys/device-key.ts';
import type { Transport, TransportClose } from '../../hardware/transports/transport.ts';
import { isEventType, isReliableType, type TraceEntry } from './trace.ts';

/** Timers the waits use; a test may pass fake ones. */
export interface WireClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const SYSTEM_CLOCK: WireClock = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** A frame the device sent, as delivered (a MAC checked and stripped), with where it sits in the inbox. */
export interface Received {
  readonly frame: Frame;
  readonly at: number;
  readonly index: number;
}

export class WaitTimeout extends Error {
  constructor(
    readonly what: string,
    readonly ms: number,
    readonly sawDetail: string,
  ) {
    super(`no ${what} within ${ms} ms; ${sawDetail}`);
  }
}

export class LineClosed extends Error {
  constructor(
    readonly what: string,
    readonly info: TransportClose,
  ) {
    super(`the line closed while waiting for ${what}: ${info.reason}`);
  }
}

/** The most trace entries kept: a flooding device cannot exhaust memory. */
const MAX_TRACE = 50_000;

interface Waiter {
  readonly offer: (received: Received) => void;
  readonly closed: () => void;
}

export class HostWire {
  readonly trace: TraceEntry[] = [];
  /** Frames delivered by the device, in order. */
  readonly inbox: Received[] = [];
  /** What the authentication did, for the auth check. */
  readonly authLog: HostAuthAction[] = [];
  /** ACK HELLO, PING and PONG from the device at once, and answer its PINGs. */
  autoAck = false;
  /** ACK events at once too (a check that withholds an event's ACK turns this off). */
  ackEvents = false;
  /** A HELLO from the device was delivered since the line opened first. */
  helloSeen = false;
  #nakedForHello = new Set<number>();
  /** Lines dropped from the trace once it was full. */
  droppedTrace = 0;
  #seq = 0;
  #pendingWrites = 0;
  #decoder = new FrameDecoder();
  #auth: HostAuth | undefined;
  #authTimer: unknown;
  #closed: TransportClose | undefined;
  #waiters = new Set<Waiter>();
  readonly #onData = (chunk: Buffer) => this.#data(chunk);
  readonly #onClose = (info: TransportClose) => this.#close(info);

  constructor(
    readonly transport: Transport,
    readonly clock: WireClock = SYSTEM_CLOCK,
  ) {}

  get isOpen(): boolean {
    return this.transport.isOpen;
  }

  /** Why the line closed by itself, if it did since it was last opened. */
  get closedBy(): TransportClose | undefined {
    return this.#closed;
  }

  async open(timeoutMs: number): Promise<void> {
    this.transport.on('data', this.#onData);
    this.transport.on('close', this.#onClose);
    this.#closed = undefined;
    this.#decoder = new FrameDecoder();
    await this.within(
      this.transport.open(),
      timeoutMs,
      `${this.transport.url}: did not open within ${timeoutMs} ms`,
    );
  }

  /** `promise`, or a rejection with `message` once `ms` have passed on the wire's clock. */
  async within<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
    let timer: unknown;
    const timeout = new Promise<never>((_, reject) => {
      timer = this.clock.setTimeout(() => reject(new Error(message)), ms);
    });
    try {
      return await Promise.race([promise, timeout]);
    } finally {
      this.clock.clearTimeout(timer);
    }
  }

  /** Closes the line (ours: expected); the listeners stay for a reopen. */
  async close(): Promise<void> {
    this.transport.off('data', this.#onData);
    this.transport.off('close', this.#onClose);
    this.clock.clearTimeout(this.#authTimer);
    await this.within(this.transport.close(), 5_000, `${this.transport.url}: did not close`);
  }

  /** Drops the line and opens it again, as a cable pulled and plugged back. */
  async reopen(timeoutMs: number): Promise<void> {
    await this.close();
    this.#record({ dir: 'mark', at: this.clock.now(), what: 'reopened' });
    await this.open(timeoutMs);
  }

  // ------------------------------------------------------------ sending

  /** Sends a message with the host's next seq (ACK and NAK carry it without taking it, § 3.8). */
  async send(message: Message): Promise<number> {
    const { type, fields } = encodeMessage(message);
    return this.sendFrame({ talker: 'HO', seq: this.#seq, type, fields });
  }

  /**
   * Sends a frame of any type (an unknown one too) with the host's next seq; `seal`: sealed
   * by the caller (a hostile host's own session), not by the engaged authentication.
   */
  async sendFrame(frame: Frame, seal?: (line: string) => string): Promise<number> {
    const numbered = { ...frame, seq: this.#seq };
    if (isReliableType(frame.type)) this.#seq = (this.#seq + 1) % 65536;
    const line = seal ? seal(encodeFrame(numbered)) : this.sealedLine(numbered);
    this.lastLine = line;
    await this.#write(line, numbered);
    return numbered.seq;
  }

  /** The line of a frame, sealed as it would go, for sending the same line again. */
  sealedLine(frame: Frame): string {
    const line = encodeFrame(frame);
    return this.#auth ? this.#auth.outgoing(line, frame.type) : line;
  }

  /** The last line `sendFrame` wrote, as it went on the wire. */
  lastLine = '';

  /** Takes the host's next seq for a frame sent later, or never (a line kept for a replay). */
  takeSeq(): number {
    const seq = this.#seq;
    this.#seq = (this.#seq + 1) % 65536;
    return seq;
  }

  /** The host's next seq, without taking it. */
  get nextSeq(): number {
    return this.#seq;
  }

  /** Device seqs the host has ACKed. */
  readonly acked = new Set<number>();

  ack(seq: number): Promise<number> {
    this.acked.add(seq);
    return this.send({ type: 'ACK', ackedSeq: seq });
  }

  /** ACKs every event delivered so far that is not ACKed yet (a check withheld them). */
  async ackPending(): Promise<void> {
    for (const received of this.eventsSince(0)) {
      if (!this.acked.has(received.frame.seq)) await this.ack(received.frame.seq);
    }
  }

  /** Writes a line as given: a deliberately broken frame, or a copy of one sent before. */
  async sendLine(line: string, frame?: Frame): Promise<void> {
    await this.#write(line, frame);
  }

  /** A frame whose CRC is wrong by one: what a damaged line looks like (§ 2.1). */
  badCrcLine(frame: Frame): string {
    const body = frameBody(frame);
    const good = Number.parseInt(crc16Hex(body), 16);
    const wrong = (good ^ 0x0001).toString(16).toUpperCase().padStart(4, '0');
    return `$${body}*${wrong}\r\n`;
  }

  async #write(line: string, frame: Frame | undefined): Promise<void> {
    this.#record({ dir: 'out', at: this.clock.now(), line, ...(frame ? { frame } : {}) });
    if (!this.transport.isOpen) return;
    // Handed to the transport in order, not awaited: a line that stops taking bytes (flow
    // control stuck) then shows as a device that does not answer, and no check waits on a write.
    this.#pendingWrites++;
    void this.transport
      .write(Buffer.from(line, 'latin1'))
      .catch(() => undefined) // a failed write shows as a line closed or a device that does not answer
      .finally(() => this.#pendingWrites--);
  }

  // ------------------------------------------------------------ authentication

  /**
   * Starts authentication with the device's HELLO (after the host ACKed it,
   * § 5.2): from here on every frame passes HostAuth, which writes the
   * CHALLENGEs and checks and strips the MACs.
   */
  engageAuth(
    hello: Frame,
    talker: DeviceTalker,
    paired: DevicePublicKey | undefined,
    hostKey: HostSigner | undefined,
  ): void {
    this.#auth = new HostAuth({
      talker,
      fresh: () => {
        const secrets = freshHandshakeSecrets();
        this.handshakeSecrets.push(secrets);
        return secrets;
      },
      // The table's key the device was paired with (--host-key), else one of this run's only.
      hostKey: hostKey ?? processHostKey(),
      ...(paired === undefined ? {} : { paired }),
    });
    this.#authActions(
      this.#auth.incoming({ kind: 'frame', frame: hello }, this.clock.now()),
      false,
    );
  }

  /**
   * The host stops authenticating (and answering): from here on the device's frames are
   * delivered as they come, a MAC still on, for a hostile host's checks to judge.
   */
  detachAuth(): void {
    this.#auth = undefined;
    this.clock.clearTimeout(this.#authTimer);
  }

  /** The nonce and ephemeral key of every CHALLENGE the host made: a replay check derives a replayed one's keys. */
  readonly handshakeSecrets: HandshakeSecrets[] = [];

  get authState(): string | undefined {
    return this.#auth?.state;
  }

  #authActions(actions: readonly HostAuthAction[], deliver: boolean): void {
    // In HostAuth's order, as the driver's endpoint takes them: a CONFIRM goes out before the
    // sealed ACK of the HELLO it proved (1.7), else the device drops that ACK, having no keys yet.
    for (const action of actions) {
      if (action.kind === 'write') void this.#write(action.line, undefined);
      else if (action.kind === 'pass') {
        if (deliver && action.event.kind === 'frame') this.#deliver(action.event.frame);
      } else this.authLog.push(action);
    }
    this.#scheduleAuth();
  }

  #scheduleAuth(): void {
    this.clock.clearTimeout(this.#authTimer);
    const deadline = this.#auth?.nextDeadline();
    if (deadline === undefined) return;
    this.#authTimer = this.clock.setTimeout(
      () => {
        if (this.#auth && this.transport.isOpen) {
          this.#authActions(this.#auth.tick(this.clock.now()), true);
        }
      },
      Math.max(0, deadline - this.clock.now()),
    );
  }

  // ------------------------------------------------------------ receiving

  #data(chunk: Buffer): void {
    for (const event of this.#decoder.push(chunk)) this.#event(event);
  }

  #event(event: FrameEvent): void {
    this.#record({ dir: 'in', at: this.clock.now(), event });
    if (this.#auth) {
      this.#authActions(this.#auth.incoming(event, this.clock.now()), true);
      return;
    }
    if (event.kind === 'frame') this.#deliver(event.frame);
  }

  #deliver(frame: Frame): void {
    const received: Received = { frame, at: this.clock.now(), index: this.inbox.length };
    if (this.inbox.length < MAX_TRACE) this.inbox.push(received);
    const isEvent = isEventType(frame.type);
    if (frame.type === 'HELLO') this.helloSeen = true;
    else if (isEvent && !this.helloSeen && !this.#nakedForHello.has(frame.seq)) {
      // § 4: events from a device whose HELLO the host has not seen (it was running before
      // the line opened) get NAK,<seq>,hello, which asks it for a new HELLO.
      this.#nakedForHello.add(frame.seq);
      void this.send({ type: 'NAK', nakedSeq: frame.seq, reason: 'hello' });
    }
    if (this.autoAck && isReliableType(frame.type) && (this.ackEvents || !isEvent)) {
      // The ACK goes out now; a CHALLENGE HostAuth asked for follows it (§ 5.2: ACK, then CHALLENGE).
      void this.ack(frame.seq);
      if (frame.type === 'PING') {
        const token = frame.fields[0];
        void this.send({ type: 'PONG', ...(token ? { token } : {}) });
      }
    }
    for (const waiter of [...this.#waiters]) waiter.offer(received);
  }

  #close(info: TransportClose): void {
    if (info.expected) return;
    this.#closed = info;
    for (const waiter of [...this.#waiters]) waiter.closed();
  }

  #record(entry: TraceEntry): void {
    if (this.trace.length < MAX_TRACE) this.trace.push(entry);
    else this.droppedTrace++;
  }

  // ------------------------------------------------------------ waiting

  /**
   * The first delivered frame from inbox index `from` on that `match` accepts;
   * rejects with WaitTimeout (naming what the device did meanwhile) after
   * `timeoutMs`, or LineClosed when the line closes first.
   */
  async waitFor(
    what: string,
    match: (frame: Frame) => boolean,
    timeoutMs: number,
    from = this.inbox.length,
  ): Promise<Received> {
    const started = this.clock.now();
    const traceFrom = this.trace.length;
    for (let index = from; index < this.inbox.length; index++) {
      if (match(this.inbox[index]!.frame)) return this.inbox[index]!;
    }
    const outcome = await new Promise<Received | 'timeout' | 'closed'>((resolve) => {
      if (this.#closed) {
        resolve('closed');
        return;
      }
      let timer: unknown;
      const waiter: Waiter = {
        offer: (received) => {
          if (received.index >= from && match(received.frame)) finish(received);
        },
        closed: () => finish('closed'),
      };
      const finish = (value: Received | 'timeout' | 'closed') => {
        this.clock.clearTimeout(timer);
        this.#waiters.delete(waiter);
        resolve(value);
      };
      this.#waiters.add(waiter);
      timer = this.clock.setTimeout(() => finish('timeout'), timeoutMs);
    });
    if (outcome === 'closed') throw new LineClosed(what, this.#closed!);
    if (outcome === 'timeout') {
      throw new WaitTimeout(what, Math.round(this.clock.now() - started), this.sawSince(traceFrom));
    }
    return outcome;
  }

  /** Lets `ms` pass (a grace period in which something must NOT happen); ends early if the line closes. */
  async pause(ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      let timer: unknown;
      const waiter: Waiter = { offer: () => undefined, closed: () => finish() };
      const finish = () => {
        this.clock.clearTimeout(timer);
        this.#waiters.delete(waiter);
        resolve();
      };
      this.#waiters.add(waiter);
      timer = this.clock.setTimeout(finish, ms);
    });
  }

  /** What the device sent since trace index `from`, in a few words. */
  sawSince(from: number): string {
    const entries = this.trace.slice(from).filter((entry) => entry.dir === 'in');
    const stuck =
      this.#pendingWrites > 0
        ? `; ${this.#pendingWrites} lines the host wrote are still not taken by the line`
        : '';
    if (entries.length === 0) return `the device sent nothing${stuck}`;
    const frames: string[] = [];
    const discards = new Map<string, number>();
    for (const entry of entries) {
      if (entry.dir !== 'in') continue;
      const event = entry.event;
      if (event.kind === 'frame') {
        frames.push(`${event.frame.type} ${event.frame.seq}`);
      } else {
        discards.set(event.reason, (discards.get(event.reason) ?? 0) + 1);
      }
    }
    const parts: string[] = [];
    if (frames.length > 0) {
      const shown = frames.slice(0, 6).join(', ');
      const noun = frames.length === 1 ? 'frame' : 'frames';
      parts.push(`${frames.length} ${noun} (${shown}${frames.length > 6 ? ', ...' : ''})`);
    }
    for (const [reason, count] of discards) parts.push(`${count} unreadable (${reason})`);
    return `the device sent ${parts.join(' and ')}${stuck}`;
  }

  /** Events (not HELLO, PING, PONG) delivered from inbox index `from` on. */
  eventsSince(from: number): Received[] {
    return this.inbox.slice(from).filter((received) => isEventType(received.frame.type));
  }
}
