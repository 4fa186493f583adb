/**
 * Issue 24 item 6: a shoe resent the same HELLO thousands of times, online,
 * and nothing was logged. The driver's stall watch (stall-watch.ts) raises
 * `link_stalled` once when a device keeps sending for `stalledAfterMs` with
 * nothing new taken, and says when events flow again; a device with nothing
 * to send, or one whose lost ACK costs a few retransmissions, is not stalled.
 * Virtual time.
 */
import { describe, expect, it } from 'vitest';
import { LINK_STALLED_AFTER_MS, StallWatch } from '../../../firmware-host/drivers/stall-watch.ts';

/** The device sends `type` every `everyMs` from `from` to `to`, the driver's beat checks every second. */
function run(watch: StallWatch, type: string, from: number, to: number, everyMs = 300) {
  const raised: number[] = [];
  for (let now = from; now <= to; now += 100) {
    if ((now - from) % everyMs === 0) watch.sent(type, now);
    if (now % 1000 === 0 && watch.check(now) !== undefined) raised.push(now);
  }
  return raised;
}

describe('the stall watch', () => {
  it('raises once for a HELLO sent again and again, names it, and says when events flow again', () => {
    const watch = new StallWatch();
    expect(LINK_STALLED_AFTER_MS).toBe(10_000);
    const raised = run(watch, 'HELLO', 0, 30_000);
    // The first beat after the HELLOs span 10 s (the one at 9.9 s, the beat at 11 s).
    expect(raised).toEqual([11_000]);
    expect(watch.stalled).toBe(true);
    expect(watch.progress(31_000)).toEqual({ stalledForMs: 31_000 });
    expect(watch.stalled).toBe(false);
    // Resumed once: progress again says nothing.
    expect(watch.progress(31_100)).toBeUndefined();
  });

  it('names what the device kept sending', () => {
    const watch = new StallWatch(2_000);
    for (let now = 0; now <= 2_100; now += 300) {
      watch.sent('HELLO', now);
      watch.sent('CARD', now + 1);
    }
    expect(watch.check(2_200)).toEqual({ forMs: 2_101, frames: { HELLO: 8, CARD: 8 } });
  });

  it('leaves alone a device whose new events keep being taken', () => {
    const watch = new StallWatch();
    const raised: number[] = [];
    for (let now = 0; now <= 60_000; now += 100) {
      watch.sent('CARD', now);
      if (now % 2_000 === 0) watch.progress(now);
      if (watch.check(now) !== undefined) raised.push(now);
    }
    expect(raised).toEqual([]);
  });

  it('leaves alone a device that sent its HELLO and has nothing more to send', () => {
    const watch = new StallWatch();
    watch.sent('HELLO', 0);
    for (let now = 0; now <= 60_000; now += 1_000) expect(watch.check(now)).toBeUndefined();
  });

  it('leaves alone a lost ACK that costs a few retransmissions, even if they recur', () => {
    const watch = new StallWatch();
    // Two seconds of retransmissions, then quiet for 6 s (the ACK got through), and again.
    const raised = [...run(watch, 'CARD', 0, 2_000), ...run(watch, 'CARD', 8_000, 10_000)];
    for (let now = 10_000; now <= 30_000; now += 1_000) {
      if (watch.check(now) !== undefined) raised.push(now);
    }
    expect(raised).toEqual([]);
  });
});
