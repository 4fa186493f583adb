/**
 * A device's end of a line (any local talker but `HO`: a shoe, a shuffler,
 * a reader, a wheel, or their simulators):
 * - it holds its events until the host has ACKed its HELLO, and says HELLO
 *   again when the host NAKs with `hello` (the host restarted, or read an
 *   event of ours but not the HELLO before it);
 * - protocol 1.2, the in-order window (PROTOCOL.md § 3.8), keyed on the
 *   HELLOs: announcing 1.2, it numbers only its reliable frames (its ACK
 *   and NAK carry the next seq without taking it), uses its window only
 *   with a host that announced 1.2, and after each HELLO of its own sends
 *   one event alone until an event is ACKed (slow start, so the host learns
 *   where its events resume). It keeps each frame, even ACKed, until the
 *   frames before it are ACKed, sends what it keeps again after a HELLO,
 *   and fills with a PING a hole the host asks for that it no longer holds.
 */
import { encodeFrame, type Frame, type Talker } from '../frame.ts';
import {
  type HelloMessage,
  type Message,
  messageFrame,
  type NakMessage,
  protocolAtLeast,
} from '../messages.ts';
import type { LinkAction } from './actions.ts';
import { OWED_LOOKBACK } from './in-order-delivery.ts';
import type { Outgoing } from './outbox.ts';
import type { PeerState } from './peers.ts';
import { type Decoded, IN_ORDER_SINCE, type LinkCore, type LinkRole } from './role.ts';

export class DeviceRole implements LinkRole {
  readonly #core: LinkCore;
  /** Where our HELLO stands, and the HELLO to send again on a NAK `hello`. */
  #helloState: 'none' | 'sent' | 'acked' = 'none';
  #hello: HelloMessage | undefined;
  /** Whether our HELLO announced 1.2 (reliable-only seqs, slow start, frames kept in order). */
  #inOrder = false;
  /** 1.2: one event at a time after our HELLO until an event is ACKed. */
  #slowStart = false;

  constructor(core: LinkCore) {
    this.#core = core;
  }

  newPeer(): PeerState {
    return { window: new Map(), owed: new Set() };
  }

  get helloAcknowledged(): boolean {
    return this.#helloState === 'acked';
  }

  eventsMayFlow(): boolean {
    return this.#helloState === 'acked';
  }

