/**
 * The host's end of a line (local talker `HO`). It never has to send a
 * HELLO of its own, so its sending is plain: events flow at once, up to
 * `maxInFlight`, and every frame counts a seq. What it adds is on the
 * receiving side:
 * - a device's events are refused with NAK `hello` until it has said HELLO
 *   (unless `requirePeerHello` is false), and again after our end of the
 *   line reopened, until it says HELLO anew (PROTOCOL.md § 4);
 * - the events of a device whose HELLO announced 1.2 are delivered in seq
 *   order (`InOrderDelivery`, PROTOCOL.md § 3.8): one past a missing seq
 *   is held, unACKed, and the missing seq is NAKed `missing` once.
 */
import type { Frame } from '../frame.ts';
import { protocolAtLeast } from '../messages.ts';
import type { LinkAction } from './actions.ts';
import { InOrderDelivery, type OrderSink } from './in-order-delivery.ts';
import type { Outgoing } from './outbox.ts';
import { type PeerState, precedes } from './peers.ts';
import { type Decoded, IN_ORDER_SINCE, type LinkCore, type LinkRole } from './role.ts';

/** What a device may send the host before its HELLO was seen. */
const BEFORE_HELLO_TYPES = new Set<string>(['HELLO', 'PING', 'PONG']);

/** What the host remembers of a device beside what the session does. */
interface HostPeer extends PeerState {
  /**
   * Our end of the line reopened and no HELLO of this device has arrived
   * since. Its events are refused with NAK `hello` until one does: a HELLO
   * it wrote into the closed port is lost, and it would otherwise hold its
   * window for a whole ACK timeout waiting for its ACK.
   */
  helloSinceReopen?: false;
  /** For a device whose HELLO announced 1.2: in-order delivery. */
  ordering?: InOrderDelivery<LinkAction>;
}

export class HostRole implements LinkRole<HostPeer> {
  readonly #core: LinkCore;
  readonly #peers: HostPeer[] = [];

  constructor(core: LinkCore) {
    this.#core = core;
  }

  newPeer(): HostPeer {
    const peer: HostPeer = { window: new Map(), owed: new Set() };
    this.#peers.push(peer);
    return peer;
  }

  get helloAcknowledged(): boolean {
    return false;
  }

  eventsMayFlow(): boolean {
    return true;
  }

  eventWindow(): number {
    return this.#core.options.maxInFlight;
  }

  inFlightInOrder(): Outgoing[] {
    return [...this.#core.outbox.inFlight.values()];
  }

  resendable(retransmittable: Outgoing[]): Outgoing[] {
    return retransmittable;
  }

  helloQueued(): void {
    // The host's HELLO (a line it reopened) starts nothing on its own side.
  }

  gaveUp(): void {
    // Nothing waits on a frame of the host's.
  }

  seqFor(): number | undefined {
    return undefined;
  }

  controlSeq(): number {
    return this.#core.outbox.allocateSeq();
  }

  keepsAcked(): boolean {
    return false;
  }

  acked(): void {
    // An ACKed frame of the host's is done with.
  }

  nakReceived(): boolean {
    return false;
  }

  refuses(peer: HostPeer, frame: Frame): LinkAction[] | undefined {
    if (
      !this.#core.options.requirePeerHello ||
      (peer.hello !== undefined && peer.helloSinceReopen === undefined) ||
      BEFORE_HELLO_TYPES.has(frame.type)
    ) {
      return undefined;
    }
    return [
      this.#core.discarded(
        'hello_required',
        `${frame.type} from ${frame.talker} before its HELLO`,
        {
          talker: frame.talker,
          seq: frame.seq,
        },
      ),
      this.#core.nak(frame.seq, 'hello'),
    ];
  }

  holds(peer: HostPeer, seq: number): boolean {
    return peer.ordering?.held.has(seq) ?? false;
  }

  heldAgain(peer: HostPeer, now: number, actions: LinkAction[]): void {
    const ordering = peer.ordering;
    if (
      ordering?.next !== undefined &&
      (ordering.nakedGap !== ordering.next ||
        now - ordering.nakedAt >= this.#core.options.ackTimeoutMs)
    ) {
      // A held frame again: our NAK `missing` may have been lost. Ask again, at
      // most once per ACK timeout (a device replaying its window sends many copies).
      ordering.nakedGap = ordering.next;
      ordering.nakedAt = now;
      actions.push(this.#core.nak(ordering.next, 'missing'));
    }
  }

  helloReceived(peer: HostPeer, frame: Frame, decoded: Decoded, now: number): LinkAction[] {
    delete peer.helloSinceReopen;
    const inOrder = protocolAtLeast(peer.hello?.protocol, IN_ORDER_SINCE);
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
      const actions = this.#core.accept(peer, frame, decoded, now);
      actions.push(...kept.drain(now));
      return actions;
    }
    // First contact or a restart: the device's first event after this HELLO
    // (slow start) sets the order. Held events were not ACKed: they come again.
    // Control frames passed before this HELLO, in the same counting, stay passed:
    // the device took their ACKs and will not send them again.
    const passed = [...(kept?.passed ?? [])].filter((seq) => precedes(seq, frame.seq));
    peer.ordering = inOrder
      ? new InOrderDelivery(this.#orderSink(peer), [...passed, frame.seq], now)
      : undefined;
    return this.#core.accept(peer, frame, decoded, now);
  }

  take(peer: HostPeer, frame: Frame, decoded: Decoded, now: number): LinkAction[] | undefined {
    return peer.ordering?.take(frame, decoded, now);
  }

  peerHelloDelivered(): void {
    // A device's HELLO asks nothing more of the host's sending.
  }

  unreadLine(peer: HostPeer, seq: number, now: number): void {
    const ordering = peer.ordering;
    // The NAK of that line already asks for the seq the order waits for: no second NAK `missing`.
    if (ordering !== undefined && seq === ordering.next) {
      ordering.nakedGap = seq;
      ordering.nakedAt = now;
    }
  }

  /**
   * Our end of the line was opened again (a cable pulled and plugged, a port
   * reopened): until each device says HELLO again, its events get NAK
   * `hello`, since the HELLO it sent on the reconnect may have gone into the
   * closed port.
   */
  lineReopened(): void {
    for (const peer of this.#peers) {
      if (peer.hello !== undefined) peer.helloSinceReopen = false;
    }
  }

  /** What the in-order delivery of `peer`'s events does with a frame it takes or gives up on. */
  #orderSink(peer: HostPeer): OrderSink<LinkAction> {
    return {
      accept: (frame, decoded, now) => this.#core.accept(peer, frame, decoded, now),
      nak: (seq) => this.#core.nak(seq, 'missing'),
      discarded: (reason, detail, frame) => this.#core.discarded(reason, detail, frame),
    };
  }
}
