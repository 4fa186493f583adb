/**
 * A new gaming day opens a closed table again (issue 35): closing time
 * closes one working day (003 § 13(1); the ruleset's `closing.reopen` cites
 * its article), so a table whose last journal record is of an earlier UTC
 * day than the start opens with a `reopen` journaled as the daemon's. The
 * same day, it stays closed until a supervisor reopens it (a request).
 */
import { utcDay } from '../journal/record.ts';
import type { TableCore } from './table-core.ts';

/** Journals a `reopen` when the table is closed since an earlier day; says whether it did. */
export async function reopenOnNewGamingDay(core: TableCore, now: number): Promise<boolean> {
  if (!core.game.requestOps.includes('reopen')) return false;
  if (core.session.expecting().kind !== 'closed') return false;
  const [last] = await core.requireJournal().readRange(core.lastSeq, 1);
  if (last === undefined || utcDay(last.ts) >= utcDay(now)) return false;
  await core.ingest({ t: 'reopen', src: 'daemon', reason: `a new gaming day (${utcDay(now)})` });
  return true;
}
