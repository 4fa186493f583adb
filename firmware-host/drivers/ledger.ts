/**
 * The receive ledger: what a driver has already passed on, by the device's
 * seq, so that a frame the device sends again is never emitted twice.
 *
 * Why the link session's own dedupe is not enough: a device HELLO empties
 * the session's window (a restarted device starts its seqs over), but a
 * device that merely reconnected also says HELLO first and then retransmits
 * every frame we had not ACKed, with the seqs they had. The two cases differ
 * in one way the ledger uses: a reconnecting device keeps counting, so the
 * frames it retransmits carry seqs *before* the seq of its new HELLO, while
 * a restarted device's new frames come *after* it. So after a HELLO at seq
 * h, a frame whose seq lies in the `lookback` seqs before h and matches an
 * entry (same seq, same content) is a retransmission; anything else is new.
 *
 * Pure: no I/O, no clock.
 */
import { SEQ_MODULUS } from '../../device-protocol/frame.ts';

export type LedgerVerdict =
  /** Never seen: pass it on. */
  | 'new'
  /** Seen, and the caller has made it durable: ACK it again at once. */
  | 'duplicate_durable'
  /** Seen, not yet durable: its ACK goes when the caller confirms it. */
  | 'duplicate_pending';

/**
 * What identifies a frame's content: a string is compared as it is, anything
 * else (the decoded message) by its JSON, made only when a seq comes again,
 * so a frame seen once (every card) is never serialized for the ledger.
 */
export type LedgerContent = string | object;

const fingerprintOf = (content: LedgerContent) =>
  typeof content === 'string' ? content : JSON.stringify(content);

interface Entry {
  content: LedgerContent;
  durable: boolean;
}

export interface LedgerOptions {
  /** Entries kept; the oldest durable ones are forgotten first. */
  capacity?: number;
  /** How far before a HELLO's seq a frame counts as a retransmission. */
  lookback?: number;
}

export class ReceiveLedger {
  private readonly entries = new Map<number, Entry>();
  private readonly capacity: number;
  private readonly lookback: number;
  /** Seq of the device's last HELLO; undefined before the first. */
  private helloSeq: number | undefined;
  duplicates = 0;

  constructor(options: LedgerOptions = {}) {
    this.capacity = options.capacity ?? 4096;
    this.lookback = options.lookback ?? 2048;
  }

  /** The device said HELLO with this seq. */
  hello(seq: number): void {
    this.helloSeq = seq;
  }

  /** Whether `seq` lies in the lookback before the last HELLO (modulo the seq wrap). */
  private beforeHello(seq: number): boolean {
    if (this.helloSeq === undefined) return false;
    const distance = (this.helloSeq - seq + SEQ_MODULUS) % SEQ_MODULUS;
    return distance >= 1 && distance <= this.lookback;
  }

  /**
   * Classifies a delivered frame and remembers it. A frame the link session
   * delivers between two HELLOs is always new (the session drops duplicates
   * itself there); only frames from before the last HELLO can repeat.
   */
  classify(seq: number, content: LedgerContent): LedgerVerdict {
    const known = this.entries.get(seq);
    if (known && this.beforeHello(seq) && fingerprintOf(known.content) === fingerprintOf(content)) {
      this.duplicates++;
      return known.durable ? 'duplicate_durable' : 'duplicate_pending';
    }
    this.entries.delete(seq);
    this.entries.set(seq, { content, durable: false });
    this.trim();
    return 'new';
  }

  /** The caller made the frame at `seq` durable (or it needs no durability). */
  markDurable(seq: number): void {
    const entry = this.entries.get(seq);
    if (entry) entry.durable = true;
  }

  isDurable(seq: number): boolean {
    return this.entries.get(seq)?.durable ?? false;
  }

  get size(): number {
    return this.entries.size;
  }

  private trim(): void {
    if (this.entries.size <= this.capacity) return;
    for (const [seq, entry] of this.entries) {
      if (this.entries.size <= this.capacity) return;
      if (entry.durable) this.entries.delete(seq);
    }
    // Everything pending: forget the oldest anyway rather than grow without bound.
    for (const seq of this.entries.keys()) {
      if (this.entries.size <= this.capacity) return;
      this.entries.delete(seq);
    }
  }
}
