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
    // The planned cards and the cut card that marks the last hand (a cut card at this table, not
    // a joker); the dealer stops where the table ends the shoe: one coup (4-6 cards) after the cut.
    expect(observations.length).toBe(plannedCards(sim).length + 1);
    const cutAt = observations.findIndex((o) => o.record.t === 'cut');
    expect(observations.filter((o) => o.record.t === 'cut')).toHaveLength(1);
    expect(observations.length - 1 - cutAt).toBeGreaterThanOrEqual(4);
    expect(observations.length - 1 - cutAt).toBeLessThanOrEqual(6);
    expect(driver.status().identity?.model).toBe('TS-SHOE-SIM');
    // A frame is sent again when its ACK is late (100 ms here: a loaded machine is that slow);
    // the driver drops each copy that reached it by seq. It dropped nothing the shoe did not resend.
    expect(driver.status().counters.duplicatesDropped).toBeLessThanOrEqual(sim.stats.retransmitted);
  });
});
