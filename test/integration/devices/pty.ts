/** socat pty pairs for the integration tests, and the pty drills' bench on one. */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { DeviceDriver } from '../../../firmware-host/drivers/driver.ts';
import { SerialTransport } from '../../../hardware/transports/serial.ts';
import { SimulatedDevice, type SimulatorOptions } from '../../../simulators/device.ts';
import { tempDir as makeTempDir } from '../../helpers/temp.ts';

export { socatMissing } from '../../helpers/tools.ts';

export class PtyPair {
  readonly a: string;
  readonly b: string;
  private process: ChildProcess | undefined;

  constructor(directory = makeTempDir('tableside-pty-')) {
    this.a = join(directory, 'host');
    this.b = join(directory, 'device');
  }

  /** Starts socat and waits for both links. */
  async start(): Promise<void> {
    this.process = spawn(
      'socat',
      [`pty,raw,echo=0,link=${this.a}`, `pty,raw,echo=0,link=${this.b}`],
      { stdio: 'ignore' },
    );
    const started = Date.now();
    while (!(existsSync(this.a) && existsSync(this.b))) {
      if (Date.now() - started > 5_000) throw new Error('socat did not create the pty links');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Kills socat: both ptys vanish, like a cable pulled from both ends. */
  async kill(): Promise<void> {
    const child = this.process;
    this.process = undefined;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
    const started = Date.now();
    while (existsSync(this.a) || existsSync(this.b)) {
      if (Date.now() - started > 2_000) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

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
