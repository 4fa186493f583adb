/**
 * What the link session remembers of each peer, in both roles: the recent
 * seqs it took (to drop duplicates), the deferred ACKs it still owes, and
 * the peer's latest HELLO.
 */
import { SEQ_MODULUS } from '../frame.ts';
import type { HelloMessage } from '../messages.ts';
import { OWED_LOOKBACK } from './in-order-delivery.ts';

export interface PeerState {
  /** Recent seqs, oldest first; the value says whether the ACK is still owed by `ack()`. */
  readonly window: Map<number, 'acked' | 'pending'>;
  /**
   * Deferred ACKs still owed for frames delivered before the peer's latest
   * HELLO. A reconnecting device keeps counting (PROTOCOL.md § 3.7),
   * so frames whose seqs precede its new HELLO are still its own and still
   * await their ACK; forgetting them would stall it until its retransmission
   * timer. Not used for dedupe (the window is, and a HELLO empties it).
   */
  readonly owed: Set<number>;
  hello?: HelloMessage;
}

/** Whether `seq` came before `hello` in one device's counting (modulo the wrap). */
export function precedes(seq: number, hello: number): boolean {
  const distance = (hello - seq + SEQ_MODULUS) % SEQ_MODULUS;
  return distance > 0 && distance <= OWED_LOOKBACK;
}

/** Remembers a seq taken from `peer`, forgetting the oldest past `dedupeWindow`. */
export function remember(
  peer: PeerState,
  seq: number,
  state: 'acked' | 'pending',
  dedupeWindow: number,
): void {
  peer.window.set(seq, state);
  // Forget the oldest acked seqs; a seq whose ACK is still owed stays until `ack`.
  if (peer.window.size <= dedupeWindow) return;
  for (const [oldSeq, oldState] of peer.window) {
    if (peer.window.size <= dedupeWindow) break;
    if (oldState === 'acked') peer.window.delete(oldSeq);
  }
  // A caller that never ACKs must not make the window grow without bound.
  for (const oldSeq of peer.window.keys()) {
    if (peer.window.size <= 2 * dedupeWindow) break;
    peer.window.delete(oldSeq);
  }
}

/**
 * A peer HELLO: a reconnect (seqs before this HELLO) keeps the ACKs the
 * caller owes; a restart (seqs start over) drops them, as they name frames
 * the device no longer has. The dedupe window starts over.
 */
export function greet(peer: PeerState, helloSeq: number, hello: HelloMessage): void {
  for (const [seq, state] of peer.window) {
    if (state === 'pending' && precedes(seq, helloSeq)) peer.owed.add(seq);
  }
  for (const seq of peer.owed) if (!precedes(seq, helloSeq)) peer.owed.delete(seq);
  peer.window.clear();
  peer.hello = hello;
}
