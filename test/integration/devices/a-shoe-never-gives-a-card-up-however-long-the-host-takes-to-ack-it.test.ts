/**
 * A device never gives a card up (PROTOCOL.md § 3.4): the simulated shoe
 * retransmits an unacknowledged card for as long as it takes (the old
 * simulator stopped after 100 attempts), and the card reaches the table once.
 */
import { describe, expect, it } from 'vitest';
import { DEVICE_SESSION_DEFAULTS } from '../../../simulators/device.ts';
import { benchPerTest, until } from './helpers.ts';

describe('a shoe never gives a card up, however long the host takes to ACK it', () => {
  const openBench = benchPerTest();

  it('retransmits past any attempt limit, loses nothing, and the card is emitted once', async () => {
    expect(DEVICE_SESSION_DEFAULTS.maxAttempts).toBe(0);
    const current = openBench(
      {
        kind: 'shoe',
        ruleset: 'tdc-baccarat-no-commission',
        seed: 61,
        scenario: { on: [], off: [], steps: [{ op: 'shuffle' }, { op: 'deal', count: 2 }] },
        // A fast clock, so that 150 attempts take well under the test timeout.
        session: { ackTimeoutMs: 5 },
      },
      {},
      false,
    );
    const { sim, observations } = current;
    const lost: unknown[] = [];
    sim.on('lost', (action) => lost.push(action));
    await sim.whenReady();
    await sim.stepMany(2);
    await until(() => observations.length === 1, 5_000, 'the first card');
    await until(() => sim.stats.retransmitted > 150, 20_000, '150 retransmissions');
    expect(lost).toEqual([]);
    expect(observations).toHaveLength(1);
    // The second card waits behind the first (one event in flight).
    expect(sim.pending.queued).toBe(1);
    current.driver.on('record', (observation) => observation.ack());
    observations[0]!.ack();
    await sim.whenDone();
    expect(observations.map((o) => o.record.t)).toEqual(['card', 'card']);
    expect(lost).toEqual([]);
  });
});
