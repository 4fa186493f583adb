/**
 * A shoe's lid closing can start a new shoe (a shoe-only table), so the LID
 * frame is ACKed like a card: only when the host calls the notice's `ack()`,
 * once what the lid started is durable. Until then the shoe retransmits it
 * and holds its next frames, so a crash loses no shoe start; the driver
 * reports the lid once however often it comes.
 */
import { describe, expect, it } from 'vitest';
import type { DeviceNotice, LidNotice } from '../../../firmware-host/drivers/driver.ts';
import type { Scenario } from '../../../simulators/scenario.ts';
import { benchPerTest, until } from './helpers.ts';

const LID_THEN_TWO_CARDS: Scenario = {
  on: [],
  off: [],
  steps: [{ op: 'shuffle' }, { op: 'lid', open: false }, { op: 'deal', count: 2 }],
};

describe('the lid is ACKed only when the host has stored what it started', () => {
  const openBench = benchPerTest();

  it('holds the shoe (lid retransmitted, reported once, no card) until ack(), then the cards follow', async () => {
    const current = openBench({
      kind: 'shoe',
      ruleset: 'tdc-baccarat-no-commission',
      seed: 17,
      scenario: LID_THEN_TWO_CARDS,
      session: { ackTimeoutMs: 20 },
    });
    const { sim, driver, observations } = current;
    const lids: LidNotice[] = [];
    driver.on('notice', (notice: DeviceNotice) => {
      if (notice.type === 'LID') lids.push(notice);
    });
    await sim.whenReady();
    await sim.stepMany(4);
    await until(() => lids.length === 1, 5_000, 'the lid notice');
    expect(lids[0]).toMatchObject({ type: 'LID', state: 'closed' });
    const before = sim.stats.retransmitted;
    await until(() => sim.stats.retransmitted >= before + 5, 10_000, 'the lid retransmitted');
    expect(lids).toHaveLength(1);
    expect(observations).toEqual([]);
    // The lid and both cards are still the shoe's (a 1.2 shoe also keeps any
    // frame ACKed after the lid, such as a PONG, until the lid is ACKed).
    expect(sim.pending.inFlight + sim.pending.queued).toBeGreaterThanOrEqual(3);

    lids[0]!.ack();
    lids[0]!.ack(); // idempotent
    await sim.whenDone();
    expect(observations.map((o) => o.record.t)).toEqual(['card', 'card']);
    expect(lids).toHaveLength(1);
  });

  it('ACKs the lid itself when nobody listens for notices, so the shoe is never held', async () => {
    const current = openBench({
      kind: 'shoe',
      ruleset: 'tdc-baccarat-no-commission',
      seed: 18,
      scenario: LID_THEN_TWO_CARDS,
    });
    const { sim, observations } = current;
    await sim.whenReady();
    await sim.stepMany(4);
    await sim.whenDone();
    expect(observations.map((o) => o.record.t)).toEqual(['card', 'card']);
  });
});
