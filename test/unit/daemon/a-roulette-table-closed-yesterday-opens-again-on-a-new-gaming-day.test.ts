/**
 * Issue 35 item 5: after `table_closed`, a restart still showed TABLE CLOSED
 * whatever the day. Closing time closes one working day (003 § 13(1)): a
 * restart the same day keeps the table closed, a start on a later day opens
 * it again with a `reopen` journaled as the daemon's. A table left running
 * over midnight opens again at the new day's start, without a restart.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../firmware-host/config/loader.ts';
import { msToNextUtcDay } from '../../../firmware-host/daemon/extensions/gaming-day.ts';
import { TableDaemon } from '../../../firmware-host/daemon/table-daemon.ts';
import { readJournalRecords } from '../../../firmware-host/journal/journal.ts';
import { freePort } from '../../helpers/ports.ts';
import { until } from '../../helpers/until.ts';

const EVENING = Date.parse('2026-12-06T23:30:00Z');
const LATER_THAT_NIGHT = Date.parse('2026-12-06T23:50:00Z');
const NEXT_DAY = Date.parse('2026-12-07T14:00:00Z');

describe('a roulette table closed yesterday', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  const rouletteTable = async (name: string) => {
    const dir = await mkdtemp(join(tmpdir(), 'tableside-gaming-day-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const { config } = resolveConfig(
      {
        table: name,
        ruleset: 'bulgaria-roulette',
        // A wheel on a line nobody drives: the test journals the spins itself.
        devices: { wheel: { kind: 'wheel', transport: `memory://${name}-${process.pid}` } },
        mqtt: { url: 'embedded', port: await freePort() },
        journal: { dir: join(dir, 'journal') },
      },
      { env: {} },
    );
    // The journal in a folder of its own: the table's host key is made beside it, in the test's folder.
    return { dir: join(dir, 'journal'), config };
  };

  /** Closing time and the three closing games (003 § 13(1)). */
  const closeTable = async (daemon: TableDaemon) => {
    await daemon.ingest({ t: 'closing', src: 'web:alice' });
    let rotor: 'cw' | 'ccw' = 'cw';
    for (const number of [7, 19, 32]) {
      await daemon.ingest({ t: 'no_more_bets' });
      await daemon.ingest({
        t: 'spin',
        rotor,
        ball: rotor === 'cw' ? 'ccw' : 'cw',
        number,
        revolutions: 12,
      });
      rotor = rotor === 'cw' ? 'ccw' : 'cw';
    }
    expect(daemon.snapshot().expecting).toMatchObject({ kind: 'closed' });
  };

  const reopensIn = async (dir: string) => {
    const records = [];
    for await (const record of readJournalRecords(dir)) records.push(record);
    return records.filter((record) => (record.data as { t?: string }).t === 'reopen');
  };

  it('stays closed on a restart the same day and opens again on a new gaming day', async () => {
    const { dir, config } = await rouletteTable('gaming-day');
    const run = async (now: number) => {
      const daemon = new TableDaemon({ config, simulate: false, clock: () => now });
      await daemon.start();
      return daemon;
    };

    const evening = await run(EVENING);
    await closeTable(evening);
    await evening.stop();

    const sameNight = await run(LATER_THAT_NIGHT);
    expect(sameNight.snapshot().expecting).toMatchObject({ kind: 'closed' });
    await sameNight.stop();

    const nextDay = await run(NEXT_DAY);
    cleanup.push(() => nextDay.stop());
    expect(nextDay.snapshot().expecting).toMatchObject({ kind: 'bets', game: 4 });
    const records = [];
    for await (const record of readJournalRecords(dir)) records.push(record);
    const reopens = await reopensIn(dir);
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

  it('left running over midnight, opens again at the new day without a restart', async () => {
    const { dir, config } = await rouletteTable('gaming-day-running');
    // The table's clock, moved by the test: a tenth of a second before midnight, then after it.
    let now = Date.parse('2026-12-06T23:59:59.900Z');
    const daemon = new TableDaemon({ config, simulate: false, clock: () => now });
    await daemon.start();
    cleanup.push(() => daemon.stop());
    await closeTable(daemon);
    expect(await reopensIn(dir)).toEqual([]);

    now = Date.parse('2026-12-07T00:00:00.100Z');
    await until(
      async () =>
        (daemon.snapshot().expecting as { kind: string }).kind === 'bets' &&
        (await reopensIn(dir)).length > 0,
      'the table open again after midnight, its reopen journaled',
    );
    expect((await reopensIn(dir)).map((record) => record.data)).toEqual([
      expect.objectContaining({ src: 'daemon', reason: 'a new gaming day (2026-12-07)' }),
    ]);
  });

  it('times the next gaming day from the clock: never zero, a whole day at midnight', () => {
    expect(msToNextUtcDay(Date.parse('2026-12-06T23:59:59.900Z'))).toBe(100);
    expect(msToNextUtcDay(Date.parse('2026-12-07T00:00:00.000Z'))).toBe(86_400_000);
    expect(msToNextUtcDay(Date.parse('2026-12-07T12:00:00.000Z'))).toBe(43_200_000);
  });
});
