/**
 * On the virtual clock (test/helpers/virtual-table.ts): the reconnect
 * backoff, the heartbeats and the silence that takes the device offline run
 * in table time, so the scenario is the same on a loaded machine. The real
 * pty counterpart is the-driver-reopens-a-killed-pty-and-loses-no-card.
 */
import { describe, expect, it } from 'vitest';
import { installVirtualClock } from '../../helpers/virtual-table.ts';
import { benchPerTest, observedCards, plannedCards } from './helpers.ts';

describe('the driver reopens a severed wire mid-shoe and loses no card', () => {
  const openBench = benchPerTest();

  it('cards dealt while unplugged are sent after the reopen; none is doubled', async () => {
    const clock = installVirtualClock();
    const current = openBench({
      kind: 'shoe',
      ruleset: 'tdc-baccarat-no-commission',
      seed: 21,
      scenario: { on: [], off: [], steps: [{ op: 'shuffle' }, { op: 'deal', count: 80 }] },
    });
    const { sim, wire, driver, observations } = current;
    await clock.drive(sim.whenReady(), 5_000, 'device ready');
    await clock.drive(sim.stepMany(20), 5_000, '20 cards dealt');
    await clock.runUntil(() => observations.length >= 10, 5_000, 'some cards');
    for (let cut = 0; cut < 3; cut++) {
      wire.sever(`unplugged ${cut}`);
      await clock.drive(sim.stepMany(10), 5_000, '10 cards dealt unplugged'); // the shoe buffers
      await clock.advance(60);
      wire.restore();
      await clock.runUntil(() => driver.availability === 'online', 5_000, 'back online');
      await clock.drive(sim.stepMany(5), 5_000, '5 more cards');
    }
    await clock.drive(sim.stepMany(Number.POSITIVE_INFINITY), 60_000, 'the rest of the shoe');
    await clock.drive(sim.whenDone(), 60_000, 'every card acknowledged');
    expect(observedCards(observations)).toEqual(plannedCards(sim));
    expect(driver.status().counters.reconnects).toBeGreaterThanOrEqual(3);
  });

  it('a silent device goes offline, the link reopens, and it comes back online', async () => {
    const clock = installVirtualClock();
    const current = openBench({
      kind: 'shoe',
      ruleset: 'tdc-baccarat-no-commission',
      seed: 22,
      scenario: {
        on: [],
        off: [],
        steps: [
          { op: 'shuffle' },
          { op: 'deal', count: 3 },
          { op: 'silence', ms: 1_200 },
          { op: 'deal', count: 3 },
        ],
      },
    });
    const { sim, driver, observations } = current;
    const availability: string[] = [];
    driver.on('availability', (state) => availability.push(state));
    await clock.drive(sim.whenReady(), 5_000, 'device ready');
    await clock.runUntil(() => driver.availability === 'online', 5_000, 'online');
    await clock.drive(sim.stepMany(Number.POSITIVE_INFINITY), 60_000, 'the whole plan');
    await clock.drive(sim.whenDone(), 60_000, 'every card acknowledged');
    expect(observations).toHaveLength(6);
    expect(availability).toContain('offline');
    expect(driver.availability).toBe('online');
  });
});
