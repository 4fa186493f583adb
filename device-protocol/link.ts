/**
 * The link session: reliable delivery over one line, as a pure state
 * machine (PROTOCOL.md § Link). No I/O and no clock: every input carries
 * `now` (milliseconds, any monotonic origin) and returns the actions the
 * caller must carry out, in order (write `send.line` to the port, hand
 * `deliver.message` on, ...). Call `tick(now)` by `nextDeadline()` at the
 * latest so that retransmissions happen.
 *
 * Rules, in short:
 * - every received frame but ACK and NAK is ACKed (unknown TYPE included:
 *   ACKed and reported `unsupported`); the ACK of the types in `deferAck`
 *   waits for `ack(seq)` (the host ACKs a CARD once its journal record is
 *   durable), so the device retransmits until then;
 * - a bad CRC, a malformed or an over-long line is answered by a NAK;
 * - a frame already seen (its seq is in the peer's window of recent seqs)
 *   is ACKed again but not delivered; a peer HELLO empties that window,
 *   because a device that restarted starts its seqs over;
 * - own frames are retransmitted after `ackTimeoutMs` (times
 *   `backoffFactor` per attempt, at most `maxAckTimeoutMs`), at most
 *   `maxAttempts` transmissions, then reported `failed` (`maxAttempts: 0`:
 *   never, as a device that must not give a card up); a NAK naming an
 *   unacknowledged frame resends it now (once for all the NAKs read at one
 *   `now`), and so does `retransmitNow()` for every unacknowledged frame (a
 *   device whose line has just reopened);
 * - at most `maxInFlight` event frames are unacknowledged at once; HELLO,
 *   PING and PONG bypass that queue. Without protocol 1.2 on both sides,
 *   only 1 (stop and wait) keeps events in order;
 * - protocol 1.2, the in-order window (PROTOCOL.md § 4 item 9), keyed on the
 *   HELLOs: a device announcing 1.2 numbers only its reliable frames (its
 *   ACK and NAK carry the next seq without taking it), uses its window only
 *   with a host that announced 1.2, and after each HELLO of its own sends
 *   one event alone until an event is ACKed (slow start, so the host learns
 *   where its events resume); it keeps each frame, even ACKed, until the
 *   frames before it are ACKed, and sends what it keeps again after a
 *   HELLO. The host delivers the events of a 1.2 device
 *   in seq order: one that arrives past a missing seq is held, unACKed,
 *   until the gap fills, and the missing seq is NAKed `missing` once;
 * - a device (any local talker but HO) holds its events until the host has
 *   ACKed its HELLO, and sends HELLO again when the host NAKs with `hello`;
 * - the host answers events from a device that has not said HELLO with a
 *   NAK `hello` (unless `requirePeerHello` is false); it never has to send
 *   its own HELLO.
 */
import { z } from 'zod';
import { ProtocolError } from './errors.ts';
import {
  type DiscardReason,
  encodeFrame,
  type Frame,
  type FrameDiscard,
  type FrameEvent,
  isFrameType,
  nextSeq,
  SEQ_MODULUS,
  TALKERS,
  type Talker,
} from './frame.ts';
import { FrameDecoder, framerOptionsSchema } from './frame-decoder.ts';
import {
  decodeMessage,
  type HelloMessage,
  type Message,
  messageFrame,
  protocolAtLeast,
} from './messages.ts';

export const linkOptionsSchema = z
  .object({
    /** Who we are on the wire: `HO` for the host, `SH`/`SF`/`RD` for a device (simulator). */
    localTalker: z.enum(TALKERS),
    /** The one talker expected on this line; frames from others are discarded. Unset: any but our own. */
    peerTalker: z.enum(TALKERS).optional(),
    /** Wait this long for an ACK before sending again. */
    ackTimeoutMs: z.number().int().min(1).max(600_000).default(500),
    /** Each retransmission waits `backoffFactor` times longer than the one before. */
    backoffFactor: z.number().min(1).max(10).default(1.5),
    /** Each wait for an ACK is at most this long, however many attempts the backoff has grown over. */
    maxAckTimeoutMs: z.number().int().min(1).max(3_600_000).default(60_000),
    /**
     * Transmissions of one frame, the first included, before it is reported
     * failed. 0: retransmit forever (a device: a real shoe keeps a card until
     * the host ACKs it).
     */
    maxAttempts: z.number().int().min(0).max(100).default(5),
    /**
     * Unacknowledged event frames at once. Above 1, events stay in order
     * only with protocol 1.2 on both sides (the in-order window); a device
     * announcing 1.2 uses it only with a host that announced 1.2 too.
     */
    maxInFlight: z.number().int().min(1).max(32).default(1),
    /** Frames waiting to be sent; past this, `send` reports `failed` with `queue_full`. */
    maxQueued: z.number().int().min(1).max(4096).default(1024),
    /** Recent seqs remembered per peer to drop duplicates; far below the 65536 wrap. */
    dedupeWindow: z.number().int().min(1).max(4096).default(128),
    /** Types whose ACK waits for `ack(seq)`, e.g. `['CARD']` on the host. */
    deferAck: z.array(z.string().refine(isFrameType, 'expected an upper-case TYPE')).default([]),
    /** Host only: NAK a device's events (`hello`) until it has sent HELLO. */
    requirePeerHello: z.boolean().default(true),
    /** Answer PING with PONG (the PING is delivered too). */
    answerPing: z.boolean().default(true),
    /** First seq this side sends. */
    initialSeq: z.number().int().min(0).max(65535).default(0),
    /** For `receiveBytes`. */
    framer: framerOptionsSchema.default({ maxLineBytes: 250 }),
  })
  .strict()
  .refine((options) => options.peerTalker !== options.localTalker, {
    message: 'peerTalker must differ from localTalker',
    path: ['peerTalker'],
  });

export type LinkOptions = z.input<typeof linkOptionsSchema>;
export type ResolvedLinkOptions = z.output<typeof linkOptionsSchema>;

