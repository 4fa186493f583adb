import { afterEach } from 'vitest';
import { DeviceDriver } from '../../../firmware-host/drivers/driver.ts';
import { SerialTransport } from '../../../hardware/transports/serial.ts';
import { SimulatedDevice, type SimulatorOptions } from '../../../simulators/device.ts';

export { socatMissing } from '../../helpers/tools.ts';

import { PtyPair } from '../../helpers/pty-pair.ts';

export { PtyPair };

/**
 * The pty drills' bench, for the tests of the describe block that calls
 * this: a fresh pair, the simulator on its device end and drivers on its
 * host end over real serial ports, quick to notice a dead line; all of it
 * stopped after each test, last made first.
 */
export function ptyBenchPerTest() {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return {
    async pair(): Promise<PtyPair> {
      const pair = new PtyPair();
      await pair.start();
      cleanups.push(() => pair.kill());
      return pair;
    },
    simulator(pair: PtyPair, options: Omit<SimulatorOptions, 'transport'>): SimulatedDevice {
      const sim = new SimulatedDevice({
        reconnect: { initialDelayMs: 20, maxDelayMs: 100, silenceTimeoutMs: 1_000 },
        ...options,
        transport: new SerialTransport({ path: pair.b, baudRate: 115_200 }),
      });
      cleanups.push(() => sim.stop());
      return sim;
    },
    /** A shoe's driver; stopped after the test (stopping it earlier is fine too). */
    driver(pair: PtyPair): DeviceDriver {
      const driver = new DeviceDriver({
        name: 'shoe',
        kind: 'shoe',
        transport: new SerialTransport({ path: pair.a, baudRate: 115_200 }),
        timing: { heartbeatMs: 200, offlineAfterMs: 800, silenceTimeoutMs: 2_000 },
        reconnect: { initialDelayMs: 20, maxDelayMs: 100 },
      });
      cleanups.push(() => driver.stop());
      return driver;
    },
  };
}
