import { afterEach, describe, expect, it } from 'vitest';
import { DeviceDriver, type Observation } from '../../../firmware-host/drivers/driver.ts';
import { SerialTransport } from '../../../hardware/transports/serial.ts';
import { SimulatedDevice } from '../../../simulators/device.ts';
import { until } from './helpers.ts';
import { PtyPair, socatMissing } from './pty.ts';

const missing = socatMissing();
if (missing) console.warn(`skipped: ${missing}`);

/** The frame types of the lines one side wrote, in order. */
function typesOf(lines: readonly string[]): string[] {
  return lines.map((line) => line.split('*')[0]!.split(',')[2]!);
}

describe.skipIf(missing !== undefined)(
  'a device on a pty sends one HELLO when the host answers it',
  () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    it('the HELLOs cross on the wire, the host ACKs the device: no HELLO again, one handshake', async () => {
      const pair = new PtyPair();
      await pair.start();
      cleanups.push(() => pair.kill());
      const driver = new DeviceDriver({
        name: 'shoe',
        kind: 'shoe',
        transport: new SerialTransport({ path: pair.a, baudRate: 115_200 }),
        timing: { heartbeatMs: 200 },
      });
      const sim = new SimulatedDevice({
        kind: 'shoe',
        ruleset: 'tdc-baccarat-no-commission',
        seed: 5,
        transport: new SerialTransport({ path: pair.b, baudRate: 115_200 }),
        scenario: { on: [], off: [], steps: [{ op: 'shuffle' }, { op: 'deal', count: 4 }] },
      });
      cleanups.push(async () => {
        await sim.stop();
        await driver.stop();
      });
      const written: string[] = [];
      sim.on('wrote', (line) => written.push(line.trim()));
      const hellos: string[] = [];
      driver.on('hello', (identity) => hellos.push(identity.serial));
      const observations: Observation[] = [];
      driver.on('record', (observation) => {
        observations.push(observation);
        observation.ack();
      });
      let hostOpen = false;
      driver.on('link', (change) => {
        if (change.state === 'open') hostOpen = true;
      });
      driver.start();
      // The host listens first, so the device's first HELLO is read and answered.
      await until(() => hostOpen, 5_000, 'the host end open');
      sim.start();
      await sim.whenReady();
      while (await sim.step());
      await sim.whenDone();
      await until(() => observations.length >= 4, 5_000, 'the four cards');
      // Several ACK timeouts (300 ms) and host PINGs later: still the one HELLO.
      await new Promise((resolve) => setTimeout(resolve, 1_000));

      const types = typesOf(written);
      expect(types.filter((type) => type === 'HELLO')).toHaveLength(1);
      expect(types[0]).toBe('HELLO');
      expect(types.filter((type) => type === 'PROOF')).toHaveLength(1);
      expect(hellos).toEqual([sim.identity.serial]);
      expect(observations.filter((observation) => observation.record.t === 'card')).toHaveLength(4);
    });
  },
);
