/** Shared wiring for the device integration tests: a simulator and a driver on one wire. */

import { afterEach } from 'vitest';
import {
  DeviceDriver,
  type DriverOptions,
  type Observation,
} from '../../../firmware-host/drivers/driver.ts';
import { createMemoryPair, type MemoryWire } from '../../../hardware/transports/memory.ts';
import { SimulatedDevice, type SimulatorOptions } from '../../../simulators/device.ts';
import { until as sharedUntil } from '../../helpers/until.ts';

export interface Bench {
  wire: MemoryWire;
  sim: SimulatedDevice;
  driver: DeviceDriver;
  observations: Observation[];
  stop(): Promise<void>;
}

/** Fast timings so that faults resolve in well under a second. */
export const FAST_TIMING = {
  heartbeatMs: 100,
  offlineAfterMs: 400,
  silenceTimeoutMs: 800,
  commandTimeoutMs: 2_000,
};

export const FAST_RECONNECT = { initialDelayMs: 10, maxDelayMs: 50 };

export function bench(
  simOptions: Omit<SimulatorOptions, 'transport'>,
  driverOptions: Partial<Omit<DriverOptions, 'transport' | 'kind'>> = {},
  autoAck = true,
): Bench {
  const wire = createMemoryPair(`bench-${Math.random().toString(36).slice(2)}`);
  const sim = new SimulatedDevice({
    reconnect: FAST_RECONNECT,
    session: { ackTimeoutMs: 100 },
    ...simOptions,
    transport: wire.device,
  });
  const driver = new DeviceDriver({
    name: simOptions.kind,
    timing: FAST_TIMING,
    reconnect: FAST_RECONNECT,
    session: { ackTimeoutMs: 100 },
    ...driverOptions,
    kind: simOptions.kind,
    transport: wire.host,
  });
  const observations: Observation[] = [];
  driver.on('record', (observation) => {
    observations.push(observation);
    if (autoAck) observation.ack();
  });
  driver.start();
  sim.start();
  return {
    wire,
    sim,
    driver,
    observations,
    async stop() {
      await sim.stop();
      await driver.stop();
    },
  };
}

/**
 * Benches for the tests of the describe block that calls this, each stopped
 * after its test: `const openBench = benchPerTest();` then, in a test,
 * `const current = openBench({ ... })` with `bench`'s arguments.
 */
export function benchPerTest(): (...args: Parameters<typeof bench>) => Bench {
  const open: Bench[] = [];
  afterEach(async () => {
    for (const current of open.splice(0)) await current.stop();
  });
  return (...args) => {
    const current = bench(...args);
    open.push(current);
    return current;
  };
}

/** The suite's one wait (test/helpers/until.ts), its timeout before what it waits for. */
export function until(predicate: () => boolean, timeoutMs = 10_000, what = 'condition') {
  return sharedUntil(predicate, what, timeoutMs);
}

/** The card codes and backs the simulator's plan deals, in order. */
export function plannedCards(sim: SimulatedDevice): string[] {
  return sim.steps.flatMap((step) =>
    step.kind === 'card' ? [`${step.card}/${step.back}/${step.face}`] : [],
  );
}

/**
 * What a table whose decks alternate `colours` expects of the next shuffle,
 * as a driver's `expectedBacks` asks it: the other colour than the last
 * shuffle recorded (the first colour before any).
 */
export function otherColourThanLast(
  observations: readonly Observation[],
  colours: readonly [string, string],
): string[] {
  const last = observations.findLast((observation) => observation.record.t === 'shuffle');
  const lastColour = last?.record.t === 'shuffle' ? last.record.backs[0] : undefined;
  return [lastColour === colours[0] ? colours[1] : colours[0]];
}

export function observedCards(observations: readonly Observation[]): string[] {
  return observations.flatMap((observation) =>
    observation.record.t === 'card'
      ? [`${observation.record.card}/${observation.record.back}/${observation.record.face}`]
      : [],
  );
}
