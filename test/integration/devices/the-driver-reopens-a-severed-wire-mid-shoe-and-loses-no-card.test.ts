import { describe, expect, it } from 'vitest';
import { benchPerTest, observedCards, plannedCards, until } from './helpers.ts';

describe('the driver reopens a severed wire mid-shoe and loses no card', () => {
  const openBench = benchPerTest();

  it('cards dealt while unplugged are sent after the reopen; none is doubled', async () => {
    const current = openBench({
      kind: 'shoe',
      ruleset: 'tdc-baccarat-no-commission',
      seed: 21,
      scenario: { on: [], off: [], steps: [{ op: 'shuffle' }, { op: 'deal', count: 80 }] },
    });
    const { sim, wire, driver, observations } = current;
    await sim.whenReady();
    await sim.stepMany(20);
    await until(() => observations.length >= 10, 5_000, 'some cards');
    for (let cut = 0; cut < 3; cut++) {
      wire.sever(`unplugged ${cut}`);
      await sim.stepMany(10); // the dealer goes on dealing; the shoe buffers
      await new Promise((resolve) => setTimeout(resolve, 60));
      wire.restore();
      await until(() => driver.availability === 'online', 5_000, 'back online');
      await sim.stepMany(5);
    }
    while (await sim.step());
    await sim.whenDone();
    expect(observedCards(observations)).toEqual(plannedCards(sim));
    expect(driver.status().counters.reconnects).toBeGreaterThanOrEqual(3);
  });

  it('a silent device goes offline, the link reopens, and it comes back online', async () => {
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
    await sim.whenReady();
    await until(() => driver.availability === 'online', 5_000, 'online');
    while (await sim.step());
    await sim.whenDone();
    expect(observations).toHaveLength(6);
    expect(availability).toContain('offline');
    expect(driver.availability).toBe('online');
  });
});
