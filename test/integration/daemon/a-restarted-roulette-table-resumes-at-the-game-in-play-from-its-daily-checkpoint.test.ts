/**
 * A roulette table keeps one journal file a day, each opening with a
 * checkpoint of the roulette session. A restarted daemon seeds from the
 * newest checkpoint, replays only that day's inputs, and goes on at the
 * game in play exactly as a table that never stopped: the rotor's
 * alternation, the closing countdown and the last numbers included.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../firmware-host/config/loader.ts';
import { TableDaemon } from '../../../firmware-host/daemon/table-daemon.ts';
import { RouletteSession } from '../../../firmware-host/games/roulette/session.ts';
import { isCheckpoint, readJournalRecords } from '../../../firmware-host/journal/journal.ts';
import { verifyJournalDir } from '../../../firmware-host/journal/verify.ts';
import type { DomainEvent } from '../../../firmware-host/table/events.ts';
import type { TableLogRecord } from '../../../firmware-host/table/log.ts';
import { freePort } from '../../helpers/ports.ts';

const RULESET = 'bulgaria-roulette';
const DAY = 86_400_000;
const MONDAY = Date.UTC(2026, 10, 23, 20, 0, 0);

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** Games spread over two days: the second day's file opens with a checkpoint. */
function shift(): TableLogRecord[] {
  const records: TableLogRecord[] = [];
  const numbers = [17, 0, 32, 5, 26, 3, 14, 9, 22, 31];
  numbers.forEach((number, i) => {
    const ts = MONDAY + (i < 5 ? i * 60_000 : DAY + i * 60_000);
    const rotor = i % 2 === 0 ? 'cw' : 'ccw';
    records.push({ t: 'no_more_bets', ts, src: 'wheel', dseq: 3 * i });
    records.push({
      t: 'spin',
      rotor,
      ball: rotor === 'cw' ? 'ccw' : 'cw',
      number,
      revolutions: 10,
      ts: ts + 30_000,
      src: 'wheel',
      dseq: 3 * i + 2,
    });
    if (i === 6) records.push({ t: 'closing', ts: ts + 40_000, src: 'mqtt' });
  });
  return records;
}

const RECORDS = shift();
/** The daemon's (and so the journal's) clock: the time of the record being ingested. */
let now = MONDAY;

async function startDaemon(dir: string, notices: string[]): Promise<TableDaemon> {
  const { config } = resolveConfig(
    {
      table: 'rou',
      ruleset: RULESET,
      mqtt: { url: 'embedded', port: await freePort() },
      journal: { dir },
    },
    { env: {} },
  );
  expect(config.devices).toEqual({
    wheel: expect.objectContaining({ kind: 'wheel', transport: 'simulate' }),
  });
  const daemon = new TableDaemon({ config, simulate: false, clock: () => now });
  daemon.on('notice', (_level, message) => notices.push(message));
  await daemon.start();
  cleanup.push(() => daemon.stop());
  return daemon;
}

async function ingestAll(
  daemon: TableDaemon,
  records: readonly TableLogRecord[],
): Promise<DomainEvent[]> {
  const events: DomainEvent[] = [];
  for (const record of records) {
    now = record.ts ?? now;
    for (const entry of await daemon.ingest(record))
      if (entry.kind === 'event') events.push(entry.data);
  }
  return events;
}

describe('a restarted roulette table', () => {
  it('resumes from the day’s checkpoint at the game in play and goes on identically', async () => {
    const state = await mkdtemp(join(tmpdir(), 'tableside-roulette-checkpoint-'));
    cleanup.push(() => rm(state, { recursive: true, force: true }));
    // The journal in a folder of its own: the table's host key is made beside it, in this test's folder.
    const dir = join(state, 'journal');
    const cut = RECORDS.length - 5;
    now = MONDAY;
    const first = await startDaemon(dir, []);
    await ingestAll(first, RECORDS.slice(0, cut));
    await first.stop();
    expect((await readdir(dir)).filter((name) => name.endsWith('.jsonl')).length).toBe(2);

    const notices: string[] = [];
    const second = await startDaemon(dir, notices);
    expect(notices.join('\n')).toMatch(
      /resumed from the journal: \d+ inputs replayed after the checkpoint at journal-\d{6}\.jsonl/,
    );
    const replayed = Number(/(\d+) inputs replayed/.exec(notices.join('\n'))![1]);
    const firstDay = RECORDS.filter((record) => (record.ts ?? 0) < MONDAY + DAY).length;
    expect(replayed).toBe(cut - firstDay);

    const table = new RouletteSession(RULESET);
    for (const record of RECORDS.slice(0, cut)) table.apply(record);
    expect(second.snapshot()).toStrictEqual(table.snapshot());
    const after = RECORDS.slice(cut).flatMap((record) => table.apply(record));
    expect(await ingestAll(second, RECORDS.slice(cut))).toStrictEqual(after);
    expect(second.snapshot()).toStrictEqual(table.snapshot());
    expect(after.some((event) => event.type === 'table_closed')).toBe(true);
    await second.stop();

    const checkpoints = [];
    for await (const record of readJournalRecords(dir))
      if (isCheckpoint(record)) checkpoints.push(record);
    expect(checkpoints.length).toBeGreaterThanOrEqual(1);
    expect(checkpoints[0]!.data).toMatchObject({
      ruleset: RULESET,
      session: { game: 'roulette', state: { game: 6 } },
    });
    expect((await verifyJournalDir(dir)).ok).toBe(true);
  });
});
