/**
 * Replays inside one authenticated session (PROTOCOL.md § 5.4). A frame
 * MACed under this session's key was sent by the device in this session;
 * sent again it is either a retransmission (its ACK was lost or is still
 * owed) or an attacker's replay of a frame the host has long stored. A
 * sender never retransmits a frame once `window` newer seqs have gone by, so
 * a seq accepted before and that far behind the newest is a replay. Frames
 * from other sessions never get this far: their MAC fails.
 */
import { SEQ_MODULUS } from '../frame.ts';

const QUARTER = SEQ_MODULUS / 4;

export class ReplayGuard {
  private readonly seen = new Uint8Array(SEQ_MODULUS);
  private newest: number | undefined;

  constructor(private readonly window = 2048) {}

  /** Records `seq`; returns false when it is a replay. */
  accept(seq: number): boolean {
    if (this.newest === undefined) {
      this.newest = seq;
      this.seen[seq] = 1;
      return true;
    }
    const behind = (this.newest - seq + SEQ_MODULUS) % SEQ_MODULUS;
    if (behind === 0) return true;
    if (behind < SEQ_MODULUS / 2) {
      // At or behind the newest: a retransmission while recent, else a replay.
      if (this.seen[seq] === 1 && behind > this.window) return false;
      this.seen[seq] = 1;
      return true;
    }
    this.seen[seq] = 1;
    const previousQuarter = Math.floor(this.newest / QUARTER);
    this.newest = seq;
    const quarter = Math.floor(seq / QUARTER);
    if (quarter !== previousQuarter) {
      // Half a lap ahead of the counter, seqs will be used afresh after the wrap.
      const stale = ((quarter + 2) % 4) * QUARTER;
      this.seen.fill(0, stale, stale + QUARTER);
    }
    return true;
  }
}
