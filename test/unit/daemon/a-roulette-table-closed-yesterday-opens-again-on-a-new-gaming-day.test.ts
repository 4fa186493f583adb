/**
 * Issue 35 item 5: after `table_closed`, a restart still showed TABLE CLOSED
 * whatever the day. Closing time closes one working day (003 § 13(1)): a
 * restart the same day keeps the table closed, a start on a later day opens
 * it again with a `reopen` journaled as the daemon's.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../firmware-host/config/loader.ts';
import { TableDaemon } from '../../../firmware-host/daemon/table-daemon.ts';
import { readJournalRecords } from '../../../firmware-host/journal/journal.ts';
import { freePort } from '../../helpers/ports.ts';

const EVENING = Date.parse('2026-12-06T23:30:00Z');
const LATER_THAT_NIGHT = Date.parse('2026-12-06T23:50:00Z');
const NEXT_DAY = Date.parse('2026-12-07T14:00:00Z');

describe('a roulette table closed yesterday', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  it('stays closed on a restart the same day and opens again on a new gaming day', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tableside-gaming-day-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const { config } = resolveConfig(
      {
        table: 'gaming-day',
        ruleset: 'bulgaria-roulette',
        // A wheel on a line nobody drives: the test journals the spins itself.
        devices: { wheel: { kind: 'wheel', transport: `memory://gaming-day-${process.pid}` } },
        mqtt: { url: 'embedded', port: await freePort() },
        journal: { dir: join(dir, 'journal') },
      },
      { env: {} },
    );
    const run = async (now: number) => {
      const daemon = new TableDaemon({ config, simulate: false, clock: () => now });
      await daemon.start();
      return daemon;
    };

    const evening = await run(EVENING);
    await evening.ingest({ t: 'closing', src: 'web:alice' });
    let rotor: 'cw' | 'ccw' = 'cw';
    for (const number of [7, 19, 32]) {
      await evening.ingest({ t: 'no_more_bets' });
      await evening.ingest({
        t: 'spin',
        rotor,
        ball: rotor === 'cw' ? 'ccw' : 'cw',
        number,
        revolutions: 12,
      });
      rotor = rotor === 'cw' ? 'ccw' : 'cw';
    }
    expect(evening.snapshot().expecting).toMatchObject({ kind: 'closed' });
    await evening.stop();

    const sameNight = await run(LATER_THAT_NIGHT);
    expect(sameNight.snapshot().expecting).toMatchObject({ kind: 'closed' });
    await sameNight.stop();

    const nextDay = await run(NEXT_DAY);
    cleanup.push(() => nextDay.stop());
    expect(nextDay.snapshot().expecting).toMatchObject({ kind: 'bets', game: 4 });
    const records = [];
    for await (const record of readJournalRecords(join(dir, 'journal'))) records.push(record);
    const reopens = records.filter((record) => (record.data as { t?: string }).t === 'reopen');
    expect(reopens.map((record) => record.data)).toEqual([
      expect.objectContaining({
        t: 'reopen',
        src: 'daemon',
        reason: 'a new gaming day (2026-12-07)',
      }),
    ]);
    const reopened = records.find(
      (record) => (record.data as { type?: string }).type === 'table_reopened',
    );
    expect(reopened?.data).toMatchObject({ game: 4, rule: expect.stringMatching(/003 § 13\(1\)/) });
  });
});