export function resolveLinkOptions(options: LinkOptions): ResolvedLinkOptions {
  const parsed = linkOptionsSchema.safeParse(options);
  if (!parsed.success) {
    throw new ProtocolError('bad_options', `bad link options: ${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}

/** Why the link dropped something it received. */
export type LinkDiscardReason =
  | DiscardReason
  /** Seq already delivered (a retransmission whose ACK was lost): ACKed again, not delivered. */
  | 'duplicate'
  /** From a talker other than the peer, or our own talker echoed back. */
  | 'wrong_talker'
  /** An event from a device that has not said HELLO: NAKed with `hello`. */
  | 'hello_required'
  /** An ACK or NAK whose fields do not decode. */
  | 'bad_control'
  /**
   * An in-order (1.2) event that arrived past a missing seq: held, not
   * ACKed, and delivered once the gap fills. Not lost: reported so that
   * a line that keeps reordering shows in the counters.
   */
  | 'held'
  /**
   * A 1.2 device's frame arrived so far past a seq that never came that the
   * host stops waiting: the held frames are delivered without it. A device
   * keeping to § 4 item 9 never causes this; it is counted so that one that
   * does shows.
   */
  | 'order_gap';

export type LinkAction =
  /** Write `line` (CR LF included) to the line. `attempt` counts from 1. */
  | {
      readonly kind: 'send';
      readonly line: string;
      readonly seq: number;
      readonly type: string;
      readonly attempt: number;
    }
  /**
   * A new message from the peer. With `ack: 'deferred'` nothing was ACKed
   * yet: call `ack(seq, talker)` once it is safely stored.
   */
  | {
      readonly kind: 'deliver';
      readonly talker: Talker;
      readonly seq: number;
      readonly message: Message;
      readonly ack: 'sent' | 'deferred';
    }
  /** A valid frame of a TYPE this version does not know; ACKed. */
  | {
      readonly kind: 'unsupported';
      readonly talker: Talker;
      readonly seq: number;
      readonly frame: Frame;
    }
  /** A valid frame of a known TYPE with bad fields or from a talker that may not send it; ACKed. */
  | {
      readonly kind: 'invalid';
      readonly talker: Talker;
      readonly seq: number;
      readonly frame: Frame;
      readonly error: string;
    }
  | {
      readonly kind: 'discarded';
      readonly reason: LinkDiscardReason;
      readonly detail: string;
      readonly raw?: string;
      readonly talker?: Talker;
      readonly seq?: number;
    }
  /** The peer ACKed our frame. */
  | { readonly kind: 'acked'; readonly seq: number; readonly type: string }
  /** Our frame was given up: no ACK after `maxAttempts` transmissions, or the queue was full. */
  | {
      readonly kind: 'failed';
      readonly seq: number;
      readonly type: string;
      readonly reason: 'no_ack' | 'queue_full';
      readonly attempts: number;
    }
  /** The peer refused one of our frames (or a frame it could not read, without seq). */
  | { readonly kind: 'nak_received'; readonly seq?: number; readonly reason: string };

export interface LinkStats {
  sent: number;
  retransmitted: number;
  acked: number;
  failed: number;
  received: number;
  delivered: number;
  duplicates: number;
  naksSent: number;
  naksReceived: number;
  discarded: Record<LinkDiscardReason, number>;
}

interface Outgoing {
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

/** A 1.2 peer's events in seq order (PROTOCOL.md § 4 item 9). */
interface Ordering {
  /** The seq to deliver next; undefined after a HELLO until its first event sets it. */
  next: number | undefined;
  /** Events that arrived past a missing seq, by seq. */
  readonly held: Map<number, Frame>;
  /** Control frames (HELLO, PING, PONG) already delivered ahead of `next`: skipped when reached. */
  readonly passed: Set<number>;
  /** The missing seq last NAKed `missing`, so that a gap is NAKed once. */
  nakedGap: number | undefined;
  /** When `nakedGap` was last NAKed. */
  nakedAt: number;
}

interface PeerState {
  /** Recent seqs, oldest first; the value says whether the ACK is still owed by `ack()`. */
  readonly window: Map<number, 'acked' | 'pending'>;
  /**
   * Deferred ACKs still owed for frames delivered before the peer's latest
   * HELLO. A reconnecting device keeps counting (PROTOCOL.md § 4 item 8),
   * so frames whose seqs precede its new HELLO are still its own and still
   * await their ACK; forgetting them would stall it until its retransmission
   * timer. Not used for dedupe (the window is, and a HELLO empties it).
   */
  readonly owed: Set<number>;
  hello?: HelloMessage;
  /**
   * Host side: our end of the line reopened and no HELLO of this peer has
   * arrived since. Its events are refused with NAK `hello` until one does:
   * a HELLO it wrote into the closed port is lost, and the device would
   * otherwise hold its window for a whole ACK timeout waiting for its ACK.
   */
  helloSinceReopen?: false;
  /** Host side, for a peer whose HELLO announced 1.2: in-order delivery. */
  ordering?: Ordering;
}

/** How far before a HELLO's seq an owed ACK still belongs to that device's counting. */
const OWED_LOOKBACK = 2048;

/** How many seqs `to` lies after `from`, modulo the wrap (0..65535). */
function distance(from: number, to: number): number {
  return (to - from + SEQ_MODULUS) % SEQ_MODULUS;
}

/** Whether `seq` came before `hello` in one device's counting (modulo the wrap). */
function precedes(seq: number, hello: number): boolean {
  const distance = (hello - seq + SEQ_MODULUS) % SEQ_MODULUS;
  return distance > 0 && distance <= OWED_LOOKBACK;
}

/** The protocol version that added the in-order window. */
const IN_ORDER_SINCE = '1.2';
/**
 * How far past the next expected seq a 1.2 event may arrive and be held:
 * twice the largest window, for the control frames in between. Control
 * frames themselves may be any distance ahead (see `#inOrder`).
 */
const REORDER_LIMIT = 64;
/** Control seqs remembered ahead of `next`: a handful, more behind a long backlog. */
const PASSED_LIMIT = 1024;

const CONTROL_TYPES = new Set<string>(['HELLO', 'PING', 'PONG']);
/** What a device may send the host before its HELLO was seen. */
const BEFORE_HELLO_TYPES = new Set<string>(['HELLO', 'PING', 'PONG']);

export class LinkSession {
  readonly options: ResolvedLinkOptions;
  readonly #isHost: boolean;
  readonly #deferAck: Set<string>;
  readonly #decoder: FrameDecoder;
  #seq: number;
  /** Unacknowledged frames by seq, in transmission order. */
  readonly #inFlight = new Map<number, Outgoing>();
  /** Frames not yet transmitted, in order. */
  #queue: Outgoing[] = [];
  readonly #peers = new Map<Talker, PeerState>();
  /** Device side: where our HELLO stands, and the HELLO to send again on a NAK `hello`. */
  #helloState: 'none' | 'sent' | 'acked' = 'none';
  #hello: HelloMessage | undefined;
  /** Device side, 1.2: one event at a time after our HELLO until an event is ACKed. */
  #slowStart = false;
  readonly #stats: LinkStats;

  /** Throws ProtocolError `bad_options` on bad options. */
  constructor(options: LinkOptions) {
    this.options = resolveLinkOptions(options);
    this.#isHost = this.options.localTalker === 'HO';
    this.#deferAck = new Set(this.options.deferAck);
    this.#decoder = new FrameDecoder(this.options.framer);
    this.#seq = this.options.initialSeq;
    const discarded = {} as Record<LinkDiscardReason, number>;
    for (const reason of [
      'bad_crc',
      'too_long',
      'malformed',
      'no_start',
      'duplicate',
      'wrong_talker',
      'hello_required',
      'bad_control',
      'held',
      'order_gap',
    ] as const) {
      discarded[reason] = 0;
    }
    this.#stats = {
      sent: 0,
      retransmitted: 0,
      acked: 0,
      failed: 0,
      received: 0,
      delivered: 0,
      duplicates: 0,
      naksSent: 0,
      naksReceived: 0,
      discarded,
    };
  }

  get stats(): LinkStats {
    return structuredClone(this.#stats);
  }

  /** Frames received so far (`stats.received` without copying the stats). */
  get framesReceived(): number {
    return this.#stats.received;
  }

  /** Device side: whether the host has ACKed our HELLO, so that events flow. */
  get helloAcknowledged(): boolean {
    return this.#helloState === 'acked';
  }

  /** The HELLO a peer sent last, if any. */
  peerHello(talker?: Talker): HelloMessage | undefined {
    const key = talker ?? this.options.peerTalker;
    if (key !== undefined) return this.#peers.get(key)?.hello;
    for (const peer of this.#peers.values()) if (peer.hello !== undefined) return peer.hello;
    return undefined;
  }

  /**
   * Frames sent and not yet released (ACKed; for a 1.2 device, ACKed with
   * every frame before them), plus frames waiting to be sent.
   */
  get pending(): { inFlight: number; queued: number } {
    return { inFlight: this.#inFlight.size, queued: this.#queue.length };
  }

  /** When `tick` must be called next at the latest; undefined when nothing waits for an ACK. */
  nextDeadline(): number | undefined {
    let deadline: number | undefined;
    for (const entry of this.#resendable()) {
      const due = entry.lastSentAt + this.#timeout(entry.attempts);
      if (deadline === undefined || due < deadline) deadline = due;
    }
    return deadline;
  }

  /**
   * Queues a message to the peer. Throws ProtocolError when the message is
   * bad or our talker may not send it (a caller bug), and for ACK/NAK, which
   * only the session sends. The `send` action appears now or once the
   * message may go (in-flight limit, device HELLO gate).
   */
  send(message: Message, now: number): LinkAction[] {
    if (message.type === 'ACK' || message.type === 'NAK') {
      throw new ProtocolError('bad_message', `${message.type} is sent by the link session itself`);
    }
    const seq = this.#unansweredHelloSeq(message) ?? this.#allocateSeq();
    const line = encodeFrame(messageFrame(this.options.localTalker, seq, message));
    return this.#enqueue({ seq, type: message.type, line, message }, now);
  }

  /**
   * Device side, before its first HELLO: takes back the events it kept
   * across its own restart (an outbox on disk, PROTOCOL.md § 8.2),
   * with the seqs they had, oldest first; they go once the HELLO is ACKed
   * like frames kept across a reconnect. Construct the session with
   * `initialSeq` past every seq the device ever used.
   */
  restore(frames: readonly { seq: number; message: Message }[]): void {
    for (const { seq, message } of frames) {
      const line = encodeFrame(messageFrame(this.options.localTalker, seq, message));
      this.#enqueue({ seq, type: message.type, line, message }, 0);
    }
  }

  /**
   * Sends a frame of any TYPE with raw fields, unchecked beyond the grammar:
   * for simulators and tests (e.g. a TYPE the peer does not know).
   */
  sendRaw(type: string, fields: readonly string[], now: number): LinkAction[] {
    if (type === 'ACK' || type === 'NAK') {
      throw new ProtocolError('bad_message', `${type} is sent by the link session itself`);
    }
    const seq = this.#allocateSeq();
    const line = encodeFrame({ talker: this.options.localTalker, seq, type, fields });
    return this.#enqueue({ seq, type, line }, now);
  }

  /** Feeds raw bytes from the line (the session frames them itself). */
  /**
   * Host side: the line was opened again on our end (a cable pulled and
   * plugged, a port reopened). Until each device says HELLO again, its events
   * get NAK `hello` (PROTOCOL.md § 5): the HELLO it sent on the reconnect may
   * have gone into the closed port.
   */
  lineReopened(): void {
    if (!this.#isHost) return;
    for (const peer of this.#peers.values()) {
      if (peer.hello !== undefined) peer.helloSinceReopen = false;
    }
  }

  receiveBytes(chunk: Uint8Array | string, now: number): LinkAction[] {
    const actions: LinkAction[] = [];
    for (const event of this.#decoder.push(chunk)) actions.push(...this.receive(event, now));
    return actions;
  }

  /** Feeds one framer event (from `Framer`, `FrameDecoder` or `scanLine`). */
  receive(event: FrameEvent, now: number): LinkAction[] {
    if (event.kind === 'discard') {
      const actions: LinkAction[] = [this.#discarded(event.reason, event.detail, event)];
      // Garbage without a `$` is line noise, not a frame anyone expects an answer to.
      if (event.reason !== 'no_start') actions.push(this.#nak(event.seq, event.reason));
      const ordering =
        event.talker === undefined ? undefined : this.#peers.get(event.talker)?.ordering;
      // This NAK already asks for the seq the order waits for: no second NAK `missing`.
      if (ordering !== undefined && event.seq !== undefined && event.seq === ordering.next) {
        ordering.nakedGap = event.seq;
        ordering.nakedAt = now;
      }
      return actions;
    }
    const frame = event.frame;
    this.#stats.received++;
    if (
      frame.talker === this.options.localTalker ||
      (this.options.peerTalker !== undefined && frame.talker !== this.options.peerTalker)
    ) {
      return [
        this.#discarded('wrong_talker', `frame from ${frame.talker} on this line`, {
          talker: frame.talker,
          seq: frame.seq,
        }),
      ];
    }
    if (frame.type === 'ACK' || frame.type === 'NAK') return this.#receiveControl(frame, now);
    return this.#receiveReliable(frame, now);
  }

  /**
   * ACKs a message delivered with `ack: 'deferred'`, once the caller has
   * made it durable. Unknown seqs (already ACKed, or forgotten because the
   * peer said HELLO again) are ignored: returns no action.
   */
  ack(seq: number, talker?: Talker): LinkAction[] {
    const peer = this.#findPending(seq, talker);
    if (peer === undefined) return [];
    if (peer.window.get(seq) === 'pending') peer.window.set(seq, 'acked');
    else peer.owed.delete(seq);
    return [this.#ackFrame(seq)];
  }

  /**
   * Refuses a message delivered with `ack: 'deferred'` (e.g. the journal
   * could not store it): NAKs it and forgets its seq, so the peer's
   * retransmission is delivered again.
   */
  reject(seq: number, reason: string, talker?: Talker): LinkAction[] {
    const peer = this.#findPending(seq, talker);
    if (peer === undefined) return [];
    peer.window.delete(seq);
    peer.owed.delete(seq);
    return [this.#nak(seq, reason)];
  }

  /**
   * Asks the peer for a frame again that was read but not taken (dropped
   * while the device's PROOF was awaited, PROTOCOL.md § 8.2): a NAK naming
   * it, which the peer answers at once if it still waits for its ACK and
   * ignores otherwise.
   */
  askAgain(seq: number): LinkAction[] {
    return [this.#nak(seq, 'before_proof', false)];
  }

  /**
   * Counts a line that could not be read, without the NAK `receive` would
   * answer it with: for a host that would drop the copy a NAK asks for (it
   * awaits the device's PROOF, PROTOCOL.md § 8.2).
   */
  discardUnanswered(event: FrameDiscard): LinkAction[] {
    return [this.#discarded(event.reason, event.detail, event)];
  }

  /**
   * Sends every unacknowledged frame again now, with its seq, whatever its
   * timer says (each counts as an attempt and restarts its timer); a frame
   * already sent at `now` is not sent twice. For a device whose line has
   * just reopened: after its new HELLO, what it sent into the dead line
   * goes again at once.
   */
  retransmitNow(now: number): LinkAction[] {
    return this.#retransmitAll(now);
  }

  /** `retransmitNow`, but for the entries `spare` keeps on their timers. */
  #retransmitAll(now: number, spare?: (entry: Outgoing) => boolean): LinkAction[] {
    const actions: LinkAction[] = [];
    // HELLO first: a host that missed it would refuse the events.
    const entries = this.#retransmittable().sort(
      (a, b) => Number(b.type === 'HELLO') - Number(a.type === 'HELLO'),
    );
    for (const entry of entries) {
      if (entry.lastSentAt >= now || spare?.(entry)) continue;
      actions.push(...this.#retransmit(entry, now));
    }
    actions.push(...this.#pump(now));
    return actions;
  }

  /** Retransmits what timed out and gives up on what ran out of attempts. */
  tick(now: number): LinkAction[] {
    const actions: LinkAction[] = [];
    for (const entry of this.#resendable()) {
      if (now - entry.lastSentAt < this.#timeout(entry.attempts)) continue;
      actions.push(...this.#retransmit(entry, now));
    }
    actions.push(...this.#pump(now));
    return actions;
  }

  /** Device side: whether we announced 1.2 in our HELLO (reliable-only seqs, slow start). */
  get #inOrderDevice(): boolean {
    return !this.#isHost && protocolAtLeast(this.#hello?.protocol, IN_ORDER_SINCE);
  }

  /** Event frames we may have unacknowledged now. */
  #eventWindow(): number {
    if (!this.#inOrderDevice) return this.options.maxInFlight;
    // A host that has not announced 1.2 would deliver a window out of order after a loss.
    if (!protocolAtLeast(this.peerHello()?.protocol, IN_ORDER_SINCE)) return 1;
    return this.#slowStart ? 1 : this.options.maxInFlight;
  }

  /** How many seqs ago we allocated `seq` (modulo the wrap): larger is older. */
  #age(seq: number): number {
    return distance(seq, this.#seq);
  }

  /** Frames in flight, oldest first (a 1.2 device: by seq; else in transmission order). */
  #inFlightInOrder(): Outgoing[] {
    const entries = [...this.#inFlight.values()];
    if (!this.#inOrderDevice) return entries;
    return entries.sort((a, b) => this.#age(b.seq) - this.#age(a.seq));
  }

  /** Frames in flight within the window: every control frame, and the oldest events. */
  #withinWindow(): Outgoing[] {
    const window = this.#eventWindow();
    let events = 0;
    return this.#inFlightInOrder().filter((entry) => entry.control || ++events <= window);
  }

  /**
   * Frames that may be sent again now: those within the window still
   * unacknowledged, and those ACKed but kept that were not sent since our
   * latest HELLO.
   */
  #retransmittable(): Outgoing[] {
    return this.#withinWindow().filter((entry) => !entry.acked || !entry.sentSinceHello);
  }

  /**
   * What a timer or a NAK without seq sends again. A 1.2 device talking to a
   * 1.2 host sends only its oldest unacknowledged event (and its control
   * frames): the host holds what came after it, and NAKs `missing` every
   * further gap it reaches, so resending the whole window would only be
   * dropped as copies, and each corrupted copy would be NAKed in turn
   * (a retransmission storm on a noisy line).
   */
  #resendable(): Outgoing[] {
    const entries = this.#retransmittable();
    if (!this.#inOrderDevice || this.#eventWindow() === 1) return entries;
    let oldestTaken = false;
    return entries.filter((entry) => {
      if (entry.control || !entry.sentSinceHello) return true;
      if (entry.acked || oldestTaken) return false;
      oldestTaken = true;
      return true;
    });
  }

  /**
   * A 1.2 device forgets an ACKed frame only once every frame before it is
   * ACKed too: what it keeps past a lost ACK goes again after a HELLO.
   */
  #release(): void {
    let oldestOwed = -1;
    for (const entry of this.#inFlight.values()) {
      if (!entry.acked) oldestOwed = Math.max(oldestOwed, this.#age(entry.seq));
    }
    for (const entry of this.#queue) {
      oldestOwed = Math.max(oldestOwed, this.#age(entry.seq));
    }
    for (const entry of [...this.#inFlight.values()]) {
      if (entry.acked && this.#age(entry.seq) > oldestOwed) {
        this.#inFlight.delete(entry.seq);
      }
    }
  }

  /** Device side: our HELLO, unACKed, whose ACK timeout has not run out yet. */
  #helloAwaitingAck(entry: Outgoing, now: number): boolean {
    return (
      entry.type === 'HELLO' &&
      !entry.acked &&
      now - entry.lastSentAt < this.#timeout(entry.attempts)
    );
  }

  #timeout(attempts: number): number {
    const grown =
      this.options.ackTimeoutMs * this.options.backoffFactor ** Math.max(0, attempts - 1);
    // Retransmitting forever, the backoff would grow without bound (and overflow to Infinity).
    return Math.round(
      Math.min(grown, Math.max(this.options.ackTimeoutMs, this.options.maxAckTimeoutMs)),
    );
  }

  #allocateSeq(): number {
    let seq = this.#seq;
    // Only with 65536 frames outstanding could a seq still be in use; skip it.
    while (this.#inFlight.has(seq) || this.#queue.some((entry) => entry.seq === seq))
      seq = nextSeq(seq);
    this.#seq = nextSeq(seq);
    return seq;
  }

  #enqueue(
    frame: { seq: number; type: string; line: string; message?: Message },
    now: number,
  ): LinkAction[] {
    if (this.#queue.length >= this.options.maxQueued) {
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
    if (frame.message?.type === 'HELLO' && !this.#isHost) {
      this.#hello = frame.message;
      this.#helloState = 'sent';
      this.#slowStart = true;
      for (const old of this.#inFlight.values()) {
        old.sentSinceHello = false;
        // The host starts its order again at our HELLO: what it ACKed before is owed again.
        old.acked = false;
      }
    }
    if (frame.message?.type === 'HELLO') {
      // On either side a new HELLO supersedes one never ACKed (sent into a dead line, or
      // before the line was reopened): retransmitted later, the old one would read as another
      // restart, and the device would send again everything it holds.
      for (const old of [...this.#inFlight.values()]) {
        if (old.type === 'HELLO') this.#inFlight.delete(old.seq);
      }
      this.#queue = this.#queue.filter((old) => old.type !== 'HELLO');
    }
    this.#queue.push(entry);
    return this.#pump(now);
  }

  /**
   * A 1.2 device's new HELLO takes the seq of its HELLO the host has not
   * ACKed (sent into a dead line, or corrupted): that HELLO is replaced and
   * never sent again, and a seq of its own would be a hole the host's order
   * waits at for ever (PROTOCOL.md § 4 item 9).
   */
  #unansweredHelloSeq(message: Message): number | undefined {
    if (this.#isHost || message.type !== 'HELLO') return undefined;
    if (!protocolAtLeast(message.protocol, IN_ORDER_SINCE)) return undefined;
    for (const entry of [...this.#inFlight.values(), ...this.#queue]) {
      if (entry.type === 'HELLO') return entry.seq;
    }
    return undefined;
  }

  /** Transmits queued frames as far as the in-flight limit and the HELLO gate allow. */
  #pump(now: number): LinkAction[] {
    const actions: LinkAction[] = [];
    const eventsMayFlow = this.#isHost || this.#helloState === 'acked';
    const window = this.#eventWindow();
    let eventsInFlight = 0;
    for (const entry of this.#inFlight.values()) if (!entry.control) eventsInFlight++;
    const waiting: Outgoing[] = [];
    let blocked = false;
    let controlsLeft = 0;
    for (const entry of this.#queue) if (entry.control) controlsLeft++;
    for (const [index, entry] of this.#queue.entries()) {
      if (blocked && controlsLeft === 0) {
        // Only events wait behind the block: a long backlog is not walked on every ACK.
        waiting.push(...this.#queue.slice(index));
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
      this.#inFlight.set(entry.seq, entry);
      this.#stats.sent++;
      actions.push({
        kind: 'send',
        line: entry.line,
        seq: entry.seq,
        type: entry.type,
        attempt: 1,
      });
    }
    this.#queue = waiting;
    return actions;
  }

  #retransmit(entry: Outgoing, now: number): LinkAction[] {
    const limit = this.options.maxAttempts;
    if (limit > 0 && entry.attempts >= limit) {
      this.#inFlight.delete(entry.seq);
      this.#stats.failed++;
      if (entry.type === 'HELLO' && this.#helloState === 'sent') this.#helloState = 'none';
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

  #receiveControl(frame: Frame, now: number): LinkAction[] {
    const decoded = decodeMessage(frame);
    if (decoded.kind !== 'message') {
      const detail = decoded.kind === 'invalid' ? decoded.error : 'unsupported';
      return [this.#discarded('bad_control', detail, { talker: frame.talker, seq: frame.seq })];
    }
    const message = decoded.message;
    if (message.type === 'ACK') {
      const entry = this.#inFlight.get(message.ackedSeq);
      if (entry === undefined) return []; // a late or repeated ACK
      const actions: LinkAction[] = [];
      if (!entry.reported) {
        entry.reported = true;
        this.#stats.acked++;
        actions.push({ kind: 'acked', seq: entry.seq, type: entry.type });
      }
      // A HELLO is never kept: sent again, it would start the host's order over.
      if (this.#inOrderDevice && entry.type !== 'HELLO') {
        entry.acked = true;
      } else {
        this.#inFlight.delete(entry.seq);
      }
      if (entry.type === 'HELLO' && !this.#isHost && this.#helloState === 'sent') {
        this.#helloState = 'acked';
      }
      if (!entry.control && this.#slowStart && this.#helloState === 'acked') {
        // The host has placed an event after our HELLO: the window opens, and what
        // slow start held back goes now (frames ACKed but kept included).
        this.#slowStart = false;
        for (const held of this.#retransmittable()) {
          if (!held.sentSinceHello) actions.push(...this.#retransmit(held, now));
        }
      }
      if (this.#inOrderDevice) this.#release();
      actions.push(...this.#pump(now));
      return actions;
    }
    if (message.type !== 'NAK') return [];
    this.#stats.naksReceived++;
    const actions: LinkAction[] = [
      message.nakedSeq === undefined
        ? { kind: 'nak_received', reason: message.reason }
        : { kind: 'nak_received', seq: message.nakedSeq, reason: message.reason },
    ];
    if (message.reason === 'hello' && !this.#isHost) {
      actions.push(...this.#helloAgain(now, message.nakedSeq));
      return actions;
    }
    if (message.reason === 'missing' && message.nakedSeq !== undefined) {
      const filler = this.#fillHole(message.nakedSeq, now);
      if (filler !== undefined) {
        actions.push(...filler, ...this.#pump(now));
        return actions;
      }
    }
    // A NAK naming a frame ACKed but kept (the host lost its order) resends it too.
    const targets =
      message.nakedSeq === undefined
        ? this.#resendable()
        : this.#withinWindow().filter((entry) => entry.seq === message.nakedSeq);
    for (const entry of targets) {
      // NAKs read together (one `now`) all name copies written before any of them was
      // read: each frame goes once for all. Several NAKs without seq, each sending every
      // control frame again, fed a retransmission storm on a noisy line.
      if (entry.nakResentAt === now) continue;
      entry.nakResentAt = now;
      actions.push(...this.#retransmit(entry, now));
    }
    actions.push(...this.#pump(now));
    return actions;
  }

  /**
   * A 1.2 device asked for a seq it no longer holds: a HELLO of ours the host
   * ACKed and we forgot, which a host that restarted since never saw, so its
   * order waits there. A PING with that seq fills the hole (PROTOCOL.md § 4
   * item 9). Undefined when the NAK is not about such a seq: a frame we hold
   * is sent again as usual, and a seq we have not used yet, or used too long
   * ago, is ignored.
   */
  #fillHole(seq: number, now: number): LinkAction[] | undefined {
    if (!this.#inOrderDevice) return undefined;
    if (this.#inFlight.has(seq) || this.#queue.some((entry) => entry.seq === seq)) return undefined;
    const age = this.#age(seq);
    if (age === 0 || age > OWED_LOOKBACK) return [];
    const line = encodeFrame(messageFrame(this.options.localTalker, seq, { type: 'PING' }));
    const entry: Outgoing = {
      seq,
      type: 'PING',
      line,
      control: true,
      attempts: 1,
      lastSentAt: now,
      sentSinceHello: true,
      acked: false,
      reported: false,
    };
    this.#inFlight.set(seq, entry);
    this.#stats.sent++;
    return [{ kind: 'send', line, seq, type: 'PING', attempt: 1 }];
  }

  /** The host has not seen our HELLO (it restarted): events wait again, HELLO goes first. */
  #helloAgain(now: number, nakedSeq?: number): LinkAction[] {
    const hello = this.#hello;
    if (hello === undefined) return [];
    // Several events NAKed at once: one new HELLO is enough.
    const helloEntry = [...this.#inFlight.values()].find(
      (entry) => entry.type === 'HELLO' && !entry.acked,
    );
    const helloInFlight = helloEntry !== undefined;
    // The host refused a frame we wrote after that HELLO: it read the frame
    // but never the HELLO (written into a port it had not reopened yet).
    // Send the HELLO again now rather than after its ACK timeout.
    const naked = nakedSeq === undefined ? undefined : this.#inFlight.get(nakedSeq);
    const helloLost =
      helloEntry !== undefined &&
      naked !== undefined &&
      naked !== helloEntry &&
      naked.lastSentAt >= helloEntry.lastSentAt &&
      helloEntry.lastSentAt < now;
    const unsent: Outgoing[] = [];
    for (const entry of this.#inFlightInOrder()) {
      if (entry.control) continue;
      this.#inFlight.delete(entry.seq);
      entry.attempts = 0;
      entry.acked = false;
      unsent.push(entry);
    }
    if (this.#helloState === 'sent' && helloInFlight) {
      this.#queue = [...unsent, ...this.#queue];
      return helloLost ? this.#retransmit(helloEntry, now) : [];
    }
    for (const entry of this.#inFlight.values()) {
      if (entry.type === 'HELLO') this.#inFlight.delete(entry.seq);
    }
    this.#queue = [...unsent, ...this.#queue.filter((entry) => entry.type !== 'HELLO')];
    return this.send(hello, now);
  }

  #receiveReliable(frame: Frame, now: number): LinkAction[] {
    const peer = this.#peer(frame.talker);
    const decoded = decodeMessage(frame);
    const isHello = decoded.kind === 'message' && decoded.message.type === 'HELLO';
    const seen = peer.window.get(frame.seq);
    // A HELLO is never a duplicate: a restarted device starts its seqs over.
    if ((seen !== undefined || peer.ordering?.held.has(frame.seq)) && !isHello) {
      this.#stats.duplicates++;
      const actions: LinkAction[] = [
        this.#discarded('duplicate', `seq ${frame.seq} already received`, {
          talker: frame.talker,
          seq: frame.seq,
        }),
      ];
      // Its ACK was lost: send it again, unless the caller still owes it (or it is held).
      if (seen === 'acked') actions.unshift(this.#ackFrame(frame.seq));
      const ordering = peer.ordering;
      if (
        seen === undefined &&
        ordering?.next !== undefined &&
        (ordering.nakedGap !== ordering.next || now - ordering.nakedAt >= this.options.ackTimeoutMs)
      ) {
        // A held frame again: our NAK `missing` may have been lost. Ask again, at
        // most once per ACK timeout (a device replaying its window sends many copies).
        ordering.nakedGap = ordering.next;
        ordering.nakedAt = now;
        actions.push(this.#nak(ordering.next, 'missing'));
      }
      return actions;
    }
    if (
      this.#isHost &&
      this.options.requirePeerHello &&
      (peer.hello === undefined || peer.helloSinceReopen === false) &&
      !BEFORE_HELLO_TYPES.has(frame.type)
    ) {
      return [
        this.#discarded('hello_required', `${frame.type} from ${frame.talker} before its HELLO`, {
          talker: frame.talker,
          seq: frame.seq,
        }),
        this.#nak(frame.seq, 'hello'),
      ];
    }
    if (isHello) {
      // A reconnect (seqs before this HELLO) keeps the ACKs the caller owes; a
      // restart (seqs start over) drops them: they name frames it no longer has.
      for (const [seq, state] of peer.window) {
        if (state === 'pending' && precedes(seq, frame.seq)) peer.owed.add(seq);
      }
      for (const seq of peer.owed) if (!precedes(seq, frame.seq)) peer.owed.delete(seq);
      peer.window.clear();
      const hello = (decoded as { message: HelloMessage }).message;
      peer.hello = hello;
      delete peer.helloSinceReopen;
      const inOrder = this.#isHost && protocolAtLeast(hello.protocol, IN_ORDER_SINCE);
      const kept = peer.ordering;
      if (
        inOrder &&
        kept?.next !== undefined &&
        (kept.next === frame.seq || precedes(kept.next, frame.seq))
      ) {
        // A reconnect: the device kept counting, so the order goes on where it was
        // (what it sends again from before is behind it, and a duplicate).
        kept.passed.add(frame.seq);
        kept.nakedGap = undefined;
        const actions = this.#accept(peer, frame, decoded, now);
        actions.push(...this.#drain(peer, kept, now));
        return actions;
      }
      // First contact or a restart: the device's first event after this HELLO
      // (slow start) sets the order. Held events were not ACKed: they come again.
      // Control frames passed before this HELLO, in the same counting, stay passed:
      // the device took their ACKs and will not send them again.
      const passed = [...(kept?.passed ?? [])].filter((seq) => precedes(seq, frame.seq));
      peer.ordering = inOrder
        ? {
            next: undefined,
            held: new Map(),
            passed: new Set([...passed, frame.seq]),
            nakedGap: undefined,
            nakedAt: now,
          }
        : undefined;
      return this.#accept(peer, frame, decoded, now);
    }
    const ordering = peer.ordering;
    return ordering === undefined
      ? this.#accept(peer, frame, decoded, now)
      : this.#inOrder(peer, ordering, frame, decoded, now);
  }

  /** A 1.2 peer's frame: delivered in seq order, or held until the seqs before it arrive. */
  #inOrder(
    peer: PeerState,
    ordering: Ordering,
    frame: Frame,
    decoded: ReturnType<typeof decodeMessage>,
    now: number,
  ): LinkAction[] {
    const control = CONTROL_TYPES.has(frame.type);
    if (ordering.next === undefined) {
      // After a HELLO the device sends one event alone (slow start): the first event sets the order.
      if (control) return this.#acceptAhead(peer, ordering, frame, decoded, now);
      ordering.next = frame.seq;
      for (const seq of ordering.passed) {
        if (distance(ordering.next, seq) >= SEQ_MODULUS / 2) ordering.passed.delete(seq);
      }
    }
    const ahead = distance(ordering.next, frame.seq);
    if (ahead === 0) {
      const actions = this.#accept(peer, frame, decoded, now);
      ordering.next = nextSeq(frame.seq);
      actions.push(...this.#drain(peer, ordering, now));
      return actions;
    }
    // A device numbers its frames when it queues them, so its HELLO, PING and PONG
    // run ahead of its window by its whole backlog: never a gap to give up on.
    if (control && ahead < SEQ_MODULUS / 2) {
      return this.#acceptAhead(peer, ordering, frame, decoded, now);
    }
    if (ahead <= REORDER_LIMIT) {
      ordering.held.set(frame.seq, frame);
      const actions: LinkAction[] = [
        this.#discarded('held', `seq ${frame.seq} held until seq ${ordering.next} arrives`, {
          talker: frame.talker,
          seq: frame.seq,
        }),
      ];
      if (ordering.nakedGap !== ordering.next) {
        // Ask for the missing frame now rather than at the device's retransmission timer.
        ordering.nakedGap = ordering.next;
        ordering.nakedAt = now;
        actions.push(this.#nak(ordering.next, 'missing'));
      }
      return actions;
    }
    if (ahead < SEQ_MODULUS - OWED_LOOKBACK) {
      // Far ahead: not a device keeping to its window. Rather than wait for ever,
      // deliver what is held in seq order, then this frame, and go on from it.
      const missing = ordering.next;
      const actions: LinkAction[] = [
        this.#discarded('order_gap', `seq ${missing} never arrived; delivering without it`, {
          talker: frame.talker,
          seq: missing,
        }),
      ];
      const held = [...ordering.held.keys()].sort(
        (a, b) => distance(missing, a) - distance(missing, b),
      );
      for (const seq of held) {
        const heldFrame = ordering.held.get(seq)!;
        ordering.held.delete(seq);
        actions.push(...this.#accept(peer, heldFrame, decodeMessage(heldFrame), now));
      }
      ordering.nakedGap = undefined;
      actions.push(...this.#accept(peer, frame, decoded, now));
      ordering.next = nextSeq(frame.seq);
      // Control frames passed ahead of the new order (the device's HELLO, numbered after a
      // backlog queued before it) are still skipped when it reaches them, or it would wait
      // for them for ever: their copies are duplicates.
      for (const seq of ordering.passed) {
        if (distance(ordering.next, seq) >= SEQ_MODULUS / 2) ordering.passed.delete(seq);
      }
      actions.push(...this.#drain(peer, ordering, now));
      return actions;
    }
    // Behind the order: a late copy the dedupe window no longer knows; taken as it comes.
    return this.#accept(peer, frame, decoded, now);
  }

  /** A control frame ahead of the order: delivered now, and skipped when the order reaches it. */
  #acceptAhead(
    peer: PeerState,
    ordering: Ordering,
    frame: Frame,
    decoded: ReturnType<typeof decodeMessage>,
    now: number,
  ): LinkAction[] {
    ordering.passed.add(frame.seq);
    for (const seq of ordering.passed) {
      if (ordering.passed.size <= PASSED_LIMIT) break;
      ordering.passed.delete(seq);
    }
    return this.#accept(peer, frame, decoded, now);
  }

  /** Delivers the held events the order has reached. */
  #drain(peer: PeerState, ordering: Ordering, now: number): LinkAction[] {
    const actions: LinkAction[] = [];
    for (;;) {
      const next = ordering.next;
      if (next === undefined) break;
      if (ordering.passed.delete(next)) {
        ordering.next = nextSeq(next);
        continue;
      }
      const frame = ordering.held.get(next);
      if (frame === undefined) {
        if (ordering.held.size > 0 && ordering.nakedGap !== next) {
          // Frames past this seq are held too: ask for it now, not at the device's timer.
          ordering.nakedGap = next;
          ordering.nakedAt = now;
          actions.push(this.#nak(next, 'missing'));
        }
        break;
      }
      ordering.held.delete(next);
      actions.push(...this.#accept(peer, frame, decodeMessage(frame), now));
      ordering.next = nextSeq(next);
    }
    return actions;
  }

  /** Takes a frame in: remembers its seq, ACKs it (unless deferred) and reports it. */
  #accept(
    peer: PeerState,
    frame: Frame,
    decoded: ReturnType<typeof decodeMessage>,
    now: number,
  ): LinkAction[] {
    const deferred = decoded.kind === 'message' && this.#deferAck.has(frame.type);
    this.#remember(peer, frame.seq, deferred ? 'pending' : 'acked');
    const actions: LinkAction[] = [];
    if (!deferred) actions.push(this.#ackFrame(frame.seq));
    if (decoded.kind === 'unsupported') {
      actions.push({ kind: 'unsupported', talker: frame.talker, seq: frame.seq, frame });
    } else if (decoded.kind === 'invalid') {
      actions.push({
        kind: 'invalid',
        talker: frame.talker,
        seq: frame.seq,
        frame,
        error: decoded.error,
      });
    } else {
      this.#stats.delivered++;
      actions.push({
        kind: 'deliver',
        talker: frame.talker,
        seq: frame.seq,
        message: decoded.message,
        ack: deferred ? 'deferred' : 'sent',
      });
      if (decoded.message.type === 'HELLO' && !this.#isHost && frame.talker === 'HO') {
        // The host (re)opened the line: what we sent before may have gone nowhere. Not our
        // HELLO still inside its ACK timeout: it crossed the host's on the wire and its ACK is
        // on the way; a second copy would start another session (its timer resends it).
        actions.push(...this.#retransmitAll(now, (entry) => this.#helloAwaitingAck(entry, now)));
      }
      if (decoded.message.type === 'PING' && this.options.answerPing) {
        const token = decoded.message.token;
        actions.push(
          ...this.send(token === undefined ? { type: 'PONG' } : { type: 'PONG', token }, now),
        );
      }
    }
    return actions;
  }

  #peer(talker: Talker): PeerState {
    let peer = this.#peers.get(talker);
    if (peer === undefined) {
      peer = { window: new Map(), owed: new Set() };
      this.#peers.set(talker, peer);
    }
    return peer;
  }

  #remember(peer: PeerState, seq: number, state: 'acked' | 'pending'): void {
    peer.window.set(seq, state);
    // Forget the oldest acked seqs; a seq whose ACK is still owed stays until `ack`.
    if (peer.window.size <= this.options.dedupeWindow) return;
    for (const [oldSeq, oldState] of peer.window) {
      if (peer.window.size <= this.options.dedupeWindow) break;
      if (oldState === 'acked') peer.window.delete(oldSeq);
    }
    // A caller that never ACKs must not make the window grow without bound.
    for (const oldSeq of peer.window.keys()) {
      if (peer.window.size <= 2 * this.options.dedupeWindow) break;
      peer.window.delete(oldSeq);
    }
  }

  #findPending(seq: number, talker?: Talker): PeerState | undefined {
    const candidates = talker !== undefined ? [this.#peers.get(talker)] : [...this.#peers.values()];
    return candidates.find(
      (peer) => peer !== undefined && (peer.window.get(seq) === 'pending' || peer.owed.has(seq)),
    );
  }

  /** ACK and NAK of a 1.2 device carry the next seq without taking it (reliable frames count alone). */
  #controlSeq(): number {
    return this.#inOrderDevice ? this.#seq : this.#allocateSeq();
  }

  #ackFrame(ackedSeq: number): LinkAction {
    const seq = this.#controlSeq();
    const line = encodeFrame(
      messageFrame(this.options.localTalker, seq, { type: 'ACK', ackedSeq }),
    );
    this.#stats.sent++;
    return { kind: 'send', line, seq, type: 'ACK', attempt: 1 };
  }

  /** `lineError` false: a NAK of the session's flow (`before_proof`), not a refused frame. */
  #nak(nakedSeq: number | undefined, reason: string, lineError = true): LinkAction {
    const seq = this.#controlSeq();
    const message: Message =
      nakedSeq === undefined ? { type: 'NAK', reason } : { type: 'NAK', nakedSeq, reason };
    const line = encodeFrame(messageFrame(this.options.localTalker, seq, message));
    this.#stats.sent++;
    if (lineError) this.#stats.naksSent++;
    return { kind: 'send', line, seq, type: 'NAK', attempt: 1 };
  }

  #discarded(
    reason: LinkDiscardReason,
    detail: string,
    about: { raw?: string; talker?: Talker; seq?: number },
  ): LinkAction {
    this.#stats.discarded[reason]++;
    return {
      kind: 'discarded',
      reason,
      detail,
      ...(about.raw === undefined ? {} : { raw: about.raw }),
      ...(about.talker === undefined ? {} : { talker: about.talker }),
      ...(about.seq === undefined ? {} : { seq: about.seq }),
    };
  }
}
