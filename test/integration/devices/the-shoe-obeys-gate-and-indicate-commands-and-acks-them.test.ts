import { describe, expect, it } from 'vitest';
import { isDriverError } from '../../../firmware-host/drivers/errors.ts';
import { benchPerTest, until } from './helpers.ts';

describe('the shoe obeys gate and indicate commands and ACKs them', () => {
  const openBench = benchPerTest();

  it('lights and the gate follow the commands; a locked gate stops the deal', async () => {
    const current = openBench({
      kind: 'shoe',
      ruleset: 'tdc-baccarat-no-commission',
      seed: 31,
      scenario: { on: [], off: [], steps: [{ op: 'shuffle' }, { op: 'deal', count: 4 }] },
    });
    const { sim, driver, observations } = current;
    await sim.whenReady();
    await driver.whenOnline();
    await driver.indicate('green', 'blink');
    expect(sim.lights.get('green')).toBe('blink');
    await driver.gate('lock');
    expect(sim.gateLocked).toBe(true);
    const stepping = sim.step();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(observations).toHaveLength(0);
    await driver.gate('unlock');
    await stepping;
    await until(() => observations.length === 1, 5_000, 'the card after unlock');
  });

  it('a command to a shoe that does not answer fails with a coded error', async () => {
    const current = openBench(
      { kind: 'shoe', ruleset: 'tdc-baccarat-no-commission', seed: 32, faults: ['drop-acks=1'] },
      {
        timing: {
          heartbeatMs: 100,
          offlineAfterMs: 400,
          silenceTimeoutMs: 0,
          commandTimeoutMs: 300,
        },
      },
    );
    const { sim, driver } = current;
    await sim.whenReady();
    const failure = await driver.indicate('red', 'on').catch((error: unknown) => error);
    expect(isDriverError(failure) && failure.code).toBe('command_failed');
    expect(sim.lights.get('red')).toBe('on'); // it heard; only the ACK was lost
    expect(driver.status().counters.commandsFailed).toBe(1);
  });
});
