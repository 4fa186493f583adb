/** What the link session reports (its actions) and counts (its stats). */
import type { DiscardReason, Frame, Talker } from '../frame.ts';
import type { Message } from '../messages.ts';

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
   * keeping to § 3.8 never causes this; it is counted so that one that
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

/** Every discard reason, each counted from 0. */
const DISCARD_REASONS: readonly LinkDiscardReason[] = [
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
];

export function emptyStats(): LinkStats {
  const discarded = {} as Record<LinkDiscardReason, number>;
  for (const reason of DISCARD_REASONS) discarded[reason] = 0;
  return {
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