  eventWindow(): number {
    const { maxInFlight } = this.#core.options;
    if (!this.#inOrder) return maxInFlight;
    // A host that has not announced 1.2 would deliver a window out of order after a loss.
    if (!protocolAtLeast(this.#core.peerHello()?.protocol, IN_ORDER_SINCE)) return 1;
    return this.#slowStart ? 1 : maxInFlight;
  }

  /** 1.2: by seq (a HELLO may take an older seq than the frames it follows); else in transmission order. */
  inFlightInOrder(): Outgoing[] {
    const outbox = this.#core.outbox;
    const entries = [...outbox.inFlight.values()];
    if (!this.#inOrder) return entries;
    return entries.sort((a, b) => outbox.age(b.seq) - outbox.age(a.seq));
  }

  /**
   * A 1.2 device talking to a 1.2 host sends again only its oldest
   * unacknowledged event (and its control frames): the host holds what came
   * after it, and NAKs `missing` every further gap it reaches, so resending
   * the whole window would only be dropped as copies, and each corrupted
   * copy would be NAKed in turn (a retransmission storm on a noisy line).
   */
  resendable(retransmittable: Outgoing[]): Outgoing[] {
    if (!this.#inOrder || this.eventWindow() === 1) return retransmittable;
    let oldestTaken = false;
    return retransmittable.filter((entry) => {
      if (entry.control || !entry.sentSinceHello) return true;
      if (entry.acked || oldestTaken) return false;
      oldestTaken = true;
      return true;
    });
  }

  helloQueued(hello: HelloMessage): void {
    this.#hello = hello;
    this.#inOrder = protocolAtLeast(hello.protocol, IN_ORDER_SINCE);
    this.#helloState = 'sent';
    this.#slowStart = true;
    for (const old of this.#core.outbox.inFlight.values()) {
      old.sentSinceHello = false;
      // The host starts its order again at our HELLO: what it ACKed before is owed again.
      old.acked = false;
    }
  }

  gaveUp(entry: Outgoing): void {
    if (entry.type === 'HELLO' && this.#helloState === 'sent') this.#helloState = 'none';
  }

  /**
   * A 1.2 device's new HELLO takes the seq of its HELLO the host has not
   * ACKed (sent into a dead line, or corrupted): that HELLO is replaced and
   * never sent again, and a seq of its own would be a hole the host's order
   * waits at for ever (PROTOCOL.md § 3.8).
   */
  seqFor(message: Message): number | undefined {
    if (message.type !== 'HELLO' || !protocolAtLeast(message.protocol, IN_ORDER_SINCE)) {
      return undefined;
    }
    const outbox = this.#core.outbox;
    for (const entry of [...outbox.inFlight.values(), ...outbox.queue]) {
      if (entry.type === 'HELLO') return entry.seq;
    }
    return undefined;
  }

  /** 1.2: ACK and NAK carry the next seq without taking it (reliable frames count alone). */
  controlSeq(): number {
    const outbox = this.#core.outbox;
    return this.#inOrder ? outbox.seq : outbox.allocateSeq();
  }

  /** A HELLO is never kept: sent again, it would start the host's order over. */
  keepsAcked(entry: Outgoing): boolean {
    return this.#inOrder && entry.type !== 'HELLO';
  }

  acked(entry: Outgoing, now: number, actions: LinkAction[]): void {
    const outbox = this.#core.outbox;
    if (entry.type === 'HELLO' && this.#helloState === 'sent') this.#helloState = 'acked';
    if (!entry.control && this.#slowStart && this.#helloState === 'acked') {
      // The host has placed an event after our HELLO: the window opens, and what
      // slow start held back goes now (frames ACKed but kept included).
      this.#slowStart = false;
      for (const held of outbox.retransmittable()) {
        if (!held.sentSinceHello) actions.push(...outbox.retransmit(held, now));
      }
    }
    if (this.#inOrder) this.#release();
  }

  nakReceived(nak: NakMessage, now: number, actions: LinkAction[]): boolean {
    if (nak.reason === 'hello') {
      actions.push(...this.#helloAgain(now, nak.nakedSeq));
      return true;
    }
    if (nak.reason !== 'missing' || nak.nakedSeq === undefined) return false;
    const filler = this.#fillHole(nak.nakedSeq, now);
    if (filler === undefined) return false;
    actions.push(...filler, ...this.#core.outbox.pump(now));
    return true;
  }

  refuses(): undefined {
    return undefined;
  }

  holds(): boolean {
    return false;
  }

  heldAgain(): void {
    // A device holds nothing back from what it receives.
  }

  helloReceived(peer: PeerState, frame: Frame, decoded: Decoded, now: number): LinkAction[] {
    return this.#core.accept(peer, frame, decoded, now);
  }

  take(): undefined {
    return undefined;
  }

  /**
   * The host (re)opened the line: what we sent before may have gone nowhere.
   * Not our HELLO still inside its ACK timeout: it crossed the host's on the
   * wire and its ACK is on the way; a second copy would start another session
   * (its timer resends it).
   */
  peerHelloDelivered(talker: Talker, now: number, actions: LinkAction[]): void {
    if (talker !== 'HO') return;
    actions.push(
      ...this.#core.outbox.retransmitAll(now, (entry) => this.#helloAwaitingAck(entry, now)),
    );
  }

  unreadLine(): void {
    // A device delivers the host's frames as they come: no order waits on a seq.
  }

  lineReopened(): void {
    // A device says HELLO again on a reopened line; its session does nothing more.
  }

  /**
   * A 1.2 device forgets an ACKed frame only once every frame before it is
   * ACKed too: what it keeps past a lost ACK goes again after a HELLO.
   */
  #release(): void {
    const outbox = this.#core.outbox;
    let oldestOwed = -1;
    for (const entry of outbox.inFlight.values()) {
      if (!entry.acked) oldestOwed = Math.max(oldestOwed, outbox.age(entry.seq));
    }
    for (const entry of outbox.queue) {
      oldestOwed = Math.max(oldestOwed, outbox.age(entry.seq));
    }
    for (const entry of [...outbox.inFlight.values()]) {
      if (entry.acked && outbox.age(entry.seq) > oldestOwed) {
        outbox.inFlight.delete(entry.seq);
      }
    }
  }

  /** Our HELLO, unACKed, whose ACK timeout has not run out yet. */
  #helloAwaitingAck(entry: Outgoing, now: number): boolean {
    return (
      entry.type === 'HELLO' &&
      !entry.acked &&
      now - entry.lastSentAt < this.#core.outbox.timeout(entry.attempts)
    );
  }

  /**
   * A 1.2 device asked for a seq it no longer holds: a HELLO of ours the host
   * ACKed and we forgot, which a host that restarted since never saw, so its
   * order waits there. A PING with that seq fills the hole (PROTOCOL.md § 3.8).
   * Undefined when the NAK is not about such a seq: a frame we hold
   * is sent again as usual, and a seq we have not used yet, or used too long
   * ago, is ignored.
   */
  #fillHole(seq: number, now: number): LinkAction[] | undefined {
    const outbox = this.#core.outbox;
    if (!this.#inOrder || outbox.holds(seq)) return undefined;
    const age = outbox.age(seq);
    if (age === 0 || age > OWED_LOOKBACK) return [];
    const line = encodeFrame(messageFrame(this.#core.options.localTalker, seq, { type: 'PING' }));
    return [outbox.sendControlNow(seq, 'PING', line, now)];
  }

  /** The host has not seen our HELLO (it restarted): events wait again, HELLO goes first. */
  #helloAgain(now: number, nakedSeq?: number): LinkAction[] {
    const hello = this.#hello;
    if (hello === undefined) return [];
    const outbox = this.#core.outbox;
    // Several events NAKed at once: one new HELLO is enough.
    const helloEntry = [...outbox.inFlight.values()].find(
      (entry) => entry.type === 'HELLO' && !entry.acked,
    );
    const helloInFlight = helloEntry !== undefined;
    // The host refused a frame we wrote after that HELLO: it read the frame
    // but never the HELLO (written into a port it had not reopened yet).
    // Send the HELLO again now rather than after its ACK timeout.
    const naked = nakedSeq === undefined ? undefined : outbox.inFlight.get(nakedSeq);
    const helloLost =
      helloEntry !== undefined &&
      naked !== undefined &&
      naked !== helloEntry &&
      naked.lastSentAt >= helloEntry.lastSentAt &&
      helloEntry.lastSentAt < now;
    const unsent: Outgoing[] = [];
    for (const entry of this.inFlightInOrder()) {
      if (entry.control) continue;
      outbox.inFlight.delete(entry.seq);
      entry.attempts = 0;
      entry.acked = false;
      unsent.push(entry);
    }
    if (this.#helloState === 'sent' && helloInFlight) {
      outbox.queue = [...unsent, ...outbox.queue];
      return helloLost ? outbox.retransmit(helloEntry, now) : [];
    }
    for (const entry of outbox.inFlight.values()) {
      if (entry.type === 'HELLO') outbox.inFlight.delete(entry.seq);
    }
    outbox.queue = [...unsent, ...outbox.queue.filter((entry) => entry.type !== 'HELLO')];
    return this.#core.send(hello, now);
  }
}
