import { describe, expect, it } from 'vitest';
import { benchPerTest, observedCards, plannedCards } from './helpers.ts';

describe('corrupted bytes are NAKed and retransmitted and no card is lost', () => {
  const openBench = benchPerTest();

  it('every third event frame arrives with a bad CRC, yet every card arrives once, in order', async () => {
    const current = openBench({
      kind: 'shoe',
      ruleset: 'tdc-baccarat-no-commission',
      seed: 11,
      scenario: { on: [], off: [], steps: [{ op: 'shuffle' }, { op: 'deal', count: 60 }] },
      faults: ['corrupt-bytes=3'],
    });
    const { sim, driver, observations } = current;
    await sim.whenReady();
    while (await sim.step());
    await sim.whenDone();
    expect(observedCards(observations)).toEqual(plannedCards(sim));
    const counters = driver.status().counters;
    expect(counters.crcErrors).toBeGreaterThanOrEqual(20);
    expect(counters.naksSent).toBeGreaterThanOrEqual(20);
    expect(sim.stats.retransmitted).toBeGreaterThanOrEqual(20);
  });
});
