import { describe, expect, it } from 'vitest';
import { expectNothingLeftBehind, fleetRoot, fleetSkipReason, runSourceFleet } from './support.ts';

const missing = fleetSkipReason();
const root = fleetRoot('fleet-bridged-');

describe.skipIf(missing !== undefined)(
  'two daemons behind bridged edge brokers reach shared consumers on the central broker each card once in seq order',
  () => {
    it('carries every card over the bridges once, split between the consumers, and a request in to each table', async () => {
      const run = await runSourceFleet(root, {
        tables: 2,
        topology: 'bridged',
        // One edge broker per table: two bridges into the central broker.
        tablesPerEdge: 1,
        cardsPerTable: 6,
        warmupCards: 2,
        cardsPerSecond: 20,
      });
      // Problems would name a lost, repeated or reordered card, or a table that
      // did not answer, once, the health_check sent to it on the central broker.
      expect(run.problems).toEqual([]);
      expect(run.duplicates).toBe(0);
      expect(run.alarms).toBe(0);
      expect(run.brokers).toBe(3);
      expect(run.cards_dealt).toBe(2 * (6 + 2));
      expect(run.cards_received).toBe(run.cards_dealt);
      for (const share of run.per_consumer) expect(share).toBeGreaterThan(0);
      expect(run.per_consumer.reduce((a, b) => a + b, 0)).toBe(run.events_received);
      // The central broker forwarded the cards: it spent CPU and holds memory.
      expect(run.rss_mb.central_broker).toBeGreaterThan(0);
      expect(run.rss_mb.brokers).toBeGreaterThan(run.rss_mb.central_broker);
      expectNothingLeftBehind(run.pids, root);
    }, 120_000);
  },
);
