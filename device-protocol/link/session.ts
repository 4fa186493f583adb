/**
 * The link session: reliable delivery over one line, as a pure state
 * machine (PROTOCOL.md § 3), the same for both ends of it. Where the host
 * and a device differ it asks its role (`role.ts`): `HostRole` or
 * `DeviceRole`, picked once by the local talker. `link.ts` states the
 * rules in short.
 */

import { ProtocolError } from '../errors.ts';
import {
  encodeFrame,
  type Frame,
  type FrameDiscard,
  type FrameEvent,
  type Talker,
} from '../frame.ts';
import { FrameDecoder } from '../frame-decoder.ts';
import { decodeMessage, type HelloMessage, type Message, messageFrame } from '../messages.ts';
import { emptyStats, type LinkAction, type LinkDiscardReason, type LinkStats } from './actions.ts';
import { DeviceRole } from './device-role.ts';
import { HostRole } from './host-role.ts';
import { type LinkOptions, type ResolvedLinkOptions, resolveLinkOptions } from './options.ts';
import { Outbox } from './outbox.ts';
import { greet, type PeerState, remember } from './peers.ts';
import type { Decoded, LinkCore, LinkRole } from './role.ts';

/** The one place the talker decides the role: the host is `HO`, every other talker a device. */
function roleFor(core: LinkCore): LinkRole {
  return core.options.localTalker === 'HO' ? new HostRole(core) : new DeviceRole(core);
}

export class LinkSession {
  readonly options: ResolvedLinkOptions;
  readonly #role: LinkRole;
  readonly #deferAck: Set<string>;
  readonly #decoder: FrameDecoder;
  readonly #outbox: Outbox;
  readonly #peers = new Map<Talker, PeerState>();
  readonly #stats: LinkStats = emptyStats();

