/**
 * A device never gives a card up (PROTOCOL.md § 3.4): the simulated shoe
 * retransmits an unacknowledged card for as long as it takes (the old
 * simulator stopped after 100 attempts), and the card reaches the table once.
 * On the virtual clock (test/helpers/virtual-table.ts): the 150 attempts come
 * at the shoe's pace however loaded the machine (with the device's own 300 ms
 * timeout they would be 45 s of table time, which costs more real time than
 * this fast one: each timer fired is real work).
 */
import { describe, expect, it } from 'vitest';
import { DEVICE_SESSION_DEFAULTS } from '../../../simulators/device.ts';
import { installVirtualClock } from '../../helpers/virtual-table.ts';
import { benchPerTest } from './helpers.ts';

describe('a shoe never gives a card up, however long the host takes to ACK it', () => {
  const openBench = benchPerTest();

  it('retransmits past any attempt limit, loses nothing, and the card is emitted once', async () => {
    expect(DEVICE_SESSION_DEFAULTS.maxAttempts).toBe(0);
    const clock = installVirtualClock();
    const current = openBench(
      {
        kind: 'shoe',
        ruleset: 'tdc-baccarat-no-commission',
        seed: 61,
        scenario: { on: [], off: [], steps: [{ op: 'shuffle' }, { op: 'deal', count: 2 }] },
        // A fast timeout, so that 150 attempts are few timers to fire.
        session: { ackTimeoutMs: 5 },
      },
      {},
      false,
    );
    const { sim, observations } = current;
    const lost: unknown[] = [];
    sim.on('lost', (action) => lost.push(action));
    await clock.drive(sim.whenReady(), 5_000, 'device ready');
    await clock.drive(sim.stepMany(2), 5_000, 'two cards dealt');
    await clock.runUntil(() => observations.length === 1, 5_000, 'the first card');
    await clock.runUntil(() => sim.stats.retransmitted > 150, 60_000, '150 retransmissions');
    expect(lost).toEqual([]);
    expect(observations).toHaveLength(1);
    // The second card waits behind the first (one event in flight).
    expect(sim.pending.queued).toBe(1);
    current.driver.on('record', (observation) => observation.ack());
    observations[0]!.ack();
    await clock.drive(sim.whenDone(), 60_000, 'both cards acknowledged');
    expect(observations.map((o) => o.record.t)).toEqual(['card', 'card']);
    expect(lost).toEqual([]);
  });
});
