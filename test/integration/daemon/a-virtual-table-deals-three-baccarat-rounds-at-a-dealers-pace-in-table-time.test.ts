/**
 * The virtual-time harness (test/helpers/virtual-table.ts) on a whole table:
 * the daemon, its drivers, the simulated shoe and dealer at the shipped
 * dealer's pace (seconds between cards), the real journal. Minutes of table
 * time run in a moment, every card stamped in table time.
 */
import { describe, expect, it } from 'vitest';
import { verifyJournalDir } from '../../../firmware-host/journal/verify.ts';
import { startVirtualTable, VIRTUAL_EPOCH } from '../../helpers/virtual-table.ts';

describe('a virtual table deals three baccarat rounds at a dealer’s pace in table time', () => {
  it('journals three results, no alarm, records stamped in table time, and the journal verifies', async () => {
    const table = await startVirtualTable({
      table: 'virtual',
      ruleset: 'tdc-baccarat-no-commission',
      devices: { shoe: { kind: 'shoe', transport: 'simulate' } },
      simulation: { cardIntervalMs: 2_000, roundIntervalMs: 20_000, seed: 5 },
    });
    const took = await table.runUntil(
      () => table.events('result').length >= 3 || table.events('alarm').length > 0,
      15 * 60_000,
      'three results',
    );
    expect(table.events('alarm')).toEqual([]);
    expect(table.events('result')).toHaveLength(3);
    // Two rounds' pauses and at least twelve paced cards: the dealer's pace ran in table time.
    expect(took).toBeGreaterThanOrEqual(2 * 20_000 + 12 * 2_000);
    const stamps = table.journaled.map((record) => record.ts);
    expect(Math.min(...stamps)).toBeGreaterThanOrEqual(VIRTUAL_EPOCH);
    expect(Math.max(...stamps)).toBeLessThanOrEqual(table.now());
    const lastSeq = table.daemon.lastSeq;
    await table.stop();
    const report = await verifyJournalDir(table.dir, { expectLastSeq: lastSeq });
    expect(report.findings).toEqual([]);
  });
});
