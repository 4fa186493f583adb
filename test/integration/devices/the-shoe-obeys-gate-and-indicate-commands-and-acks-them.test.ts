/**
 * On the virtual clock (test/helpers/virtual-table.ts): a locked gate holds
 * the deal for a whole second of table time, and a command's timeout is the
 * driver's 300 ms however loaded the machine.
 */
import { describe, expect, it } from 'vitest';
import { isDriverError } from '../../../firmware-host/drivers/errors.ts';
import { installVirtualClock } from '../../helpers/virtual-table.ts';
import { benchPerTest } from './helpers.ts';

describe('the shoe obeys gate and indicate commands and ACKs them', () => {
  const openBench = benchPerTest();

  it('lights and the gate follow the commands; a locked gate stops the deal', async () => {
    const clock = installVirtualClock();
    const current = openBench({
      kind: 'shoe',
      ruleset: 'tdc-baccarat-no-commission',
      seed: 31,
      scenario: { on: [], off: [], steps: [{ op: 'shuffle' }, { op: 'deal', count: 4 }] },
    });
    const { sim, driver, observations } = current;
    await clock.drive(sim.whenReady(), 5_000, 'device ready');
    await clock.drive(driver.whenOnline(), 5_000, 'online');
    await clock.drive(driver.indicate('green', 'blink'), 5_000, 'indicate ACKed');
    expect(sim.lights.get('green')).toBe('blink');
    await clock.drive(driver.gate('lock'), 5_000, 'gate lock ACKed');
    expect(sim.gateLocked).toBe(true);
    const stepping = sim.step();
    await clock.advance(1_000);
    expect(observations).toHaveLength(0);
    await clock.drive(driver.gate('unlock'), 5_000, 'gate unlock ACKed');
    await clock.drive(stepping, 5_000, 'the card dealt');
    await clock.runUntil(() => observations.length === 1, 5_000, 'the card after unlock');
  });

  it('a command to a shoe that does not answer fails with a coded error', async () => {
    const clock = installVirtualClock();
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
    await clock.drive(sim.whenReady(), 5_000, 'device ready');
    const failure = await clock.drive(
      driver.indicate('red', 'on').catch((error: unknown) => error),
      5_000,
      'the command to fail',
    );
    expect(isDriverError(failure) && failure.code).toBe('command_failed');
    expect(sim.lights.get('red')).toBe('on'); // it heard; only the ACK was lost
    expect(driver.status().counters.commandsFailed).toBe(1);
  });
});
