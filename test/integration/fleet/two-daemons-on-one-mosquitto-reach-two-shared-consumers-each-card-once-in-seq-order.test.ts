import { describe, expect, it } from 'vitest';
import { expectNothingLeftBehind, fleetRoot, fleetSkipReason, runSourceFleet } from './support.ts';

const missing = fleetSkipReason();
const root = fleetRoot('fleet-direct-');

describe.skipIf(missing !== undefined)(
  'two daemons on one mosquitto reach two shared consumers each card once in seq order',
  () => {
    it('splits the events between the consumers, loses none, repeats none, and cleans up', async () => {
      const run = await runSourceFleet(root, {
        tables: 2,
        topology: 'direct',
        cardsPerTable: 6,
        warmupCards: 2,
        cardsPerSecond: 20,
      });
      expect(run.problems).toEqual([]);
      expect(run.duplicates).toBe(0);
      expect(run.consumer_reconnects).toBe(0);
      expect(run.alarms).toBe(0);
      expect(run.brokers).toBe(1);
      expect(run.cards_dealt).toBe(2 * (6 + 2));
      expect(run.cards_received).toBe(run.cards_dealt);
      // The shared subscription hands each event to one consumer: both got some, none got all.
      expect(run.per_consumer).toHaveLength(2);
      for (const share of run.per_consumer) {
        expect(share).toBeGreaterThan(0);
        expect(share).toBeLessThan(run.events_received);
      }
      expect(run.per_consumer[0]! + run.per_consumer[1]!).toBe(run.events_received);
      // Figures were measured: one latency per measured card, CPU and memory read from /proc.
      expect(run.latency.frame_to_consumer.p50_ms).toBeGreaterThan(0);
      expect(run.latency.journal_to_consumer.p99_ms).not.toBeNull();
      expect(run.rss_mb.daemons).toBeGreaterThan(20);
      expect(run.rss_mb.central_broker).toBeGreaterThan(0);
      expect(run.cpu.daemons_s).toBeGreaterThan(0);
      // Every daemon, broker and socat ended; the run's folder is gone.
      expect(run.pids.length).toBe(2 + 1 + 2);
      expectNothingLeftBehind(run.pids, root);
    }, 120_000);
  },
);
