import { describe, expect, it } from 'vitest';
import { benchPerTest, observedCards, plannedCards } from './helpers.ts';

describe('a shoe simulator deals a whole shoe to the driver over an in-memory wire', () => {
  const openBench = benchPerTest();

  it('delivers every planned card once, in order, with the cut card where the ruleset puts it', async () => {
    const current = openBench({ kind: 'shoe', ruleset: 'tdc-baccarat-no-commission', seed: 7 });
    const { sim, driver, observations } = current;
    await sim.whenReady();
    await driver.whenOnline();
    while (await sim.step());
    await sim.whenDone();
    expect(observedCards(observations)).toEqual(plannedCards(sim));
    // Eight decks and the cut card that marks the last hand (a cut card at this table, not a joker).
    expect(observations.length).toBe(8 * 52 + 1);
    const cutAt = observations.findIndex((o) => o.record.t === 'cut');
    expect(observations.filter((o) => o.record.t === 'cut')).toHaveLength(1);
    expect(observations.length - 1 - cutAt).toBe(7);
    expect(driver.status().identity?.model).toBe('TS-SHOE-SIM');
    expect(driver.status().counters.duplicatesDropped).toBe(0);
  });
});
