/**
 * Notices a device that keeps sending but makes no progress (issue 24 item
 * 6: a shoe that resent the same HELLO thousands of times, online, with
 * nothing logged). Pure: the driver tells it, with the time, each frame the
 * device sent of its own (a HELLO, an event: taken, dropped, refused or a
 * copy) and each new event it delivered; `check` says when to raise
 * `link_stalled`, once per stall, and `progress` when to say it resumed.
 *
 * A stall is a run of such frames, none more than `quietMs` after the one
 * before, spanning `stalledAfterMs` with no new event delivered. A device
 * that sent its HELLO and then nothing (nothing to deal) is not stalled, nor
 * is one whose lost ACK costs a few retransmissions: its run ends when the
 * ACK gets through.
 */

/** How long a device may keep sending with nothing taken before `link_stalled` (driver timing `stalledAfterMs`). */
export const LINK_STALLED_AFTER_MS = 10_000;

export interface Stall {
  /** From the first frame of the run to the latest. */
  readonly forMs: number;
  /** Frames of the run by TYPE, e.g. `{ HELLO: 33 }`: what the device keeps sending. */
  readonly frames: Readonly<Record<string, number>>;
}

export class StallWatch {
  readonly #stalledAfterMs: number;
  readonly #quietMs: number;
  #since: number | undefined;
  #last = Number.NEGATIVE_INFINITY;
  #frames: Record<string, number> = {};
  /** When the run that was raised began; undefined: no stall raised. */
  #stalledSince: number | undefined;

  /** `quietMs`: a longer gap between two frames ends the run (default half `stalledAfterMs`). */
  constructor(stalledAfterMs = LINK_STALLED_AFTER_MS, quietMs = Math.ceil(stalledAfterMs / 2)) {
    this.#stalledAfterMs = stalledAfterMs;
    this.#quietMs = quietMs;
  }

  get stalled(): boolean {
    return this.#stalledSince !== undefined;
  }

  /** The device sent a frame of its own (not ACK, NAK, PING, PONG or a handshake frame). */
  sent(type: string, now: number): void {
    if (this.#since === undefined || now - this.#last > this.#quietMs) {
      this.#since = now;
      this.#frames = {};
    }
    this.#last = now;
    this.#frames[type] = (this.#frames[type] ?? 0) + 1;
  }

  /** A new event was delivered. Returns how long the stall lasted when one had been raised. */
  progress(now: number): { stalledForMs: number } | undefined {
    this.#since = undefined;
    this.#frames = {};
    const since = this.#stalledSince;
    if (since === undefined) return undefined;
    this.#stalledSince = undefined;
    return { stalledForMs: now - since };
  }

  /** A stall to raise now (once per stall), or undefined. */
  check(now: number): Stall | undefined {
    const since = this.#since;
    if (this.#stalledSince !== undefined || since === undefined) return undefined;
    if (now - this.#last > this.#quietMs || this.#last - since < this.#stalledAfterMs) {
      return undefined;
    }
    this.#stalledSince = since;
    return { forMs: this.#last - since, frames: { ...this.#frames } };
  }
}
