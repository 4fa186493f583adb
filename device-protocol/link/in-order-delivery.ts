/**
 * The host's in-order delivery of a 1.2 device's events (PROTOCOL.md
 * § 3.8), pure: the link session hands it each reliable frame of such a
 * peer after the dedupe and HELLO checks, and it delivers the frame now
 * (through the session's `accept`), holds it past a missing seq (NAKing
 * that seq `missing` once), or gives up on a gap a device keeping to its
 * window never leaves.
 */
import { type Frame, nextSeq, SEQ_MODULUS } from '../frame.ts';
import { decodeMessage } from '../messages.ts';

/** How far before a HELLO's seq an owed ACK still belongs to that device's counting. */
export const OWED_LOOKBACK = 2048;

/** How many seqs `to` lies after `from`, modulo the wrap (0..65535). */
export function distance(from: number, to: number): number {
  return (to - from + SEQ_MODULUS) % SEQ_MODULUS;
}

/**
 * How far past the next expected seq a 1.2 event may arrive and be held:
 * twice the largest window, for the control frames in between. Control
 * frames themselves may be any distance ahead (see `take`).
 */
const REORDER_LIMIT = 64;
/** Control seqs remembered ahead of `next`: a handful, more behind a long backlog. */
const PASSED_LIMIT = 1024;
const CONTROL_TYPES = new Set<string>(['HELLO', 'PING', 'PONG']);

type Decoded = ReturnType<typeof decodeMessage>;

/** What the link session does for the delivery: take a frame in, NAK a seq, report a discard. */
export interface OrderSink<Action> {
  accept(frame: Frame, decoded: Decoded, now: number): Action[];
  nak(seq: number): Action;
  discarded(
    reason: 'held' | 'order_gap',
    detail: string,
    about: { talker: Frame['talker']; seq: number },
  ): Action;
}

export class InOrderDelivery<Action> {
  /** The seq to deliver next; undefined after a HELLO until its first event sets it. */
  next: number | undefined;
  /** Events that arrived past a missing seq, by seq. */
  readonly held = new Map<number, Frame>();
  /** Control frames (HELLO, PING, PONG) already delivered ahead of `next`: skipped when reached. */
  readonly passed: Set<number>;
  /** The missing seq last NAKed `missing`, so that a gap is NAKed once. */
  nakedGap: number | undefined;
  /** When `nakedGap` was last NAKed. */
  nakedAt: number;
  readonly #sink: OrderSink<Action>;

  constructor(sink: OrderSink<Action>, passed: readonly number[], now: number) {
    this.#sink = sink;
    this.passed = new Set(passed);
    this.nakedAt = now;
  }

  /** A 1.2 peer's frame: delivered in seq order, or held until the seqs before it arrive. */
  take(frame: Frame, decoded: Decoded, now: number): Action[] {
    const control = CONTROL_TYPES.has(frame.type);
    if (this.next === undefined) {
      // After a HELLO the device sends one event alone (slow start): the first event sets the order.
      if (control) return this.#acceptAhead(frame, decoded, now);
      this.next = frame.seq;
      this.#forgetPassedBehind(this.next);
    }
    const ahead = distance(this.next, frame.seq);
    if (ahead === 0) {
      const actions = this.#sink.accept(frame, decoded, now);
      this.next = nextSeq(frame.seq);
      actions.push(...this.drain(now));
      return actions;
    }
    // A device numbers its frames when it queues them, so its HELLO, PING and PONG
    // run ahead of its window by its whole backlog: never a gap to give up on.
    if (control && ahead < SEQ_MODULUS / 2) {
      return this.#acceptAhead(frame, decoded, now);
    }
    if (ahead <= REORDER_LIMIT) {
      this.held.set(frame.seq, frame);
      const actions: Action[] = [
        this.#sink.discarded('held', `seq ${frame.seq} held until seq ${this.next} arrives`, {
          talker: frame.talker,
          seq: frame.seq,
        }),
      ];
      if (this.nakedGap !== this.next) {
        // Ask for the missing frame now rather than at the device's retransmission timer.
        this.nakedGap = this.next;
        this.nakedAt = now;
        actions.push(this.#sink.nak(this.next));
      }
      return actions;
    }
    if (ahead < SEQ_MODULUS - OWED_LOOKBACK) {
      // Far ahead: not a device keeping to its window. Rather than wait for ever,
      // deliver what is held in seq order, then this frame, and go on from it.
      const missing = this.next;
      const actions: Action[] = [
        this.#sink.discarded('order_gap', `seq ${missing} never arrived; delivering without it`, {
          talker: frame.talker,
          seq: missing,
        }),
      ];
      const held = [...this.held.keys()].sort(
        (a, b) => distance(missing, a) - distance(missing, b),
      );
      for (const seq of held) {
        const heldFrame = this.held.get(seq)!;
        this.held.delete(seq);
        actions.push(...this.#sink.accept(heldFrame, decodeMessage(heldFrame), now));
      }
      this.nakedGap = undefined;
      actions.push(...this.#sink.accept(frame, decoded, now));
      this.next = nextSeq(frame.seq);
      // The control frames passed ahead of the new order (a HELLO sent ahead of the backlog)
      // stay passed: the device took their ACKs, and fills a hole at one with a copy.
      this.#forgetPassedBehind(this.next);
      return actions;
    }
    // Behind the order: a late copy the dedupe window no longer knows; taken as it comes.
    return this.#sink.accept(frame, decoded, now);
  }

  /** Delivers the held events the order has reached. */
  drain(now: number): Action[] {
    const actions: Action[] = [];
    for (;;) {
      const next = this.next;
      if (next === undefined) break;
      if (this.passed.delete(next)) {
        this.next = nextSeq(next);
        continue;
      }
      const frame = this.held.get(next);
      if (frame === undefined) {
        if (this.held.size > 0 && this.nakedGap !== next) {
          // Frames past this seq are held too: ask for it now, not at the device's timer.
          this.nakedGap = next;
          this.nakedAt = now;
          actions.push(this.#sink.nak(next));
        }
        break;
      }
      this.held.delete(next);
      actions.push(...this.#sink.accept(frame, decodeMessage(frame), now));
      this.next = nextSeq(next);
    }
    return actions;
  }

  /** Forgets the passed seqs the order has left behind. */
  #forgetPassedBehind(next: number): void {
    for (const seq of this.passed) {
      if (distance(next, seq) >= SEQ_MODULUS / 2) this.passed.delete(seq);
    }
  }

  /** A control frame ahead of the order: delivered now, and skipped when the order reaches it. */
  #acceptAhead(frame: Frame, decoded: Decoded, now: number): Action[] {
    this.passed.add(frame.seq);
    for (const seq of this.passed) {
      if (this.passed.size <= PASSED_LIMIT) break;
      this.passed.delete(seq);
    }
    return this.#sink.accept(frame, decoded, now);
  }
}
