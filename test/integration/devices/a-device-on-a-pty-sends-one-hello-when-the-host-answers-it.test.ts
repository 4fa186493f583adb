import { describe, expect, it } from 'vitest';
import type { Observation } from '../../../firmware-host/drivers/driver.ts';
import { until } from './helpers.ts';
import { ptyBenchPerTest, socatMissing } from './pty.ts';

const missing = socatMissing();
if (missing) console.warn(`skipped: ${missing}`);

/** The frame types of the lines one side wrote, in order. */
function typesOf(lines: readonly string[]): string[] {
  return lines.map((line) => line.split('*')[0]!.split(',')[2]!);
}

describe.skipIf(missing !== undefined)(
  'a device on a pty sends one HELLO when the host answers it',
  () => {
    const bench = ptyBenchPerTest();

    it('the HELLOs cross on the wire, the host ACKs the device: no HELLO again, one handshake', async () => {
      const pair = await bench.pair();
      const driver = bench.driver(pair);
      const sim = bench.simulator(pair, {
        kind: 'shoe',
        ruleset: 'tdc-baccarat-no-commission',
        seed: 5,
        scenario: { on: [], off: [], steps: [{ op: 'shuffle' }, { op: 'deal', count: 4 }] },
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
      // Two ACK timeouts (500 ms) and host PINGs later: still the one HELLO.
      // fixed wait: nothing happens: no second HELLO may follow two ACK timeouts (500 ms) and the host's PINGs: only time shows it
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
