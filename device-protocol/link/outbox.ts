/**
 * The sending half of the link session, shared by both roles: the queue of
 * frames not yet sent, the frames awaiting their ACK, seq allocation, the
 * in-flight limit, retransmission with backoff and giving up (PROTOCOL.md
 * § 3). Where the roles differ (may events flow yet, how wide the window
 * is, in which order frames count), it asks its `SendPolicy`.
 */
import { nextSeq } from '../frame.ts';
import type { HelloMessage, Message } from '../messages.ts';
import type { LinkAction, LinkStats } from './actions.ts';
import { distance } from './in-order-delivery.ts';
import type { ResolvedLinkOptions } from './options.ts';

export interface Outgoing {
  readonly seq: number;
  readonly type: string;
  readonly line: string;
  /** Control frames (HELLO, PING, PONG) bypass the in-flight limit and the HELLO gate. */
  readonly control: boolean;
  attempts: number;
  lastSentAt: number;
  /** When a NAK last sent it again: NAKs read together send it once. */
  nakResentAt?: number;
  /** Transmitted since our latest HELLO (slow start holds back the ones that were not). */
  sentSinceHello: boolean;
  /**
   * ACKed, but kept: a 1.2 device releases its frames in seq order only, so
   * that after a HELLO it sends again every frame past its oldest
   * unacknowledged one, and the host's order has no hole it cannot fill.
   */
  acked: boolean;
  /** The `acked` action was reported (once per frame, however often it is ACKed again). */
  reported: boolean;
}

/** The role's say in what the outbox sends (the host's answers are the plain ones). */
export interface SendPolicy {
  /** Whether queued events may go now (a device: once the host ACKed its HELLO). */
  eventsMayFlow(): boolean;
  /** Event frames that may be unacknowledged at once now. */
  eventWindow(): number;
  /** Frames in flight, oldest first. */
  inFlightInOrder(): Outgoing[];
  /** Of the frames that may be sent again, those a timer or a NAK without seq sends. */
  resendable(retransmittable: Outgoing[]): Outgoing[];
  /** A HELLO of ours is about to be queued. */
  helloQueued(hello: HelloMessage): void;
  /** A frame of ours ran out of attempts and was dropped. */
  gaveUp(entry: Outgoing): void;
}

const CONTROL_TYPES = new Set<string>(['HELLO', 'PING', 'PONG']);

export class Outbox {
  /** Unacknowledged frames by seq, in transmission order. */
  readonly inFlight = new Map<number, Outgoing>();
  /** Frames not yet transmitted, in order. */
  queue: Outgoing[] = [];
  /** The next seq to allocate. */
  seq: number;
  readonly #options: ResolvedLinkOptions;
  readonly #stats: LinkStats;
  #policy!: SendPolicy;

  constructor(options: ResolvedLinkOptions, stats: LinkStats) {
    this.#options = options;
    this.#stats = stats;
    this.seq = options.initialSeq;
  }

  /** Set once, by the session, to its role (which holds this outbox in turn). */
  set policy(policy: SendPolicy) {
    this.#policy = policy;
  }

  allocateSeq(): number {
    let seq = this.seq;
    // Only with 65536 frames outstanding could a seq still be in use; skip it.
    while (this.holds(seq)) seq = nextSeq(seq);
    this.seq = nextSeq(seq);
    return seq;
  }

  /** Whether `seq` is ours, in flight or queued. */
  holds(seq: number): boolean {
    return this.inFlight.has(seq) || this.queue.some((entry) => entry.seq === seq);
  }

  /** How many seqs ago we allocated `seq` (modulo the wrap): larger is older. */
  age(seq: number): number {
    return distance(seq, this.seq);
  }

  enqueue(
    frame: { seq: number; type: string; line: string; message?: Message },
    now: number,
  ): LinkAction[] {
    if (this.queue.length >= this.#options.maxQueued) {
      this.#stats.failed++;
      return [
        { kind: 'failed', seq: frame.seq, type: frame.type, reason: 'queue_full', attempts: 0 },
      ];
    }
    const entry: Outgoing = {
      seq: frame.seq,
      type: frame.type,
      line: frame.line,
      control: CONTROL_TYPES.has(frame.type),
      attempts: 0,
      lastSentAt: now,
      sentSinceHello: false,
      acked: false,
      reported: false,
    };
    if (frame.message?.type === 'HELLO') {
      this.#policy.helloQueued(frame.message);
      // On either side a new HELLO supersedes one never ACKed (sent into a dead line, or
      // before the line was reopened): retransmitted later, the old one would read as another
      // restart, and the device would send again everything it holds.
      for (const old of [...this.inFlight.values()]) {
        if (old.type === 'HELLO') this.inFlight.delete(old.seq);
      }
      this.queue = this.queue.filter((old) => old.type !== 'HELLO');
    }
    this.queue.push(entry);
    return this.pump(now);
  }

