import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../../firmware-host/table/events.ts';
import { simulatorFirmwareSha256, simulatorModel } from '../../../simulators/device.ts';
import { benchPerTest } from './helpers.ts';

const allowList = { [simulatorModel('shoe')]: [simulatorFirmwareSha256('shoe')] };
const script = {
  on: [],
  off: [],
  steps: [{ op: 'shuffle' as const }, { op: 'deal' as const, count: 12 }],
};

describe('a quarantined device has its cards refused', () => {
  const openBench = benchPerTest();

  it('a shoe whose firmware hash is not allowed gets no card through, and an alarm says why', async () => {
    const current = openBench(
      {
        kind: 'shoe',
        ruleset: 'tdc-baccarat-no-commission',
        seed: 5,
        scenario: script,
        faults: ['firmware-mismatch'],
      },
      { allowedFirmware: allowList },
    );
    const alarms: DomainEvent[] = [];
    current.driver.on('alarm', (alarm) => alarms.push(alarm));
    const { sim, driver, observations } = current;
    await sim.whenReady();
    while (await sim.step());
    await sim.whenDone();
    expect(observations).toHaveLength(0);
    expect(driver.status().counters.cardsRefused).toBe(12);
    expect(driver.status().quarantined).toMatch(/not in the allow-list/);
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({ type: 'alarm', kind: 'device_quarantined', device: 'shoe' });
  });

  it('the same shoe with its allowed firmware deals normally', async () => {
    const current = openBench(
      { kind: 'shoe', ruleset: 'tdc-baccarat-no-commission', seed: 5, scenario: script },
      { allowedFirmware: allowList },
    );
    const { sim, driver, observations } = current;
    await sim.whenReady();
    while (await sim.step());
    await sim.whenDone();
    expect(observations).toHaveLength(12);
    expect(driver.isQuarantined).toBe(false);
  });

  it('a model missing from the allow-list is quarantined too', async () => {
    const current = openBench(
      { kind: 'shoe', ruleset: 'tdc-baccarat-no-commission', seed: 5, scenario: script },
      { allowedFirmware: { 'OTHER-MODEL': [simulatorFirmwareSha256('shoe')] } },
    );
    const { sim, driver, observations } = current;
    await sim.whenReady();
    while (await sim.step());
    await sim.whenDone();
    expect(observations).toHaveLength(0);
    expect(driver.status().quarantined).toMatch(
      /model TS-SHOE-SIM is not in the firmware allow-list/,
    );
  });
});
