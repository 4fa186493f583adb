/**
 * A paired shoe on a line that corrupts every third frame it sends (a
 * PROOF lost that way is asked for again by the host's next CHALLENGE),
 * duplicates frames, or loses ACKs: the handshake goes through, every card
 * arrives once, in order, and a corrupted frame is a CRC error, never an
 * authentication alarm.
 */
import { describe, expect, it } from 'vitest';
import { alarmsOf, ed25519Key } from './auth-helpers.ts';
import { benchPerTest, observedCards, plannedCards } from './helpers.ts';

const SCRIPT = {
  on: [],
  off: [],
  steps: [{ op: 'shuffle' as const }, { op: 'deal' as const, count: 40 }],
};

describe('a paired shoe on a noisy line', () => {
  const openBench = benchPerTest();

  for (const fault of ['corrupt-bytes=3', 'duplicate=2', 'lose-acks=4']) {
    it(`proves itself and deals every card once with ${fault}`, async () => {
      const key = await ed25519Key();
      const current = openBench(
        {
          kind: 'shoe',
          ruleset: 'tdc-baccarat-no-commission',
          seed: 13,
          scenario: SCRIPT,
          faults: [fault],
          key,
        },
        { pairedKey: key.publicKey },
      );
      const alarms = alarmsOf(current.driver);
      await current.sim.whenReady();
      while (await current.sim.step());
      await current.sim.whenDone();
      expect(observedCards(current.observations)).toEqual(plannedCards(current.sim));
      expect(current.driver.status().auth.state).toBe('authenticated');
      expect(alarms).toEqual([]);
      if (fault.startsWith('corrupt'))
        expect(current.driver.status().counters.crcErrors).toBeGreaterThan(5);
    });
  }
});
