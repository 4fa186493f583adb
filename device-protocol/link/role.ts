/**
 * Where the two ends of a line differ. The session (`session.ts`) is the
 * same for both: framing, dedupe, ACK and NAK, the outbox. At the few
 * points where the host and a device act differently it asks its role:
 * `HostRole` (`host-role.ts`) or `DeviceRole` (`device-role.ts`), one per
 * session, picked by the local talker. Neither role knows the other.
 */
import type { Frame, Talker } from '../frame.ts';
import type { decodeMessage, HelloMessage, Message, NakMessage } from '../messages.ts';
import type { LinkAction, LinkDiscardReason } from './actions.ts';
import type { ResolvedLinkOptions } from './options.ts';
import type { Outbox, Outgoing, SendPolicy } from './outbox.ts';
import type { PeerState } from './peers.ts';

/** The protocol version that added the in-order window (PROTOCOL.md § 3.8). */
export const IN_ORDER_SINCE = '1.2';

export type Decoded = ReturnType<typeof decodeMessage>;

/** What a role may use of its session. */
export interface LinkCore {
  readonly options: ResolvedLinkOptions;
  readonly outbox: Outbox;
  /** The HELLO our peer sent last (as `LinkSession.peerHello()`). */
  peerHello(): HelloMessage | undefined;
  /** Queues a message of ours (as `LinkSession.send`). */
  send(message: Message, now: number): LinkAction[];
  /** Takes a frame in: remembers its seq, ACKs it (unless deferred) and reports it. */
  accept(peer: PeerState, frame: Frame, decoded: Decoded, now: number): LinkAction[];
  nak(nakedSeq: number | undefined, reason: string): LinkAction;
  discarded(
    reason: LinkDiscardReason,
    detail: string,
    about: { talker?: Talker; seq?: number },
  ): LinkAction;
}

/**
 * `Peer`: what the role remembers of each peer, beside what the session
 * does (the host: its in-order delivery); the role makes each peer's.
 */
export interface LinkRole<Peer extends PeerState = PeerState> extends SendPolicy {
  /** A peer's state, at its first frame. */
  newPeer(): Peer;
  /** Device: whether the host has ACKed our HELLO. */
  readonly helloAcknowledged: boolean;
  /** The seq a message we queue takes; undefined: a new one. */
  seqFor(message: Message): number | undefined;
  /** The seq an ACK or NAK of ours carries. */
  controlSeq(): number;
  /** Whether a frame the peer ACKed stays in flight (marked `acked`) rather than going. */
  keepsAcked(entry: Outgoing): boolean;
  /** The peer ACKed `entry` (first ACK or a repeat); what follows goes into `actions`. */
  acked(entry: Outgoing, now: number, actions: LinkAction[]): void;
  /** A NAK the peer sent: true when the role answered it (into `actions`), false for the usual resend. */
  nakReceived(nak: NakMessage, now: number, actions: LinkAction[]): boolean;
  /** A reliable frame not yet seen: a refusal before it is taken, or undefined to go on. */
  refuses(peer: Peer, frame: Frame): LinkAction[] | undefined;
  /** Whether `seq` from `peer` is held, not delivered yet (a copy of it is a duplicate). */
  holds(peer: Peer, seq: number): boolean;
  /** A copy of a held frame arrived; anything to ask again goes into `actions`. */
  heldAgain(peer: Peer, now: number, actions: LinkAction[]): void;
  /** The peer's HELLO (its seqs and owed ACKs already reset): take it in. */
  helloReceived(peer: Peer, frame: Frame, decoded: Decoded, now: number): LinkAction[];
  /**
   * Any other reliable frame, new: what the role does with it (the host
   * holds a 1.2 device's frames in order), or undefined for the session to
   * take it in as it comes.
   */
  take(peer: Peer, frame: Frame, decoded: Decoded, now: number): LinkAction[] | undefined;
  /** The peer's HELLO was delivered; what follows goes into `actions`. */
  peerHelloDelivered(talker: Talker, now: number, actions: LinkAction[]): void;
  /** A line naming `seq` of `peer` could not be read (and was NAKed unless it had no `$`). */
  unreadLine(peer: Peer, seq: number, now: number): void;
  /** Our end of the line was opened again. */
  lineReopened(): void;
}
