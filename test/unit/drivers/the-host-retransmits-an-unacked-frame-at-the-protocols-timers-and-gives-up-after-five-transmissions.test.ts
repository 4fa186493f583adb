/**
 * PROTOCOL.md § 3.4 and § 3.11: the host waits 500 ms for an ACK, then 1.5
 * times longer per attempt, and gives up after 5 transmissions in all. The
 * driver once overrode this (400 ms, 6 transmissions). A device that hears
 * the host but never ACKs its PING shows the copies' times, on virtual time.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { encodeFrame, messageFrame } from '../../../device-protocol/index.ts';
import { DeviceDriver } from '../../../firmware-host/drivers/driver.ts';
import { createMemoryPair } from '../../../hardware/transports/memory.ts';
import { shoeHello } from '../../helpers/device-hello.ts';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'setImmediate', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the host link timers', () => {
  it('sends an unACKed PING 5 times, 500 ms then 1.5 times longer apart', async () => {
    const wire = createMemoryPair('host-timers');
    const device = wire.device;
    await device.open();
    /** Each copy of each host PING: seq to the virtual times it was heard. */
    const pings = new Map<number, number[]>();
    device.on('data', (chunk) => {
      for (const line of chunk.toString('latin1').split('\r\n')) {
        const ping = /^\$HO,(\d+),PING\b/.exec(line);
        if (!ping) continue;
        const seq = Number(ping[1]);
        pings.set(seq, [...(pings.get(seq) ?? []), Date.now()]);
      }
    });
    const driver = new DeviceDriver({
      name: 'shoe',
      kind: 'shoe',
      transport: wire.host,
      // One PING, then none for as long as its copies take; the device stays online meanwhile.
      timing: { heartbeatMs: 1_000, offlineAfterMs: 60_000 },
      reconnect: { silenceTimeoutMs: 120_000 },
      now: () => Date.now(),
    });
    driver.start();
    await vi.advanceTimersByTimeAsync(1);
    // The device says HELLO and ACKs the host's HELLO, but never a PING.
    await device.write(Buffer.from(`${encodeFrame(messageFrame('SH', 0, shoeHello()))}\r\n`));
    for (let at = 0; at < 12_000; at += 10) await vi.advanceTimersByTimeAsync(10);
    const [first] = [...pings.values()];
    expect(first, `PINGs heard: ${JSON.stringify([...pings])}`).toBeDefined();
    const gaps = first!.slice(1).map((at, index) => at - first![index]!);
    expect(gaps).toHaveLength(4);
    [500, 750, 1_125, 1_687.5].forEach((expected, index) => {
      expect(
        Math.abs(gaps[index]! - expected),
        `gap ${index + 1}: ${gaps.join(', ')}`,
      ).toBeLessThanOrEqual(20);
    });
    await driver.stop();
  });
});
