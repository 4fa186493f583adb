import { describe, expect, it } from 'vitest';
import { expectNothingLeftBehind, fleetRoot, fleetSkipReason, runSourceFleet } from './support.ts';

const missing = fleetSkipReason();
const root = fleetRoot('fleet-drop-');

describe.skipIf(missing !== undefined)(
  'a shared consumer cut off mid-shoe gets its share when it comes back and no card is lost',
  () => {
    it('delivers every card of both tables across the two instances, each share in order', async () => {
      const run = await runSourceFleet(root, {
        tables: 2,
        topology: 'direct',
        cardsPerTable: 16,
        warmupCards: 2,
        cardsPerSecond: 10,
        // The second instance's connection is cut halfway; it reconnects a second later.
        dropConsumerMidDeal: true,
      });
      expect(run.consumer_reconnects).toBe(1);
      // Nothing lost, nothing changed, no disorder, every table answered; a redelivery may repeat a seq.
      expect(run.problems).toEqual([]);
      expect(run.cards_dealt).toBe(2 * (16 + 2));
      expect(run.cards_received).toBeGreaterThanOrEqual(run.cards_dealt);
      expect(run.alarms).toBe(0);
      // The broker kept routing to the session that was away: both instances got a share.
      for (const share of run.per_consumer) expect(share).toBeGreaterThan(0);
      expectNothingLeftBehind(run.pids, root);
    }, 120_000);
  },
);