  /** Throws ProtocolError `bad_options` on bad options. */
  constructor(options: LinkOptions) {
    this.options = resolveLinkOptions(options);
    this.#deferAck = new Set(this.options.deferAck);
    this.#decoder = new FrameDecoder(this.options.framer);
    this.#outbox = new Outbox(this.options, this.#stats);
    this.#role = roleFor({
      options: this.options,
      outbox: this.#outbox,
      peerHello: () => this.peerHello(),
      send: (message, now) => this.send(message, now),
      accept: (peer, frame, decoded, now) => this.#accept(peer, frame, decoded, now),
      nak: (nakedSeq, reason) => this.#nak(nakedSeq, reason),
      discarded: (reason, detail, about) => this.#discarded(reason, detail, about),
    });
    this.#outbox.policy = this.#role;
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
    return this.#role.helloAcknowledged;
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
    return { inFlight: this.#outbox.inFlight.size, queued: this.#outbox.queue.length };
  }

  /** When `tick` must be called next at the latest; undefined when nothing waits for an ACK. */
  nextDeadline(): number | undefined {
    return this.#outbox.nextDeadline();
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
    const seq = this.#role.seqFor(message) ?? this.#outbox.allocateSeq();
    const line = encodeFrame(messageFrame(this.options.localTalker, seq, message));
    return this.#outbox.enqueue({ seq, type: message.type, line, message }, now);
  }

  /**
   * Device side, before its first HELLO: takes back the events it kept
   * across its own restart (an outbox on disk, PROTOCOL.md § 3.9),
   * with the seqs they had, oldest first; they go once the HELLO is ACKed
   * like frames kept across a reconnect. Construct the session with
   * `initialSeq` past every seq the device ever used.
   */
  restore(frames: readonly { seq: number; message: Message }[]): void {
    for (const { seq, message } of frames) {
      const line = encodeFrame(messageFrame(this.options.localTalker, seq, message));
      this.#outbox.enqueue({ seq, type: message.type, line, message }, 0);
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
    const seq = this.#outbox.allocateSeq();
    const line = encodeFrame({ talker: this.options.localTalker, seq, type, fields });
    return this.#outbox.enqueue({ seq, type, line }, now);
  }

  /**
   * Host side: the line was opened again on our end (a cable pulled and
   * plugged, a port reopened). Until each device says HELLO again, its events
   * get NAK `hello` (PROTOCOL.md § 4): the HELLO it sent on the reconnect may
   * have gone into the closed port. A device's session does nothing.
   */
  lineReopened(): void {
    this.#role.lineReopened();
  }

  /** Feeds raw bytes from the line (the session frames them itself). */
  receiveBytes(chunk: Uint8Array | string, now: number): LinkAction[] {
    const actions: LinkAction[] = [];
    for (const event of this.#decoder.push(chunk)) actions.push(...this.receive(event, now));
    return actions;
  }

  /** Feeds one framer event (from `FrameDecoder` or `scanLine`). */
  receive(event: FrameEvent, now: number): LinkAction[] {
    if (event.kind === 'discard') {
      const actions: LinkAction[] = [this.#discarded(event.reason, event.detail, event)];
      // Garbage without a `$` is line noise, not a frame anyone expects an answer to.
      if (event.reason !== 'no_start') actions.push(this.#nak(event.seq, event.reason));
      const peer = event.talker === undefined ? undefined : this.#peers.get(event.talker);
      if (peer !== undefined && event.seq !== undefined)
        this.#role.unreadLine(peer, event.seq, now);
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
   * while the device's PROOF was awaited, PROTOCOL.md § 5.2): a NAK naming
   * it, which the peer answers at once if it still waits for its ACK and
   * ignores otherwise.
   */
  askAgain(seq: number): LinkAction[] {
    return [this.#nak(seq, 'before_proof', false)];
  }

  /**
   * Counts a line that could not be read, without the NAK `receive` would
   * answer it with: for a host that would drop the copy a NAK asks for (it
   * awaits the device's PROOF, PROTOCOL.md § 5.2).
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
    return this.#outbox.retransmitAll(now);
  }

  /**
   * Sends one unacknowledged frame again now, whatever its timer says (an
   * attempt, as for a NAK naming it): for a frame the authentication held
   * back at `now`, which `retransmitNow(now)` takes as just sent.
   */
  sendAgain(seq: number, now: number): LinkAction[] {
    const entry = this.#outbox.inFlight.get(seq);
    if (entry === undefined || entry.acked) return [];
    return this.#outbox.retransmit(entry, now);
  }

  /** Retransmits what timed out and gives up on what ran out of attempts. */
  tick(now: number): LinkAction[] {
    return this.#outbox.tick(now);
  }

  #receiveControl(frame: Frame, now: number): LinkAction[] {
    const decoded = decodeMessage(frame);
    if (decoded.kind !== 'message') {
      const detail = decoded.kind === 'invalid' ? decoded.error : 'unsupported';
      return [this.#discarded('bad_control', detail, { talker: frame.talker, seq: frame.seq })];
    }
    const message = decoded.message;
    if (message.type === 'ACK') {
      const entry = this.#outbox.inFlight.get(message.ackedSeq);
      if (entry === undefined) return []; // a late or repeated ACK
      const actions: LinkAction[] = [];
      if (!entry.reported) {
        entry.reported = true;
        this.#stats.acked++;
        actions.push({ kind: 'acked', seq: entry.seq, type: entry.type });
      }
      if (this.#role.keepsAcked(entry)) entry.acked = true;
      else this.#outbox.inFlight.delete(entry.seq);
      this.#role.acked(entry, now, actions);
      actions.push(...this.#outbox.pump(now));
      return actions;
    }
    if (message.type !== 'NAK') return [];
    this.#stats.naksReceived++;
    const actions: LinkAction[] = [
      message.nakedSeq === undefined
        ? { kind: 'nak_received', reason: message.reason }
        : { kind: 'nak_received', seq: message.nakedSeq, reason: message.reason },
    ];
    if (this.#role.nakReceived(message, now, actions)) return actions;
    // A NAK naming a frame ACKed but kept (the host lost its order) resends it too.
    const targets =
      message.nakedSeq === undefined
        ? this.#outbox.resendable()
        : this.#outbox.withinWindow().filter((entry) => entry.seq === message.nakedSeq);
    for (const entry of targets) {
      // NAKs read together (one `now`) all name copies written before any of them was
      // read: each frame goes once for all. Several NAKs without seq, each sending every
      // control frame again, fed a retransmission storm on a noisy line.
      if (entry.nakResentAt === now) continue;
      entry.nakResentAt = now;
      actions.push(...this.#outbox.retransmit(entry, now));
    }
    actions.push(...this.#outbox.pump(now));
    return actions;
  }

  #receiveReliable(frame: Frame, now: number): LinkAction[] {
    const peer = this.#peer(frame.talker);
    const decoded = decodeMessage(frame);
    const isHello = decoded.kind === 'message' && decoded.message.type === 'HELLO';
    const seen = peer.window.get(frame.seq);
    // A HELLO is never a duplicate: a restarted device starts its seqs over.
    if ((seen !== undefined || this.#role.holds(peer, frame.seq)) && !isHello) {
      this.#stats.duplicates++;
      const actions: LinkAction[] = [
        this.#discarded('duplicate', `seq ${frame.seq} already received`, {
          talker: frame.talker,
          seq: frame.seq,
        }),
      ];
      // Its ACK was lost: send it again, unless the caller still owes it (or it is held).
      if (seen === 'acked') actions.unshift(this.#ackFrame(frame.seq));
      if (seen === undefined) this.#role.heldAgain(peer, now, actions);
      return actions;
    }
    const refusal = this.#role.refuses(peer, frame);
    if (refusal !== undefined) return refusal;
    if (isHello) {
      greet(peer, frame.seq, (decoded as { message: HelloMessage }).message);
      return this.#role.helloReceived(peer, frame, decoded, now);
    }
    // Taken directly when the role has nothing to add: every card goes this way.
    return this.#role.take(peer, frame, decoded, now) ?? this.#accept(peer, frame, decoded, now);
  }

  /** Takes a frame in: remembers its seq, ACKs it (unless deferred) and reports it. */
  #accept(peer: PeerState, frame: Frame, decoded: Decoded, now: number): LinkAction[] {
    const deferred = decoded.kind === 'message' && this.#deferAck.has(frame.type);
    remember(peer, frame.seq, deferred ? 'pending' : 'acked', this.options.dedupeWindow);
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
      if (decoded.message.type === 'HELLO') {
        this.#role.peerHelloDelivered(frame.talker, now, actions);
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
      peer = this.#role.newPeer();
      this.#peers.set(talker, peer);
    }
    return peer;
  }

  #findPending(seq: number, talker?: Talker): PeerState | undefined {
    const candidates = talker !== undefined ? [this.#peers.get(talker)] : [...this.#peers.values()];
    return candidates.find(
      (peer) => peer !== undefined && (peer.window.get(seq) === 'pending' || peer.owed.has(seq)),
    );
  }

  #ackFrame(ackedSeq: number): LinkAction {
    const seq = this.#role.controlSeq();
    const line = encodeFrame(
      messageFrame(this.options.localTalker, seq, { type: 'ACK', ackedSeq }),
    );
    this.#stats.sent++;
    return { kind: 'send', line, seq, type: 'ACK', attempt: 1 };
  }

  /** `lineError` false: a NAK of the session's flow (`before_proof`), not a refused frame. */
  #nak(nakedSeq: number | undefined, reason: string, lineError = true): LinkAction {
    const seq = this.#role.controlSeq();
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
