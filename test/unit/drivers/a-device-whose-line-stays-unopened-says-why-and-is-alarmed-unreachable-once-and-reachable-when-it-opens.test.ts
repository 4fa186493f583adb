/**
 * Issue 34 item 1: a configured device whose line cannot be opened (absent,
 * unplugged) is not just "offline": the driver's status says why (the
 * link's reason, with the path), how many tries failed and when the next one
 * comes; past `unreachableAfterMs` it raises `device_unreachable` once for
 * the outage, naming the address and the reason, and `device_reachable` once
 * the line opens again. Virtual time, so the threshold is exact.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeviceDriver } from '../../../firmware-host/drivers/driver.ts';
import type { DomainEvent } from '../../../firmware-host/table/events.ts';
import { createMemoryPair } from '../../../hardware/transports/memory.ts';

type Alarm = Extract<DomainEvent, { type: 'alarm' }>;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('a device whose line stays unopened', () => {
  it('says why in its status, is alarmed unreachable once past unreachableAfterMs, and reachable when the line opens', async () => {
    const wire = createMemoryPair('shoe-line');
    wire.sever('no such device');
    const driver = new DeviceDriver({
      name: 'shoe',
      kind: 'shoe',
      transport: wire.host,
      timing: { unreachableAfterMs: 5_000 },
      now: () => Date.now(),
    });
    const alarms: Alarm[] = [];
    driver.on('alarm', (alarm) => alarms.push(alarm));
    // While a retry's open is under way, the status keeps the failure before it (not 'retry').
    const whileOpening: string[] = [];
    driver.on('link', (change) => {
      if (change.state === 'opening') whileOpening.push(driver.status().line?.reason ?? 'none');
    });
    driver.start();
    await vi.advanceTimersByTimeAsync(4_000);
    expect(whileOpening[0]).toBe('opening memory://shoe-line');
    expect(new Set(whileOpening.slice(1))).toEqual(
      new Set(['open failed: memory://shoe-line: wire is severed']),
    );

    const line = driver.status().line;
    expect(line?.reason).toBe('open failed: memory://shoe-line: wire is severed');
    expect(line?.attempt).toBeGreaterThanOrEqual(3);
    expect(line?.nextTryInMs).toBeGreaterThanOrEqual(0);
    expect(line?.nextTryInMs).toBeLessThanOrEqual(1_500);
    expect(line?.unreachableForMs).toBe(4_000);
    expect(line?.alarmed).toBe(false);
    expect(alarms).toEqual([]);

    await vi.advanceTimersByTimeAsync(2_000);
    expect(alarms.map((alarm) => alarm.kind)).toEqual(['device_unreachable']);
    expect(alarms[0]?.message).toMatch(
      /^shoe: memory:\/\/shoe-line not open for 5 s: open failed: memory:\/\/shoe-line: wire is severed \(\d+ attempt\(s\), tried again every 1\.5 s at most\)/,
    );
    expect(alarms[0]).toMatchObject({ device: 'shoe', url: 'memory://shoe-line' });
    expect(driver.status().line?.alarmed).toBe(true);

    // Once per outage, however long it lasts.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(alarms).toHaveLength(1);

    wire.restore();
    await vi.advanceTimersByTimeAsync(1_500);
    expect(driver.link.state).toBe('open');
    expect(alarms.map((alarm) => alarm.kind)).toEqual(['device_unreachable', 'device_reachable']);
    // Restored at 66 s; opened at the next try, within the backoff's 1.5 s.
    expect(alarms[1]?.message).toMatch(
      /^shoe: memory:\/\/shoe-line open again after 6[67] s unreachable$/,
    );
    expect(alarms[1]?.unreachableForMs).toBeGreaterThanOrEqual(66_000);
    expect(alarms[1]?.unreachableForMs).toBeLessThanOrEqual(67_500);
    expect(driver.status().line).toBeUndefined();
    await driver.stop();
  });

  it('raises nothing for a line that opens within unreachableAfterMs, and reads the default of 30 s', async () => {
    const wire = createMemoryPair('shoe-late');
    wire.sever('unplugged');
    const driver = new DeviceDriver({
      name: 'shoe',
      kind: 'shoe',
      transport: wire.host,
      now: () => Date.now(),
    });
    expect(driver.timing.unreachableAfterMs).toBe(30_000);
    const alarms: Alarm[] = [];
    driver.on('alarm', (alarm) => alarms.push(alarm));
    driver.start();
    await vi.advanceTimersByTimeAsync(28_000);
    wire.restore();
    await vi.advanceTimersByTimeAsync(1_500);
    expect(driver.link.state).toBe('open');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(alarms).toEqual([]);
    await driver.stop();
  });
});