  /** Sends a control frame of ours at once, past the queue (a 1.2 device filling a hole). */
  sendControlNow(seq: number, type: string, line: string, now: number): LinkAction {
    this.inFlight.set(seq, {
      seq,
      type,
      line,
      control: true,
      attempts: 1,
      lastSentAt: now,
      sentSinceHello: true,
      acked: false,
      reported: false,
    });
    this.#stats.sent++;
    return { kind: 'send', line, seq, type, attempt: 1 };
  }

  /** Transmits queued frames as far as the in-flight limit and the HELLO gate allow. */
  pump(now: number): LinkAction[] {
    const actions: LinkAction[] = [];
    const eventsMayFlow = this.#policy.eventsMayFlow();
    const window = this.#policy.eventWindow();
    let eventsInFlight = 0;
    for (const entry of this.inFlight.values()) if (!entry.control) eventsInFlight++;
    const waiting: Outgoing[] = [];
    let blocked = false;
    let controlsLeft = 0;
    for (const entry of this.queue) if (entry.control) controlsLeft++;
    for (const [index, entry] of this.queue.entries()) {
      if (blocked && controlsLeft === 0) {
        // Only events wait behind the block: a long backlog is not walked on every ACK.
        waiting.push(...this.queue.slice(index));
        break;
      }
      if (entry.control) controlsLeft--;
      // Events keep their order: once one must wait, the ones after it wait too.
      const go = entry.control || (!blocked && eventsMayFlow && eventsInFlight < window);
      if (!go) {
        if (!entry.control) blocked = true;
        waiting.push(entry);
        continue;
      }
      if (!entry.control) eventsInFlight++;
      entry.attempts = 1;
      entry.lastSentAt = now;
      entry.sentSinceHello = true;
      this.inFlight.set(entry.seq, entry);
      this.#stats.sent++;
      actions.push({
        kind: 'send',
        line: entry.line,
        seq: entry.seq,
        type: entry.type,
        attempt: 1,
      });
    }
    this.queue = waiting;
    return actions;
  }

  retransmit(entry: Outgoing, now: number): LinkAction[] {
    const limit = this.#options.maxAttempts;
    if (limit > 0 && entry.attempts >= limit) {
      this.inFlight.delete(entry.seq);
      this.#stats.failed++;
      this.#policy.gaveUp(entry);
      return [
        {
          kind: 'failed',
          seq: entry.seq,
          type: entry.type,
          reason: 'no_ack',
          attempts: entry.attempts,
        },
      ];
    }
    entry.attempts++;
    entry.lastSentAt = now;
    entry.sentSinceHello = true;
    this.#stats.sent++;
    this.#stats.retransmitted++;
    return [
      { kind: 'send', line: entry.line, seq: entry.seq, type: entry.type, attempt: entry.attempts },
    ];
  }

  /** Sends every frame that may go again now, but those `spare` keeps on their timers. */
  retransmitAll(now: number, spare?: (entry: Outgoing) => boolean): LinkAction[] {
    const actions: LinkAction[] = [];
    // HELLO first: a host that missed it would refuse the events.
    const entries = this.retransmittable().sort(
      (a, b) => Number(b.type === 'HELLO') - Number(a.type === 'HELLO'),
    );
    for (const entry of entries) {
      if (entry.lastSentAt >= now || spare?.(entry)) continue;
      actions.push(...this.retransmit(entry, now));
    }
    actions.push(...this.pump(now));
    return actions;
  }

  /** Retransmits what timed out and gives up on what ran out of attempts. */
  tick(now: number): LinkAction[] {
    const actions: LinkAction[] = [];
    for (const entry of this.resendable()) {
      if (now - entry.lastSentAt < this.timeout(entry.attempts)) continue;
      actions.push(...this.retransmit(entry, now));
    }
    actions.push(...this.pump(now));
    return actions;
  }

  /** When `tick` must be called next at the latest; undefined when nothing waits for an ACK. */
  nextDeadline(): number | undefined {
    let deadline: number | undefined;
    for (const entry of this.resendable()) {
      const due = entry.lastSentAt + this.timeout(entry.attempts);
      if (deadline === undefined || due < deadline) deadline = due;
    }
    return deadline;
  }

  timeout(attempts: number): number {
    const grown =
      this.#options.ackTimeoutMs * this.#options.backoffFactor ** Math.max(0, attempts - 1);
    // Retransmitting forever, the backoff would grow without bound (and overflow to Infinity).
    return Math.round(
      Math.min(grown, Math.max(this.#options.ackTimeoutMs, this.#options.maxAckTimeoutMs)),
    );
  }

  /** Frames in flight within the window: every control frame, and the oldest events. */
  withinWindow(): Outgoing[] {
    const window = this.#policy.eventWindow();
    let events = 0;
    return this.#policy.inFlightInOrder().filter((entry) => entry.control || ++events <= window);
  }

  /**
   * Frames that may be sent again now: those within the window still
   * unacknowledged, and those ACKed but kept that were not sent since our
   * latest HELLO.
   */
  retransmittable(): Outgoing[] {
    return this.withinWindow().filter((entry) => !entry.acked || !entry.sentSinceHello);
  }

  /** What a timer or a NAK without seq sends again. */
  resendable(): Outgoing[] {
    return this.#policy.resendable(this.retransmittable());
  }
}
