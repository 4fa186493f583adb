import { describe, expect, it } from 'vitest';
import { benchPerTest, observedCards, plannedCards, until } from './helpers.ts';

const script = {
  on: [],
  off: [],
  steps: [{ op: 'shuffle' as const }, { op: 'deal' as const, count: 5 }],
};

describe('a card not confirmed durable is retransmitted and emitted once', () => {
  const openBench = benchPerTest();

  it('holds the device on its first card until the caller acknowledges it', async () => {
    const current = openBench(
      { kind: 'shoe', ruleset: 'tdc-baccarat-no-commission', seed: 9, scenario: script },
      {},
      false,
    );
    const { sim, observations } = current;
    await sim.whenReady();
    await sim.stepMany(5);
    await until(() => observations.length === 1, 5_000, 'the first card');
    const retransmittedBefore = sim.stats.retransmitted;
    await until(() => sim.stats.retransmitted >= retransmittedBefore + 3, 5_000, 'retransmissions');
    // Retransmitted, but not emitted again, and nothing after it overtook it.
    expect(observations).toHaveLength(1);
    // Acknowledge each record as it comes: the rest flows.
    current.driver.on('record', (observation) => observation.ack());
    observations[0]!.ack();
    await until(() => observations.length === 5, 5_000, 'the other cards');
    for (const observation of observations) observation.ack();
    await sim.whenDone();
    expect(observedCards(observations)).toEqual(plannedCards(sim));
  });

  it('a card stored while the line was down is ACKed when the device sends it again, and not emitted twice', async () => {
    const current = openBench(
      { kind: 'shoe', ruleset: 'tdc-baccarat-no-commission', seed: 10, scenario: script },
      {},
      false,
    );
    const { sim, wire, driver, observations } = current;
    await sim.whenReady();
    await sim.step();
    await until(() => observations.length === 1, 5_000, 'the first card');
    wire.sever('unplugged');
    observations[0]!.ack(); // durable while the device cannot hear the ACK
    wire.restore();
    driver.on('record', (observation) => observation.ack());
    while (await sim.step());
    await sim.whenDone();
    expect(observedCards(observations)).toEqual(plannedCards(sim));
    expect(driver.status().counters.duplicatesDropped).toBeGreaterThanOrEqual(1);
    expect(driver.status().counters.reconnects).toBeGreaterThanOrEqual(1);
  });
});
