import { describe, expect, it } from 'vitest';
import { benchPerTest, observedCards, plannedCards } from './helpers.ts';

describe('duplicated frames are dropped by seq', () => {
  const openBench = benchPerTest();

  const script = {
    on: [],
    off: [],
    steps: [{ op: 'shuffle' as const }, { op: 'deal' as const, count: 40 }],
  };

  it('a device that sends every frame twice still gives each card once', async () => {
    const current = openBench({
      kind: 'shoe',
      ruleset: 'tdc-baccarat-no-commission',
      seed: 3,
      scenario: script,
      faults: ['duplicate=1'],
    });
    const { sim, driver, observations } = current;
    await sim.whenReady();
    while (await sim.step());
    await sim.whenDone();
    expect(observedCards(observations)).toEqual(plannedCards(sim));
    expect(driver.status().counters.duplicatesDropped).toBeGreaterThanOrEqual(40);
  });

  it('a device that loses our ACKs retransmits, and the copies are dropped', async () => {
    const current = openBench({
      kind: 'shoe',
      ruleset: 'tdc-baccarat-no-commission',
      seed: 4,
      scenario: script,
      faults: ['lose-acks=0.3'],
    });
    const { sim, driver, observations } = current;
    await sim.whenReady();
    while (await sim.step());
    await sim.whenDone();
    expect(observedCards(observations)).toEqual(plannedCards(sim));
    expect(sim.stats.retransmitted).toBeGreaterThan(0);
    expect(driver.status().counters.duplicatesDropped).toBeGreaterThan(0);
  });
});
