import { afterEach, describe, expect, it } from 'vitest';
import { DeviceDriver, type Observation } from '../../../firmware-host/drivers/driver.ts';
import { SerialTransport } from '../../../hardware/transports/serial.ts';
import { SimulatedDevice } from '../../../simulators/device.ts';
import { observedCards, plannedCards, until } from './helpers.ts';
import { PtyPair, socatMissing } from './pty.ts';

const missing = socatMissing();
if (missing) console.warn(`skipped: ${missing}`);

describe.skipIf(missing !== undefined)('the driver reopens a killed pty and loses no card', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('socat killed twice mid-shoe and started again: every card once, in order', async () => {
    const pair = new PtyPair();
    await pair.start();
    cleanups.push(() => pair.kill());
    const sim = new SimulatedDevice({
      kind: 'shoe',
      ruleset: 'tdc-baccarat-no-commission',
      seed: 61,
      transport: new SerialTransport({ path: pair.b, baudRate: 115_200 }),
      scenario: { on: [], off: [], steps: [{ op: 'shuffle' }, { op: 'deal', count: 90 }] },
      session: { ackTimeoutMs: 150 },
      reconnect: { initialDelayMs: 20, maxDelayMs: 100, silenceTimeoutMs: 1_000 },
    });
    const driver = new DeviceDriver({
      name: 'shoe',
      kind: 'shoe',
      transport: new SerialTransport({ path: pair.a, baudRate: 115_200 }),
      timing: { heartbeatMs: 150, offlineAfterMs: 600, silenceTimeoutMs: 1_000 },
      session: { ackTimeoutMs: 150 },
      reconnect: { initialDelayMs: 20, maxDelayMs: 100 },
    });
    cleanups.push(async () => {
      await sim.stop();
      await driver.stop();
    });
    const observations: Observation[] = [];
    driver.on('record', (observation) => {
      observations.push(observation);
      observation.ack();
    });
    driver.start();
    sim.start();
    await sim.whenReady();
    await sim.stepMany(20);
    for (let round = 0; round < 2; round++) {
      await until(() => observations.length >= 10 + round * 30, 10_000, 'cards before the cut');
      await pair.kill();
      await sim.stepMany(10); // dealt while the line is dead
      await pair.start();
      await until(
        () => driver.availability === 'online' && sim.pending.inFlight === 0,
        15_000,
        'the line back',
      );
      await sim.stepMany(10);
    }
    while (await sim.step());
    await until(() => observations.length >= 90, 15_000, 'all cards');
    await sim.whenDone();
    expect(observedCards(observations)).toEqual(plannedCards(sim));
    expect(driver.status().counters.reconnects).toBeGreaterThanOrEqual(2);
  });
});
