/**
 * The host process restarts while a paired shoe keeps running (its line
 * stays up): the new host knows no session, so the shoe's sealed frames get
 * `NAK hello`, the shoe says HELLO again, proves its key to the new host and
 * every card still arrives once, with no alarm.
 */
import { describe, expect, it } from 'vitest';
import { DeviceDriver, type Observation } from '../../../firmware-host/drivers/driver.ts';
import { createMemoryPair } from '../../../hardware/transports/memory.ts';
import { SimulatedDevice } from '../../../simulators/device.ts';
import { alarmsOf, ed25519Key, SHOE_SCRIPT, until } from './auth-helpers.ts';
import { FAST_RECONNECT, FAST_TIMING } from './helpers.ts';

describe('a paired shoe that kept running while the host restarted', () => {
  it('proves itself to the new host and loses no card', async () => {
    const key = await ed25519Key();
    const wire = createMemoryPair(`restart-${Math.random().toString(36).slice(2)}`);
    const sim = new SimulatedDevice({
      kind: 'shoe',
      ruleset: 'tdc-baccarat-no-commission',
      seed: 21,
      scenario: SHOE_SCRIPT,
      key,
      transport: wire.device,
      reconnect: FAST_RECONNECT,
      session: { ackTimeoutMs: 100 },
    });
    const observations: Observation[] = [];
    const newDriver = () => {
      const driver = new DeviceDriver({
        name: 'shoe',
        kind: 'shoe',
        transport: wire.host,
        pairedKey: key.publicKey,
        timing: FAST_TIMING,
        reconnect: FAST_RECONNECT,
        session: { ackTimeoutMs: 100 },
      });
      driver.on('record', (observation) => {
        observations.push(observation);
        observation.ack();
      });
      driver.start();
      return driver;
    };
    let driver = newDriver();
    sim.start();
    try {
      await sim.whenReady();
      await sim.stepMany(2);
      await until(() => observations.length === 2, 'two cards');
      await driver.stop();
      driver = newDriver();
      const alarms = alarmsOf(driver);
      while (await sim.step());
      await sim.whenDone();
      const dealt = observations.map((o) => (o.record.t === 'card' ? o.record.card : ''));
      expect(dealt).toEqual(sim.steps.flatMap((step) => (step.kind === 'card' ? [step.card] : [])));
      expect(driver.status().auth).toMatchObject({ state: 'authenticated', handshakes: 1 });
      expect(alarms).toEqual([]);
    } finally {
      await sim.stop();
      await driver.stop();
    }
  });
});
