/**
 * The wear lane's reading of strace's `-y` record: a write to the journal is
 * a durable write (its files are opened O_DSYNC), a sync is a sync whatever
 * the file, and writes that never reach storage (sockets, pipes, eventfds,
 * ttys) are not counted.
 */
import { describe, expect, it } from 'vitest';
import { countTrace } from '../../bench/wear.ts';

const TRACE = [
  '4711  write(23</tmp/x/wear-1-journal/2026-12-07.000001.jsonl>, "{\\"seq\\":12", 312) = 312',
  '4711  write(23</tmp/x/wear-1-journal/2026-12-07.000001.jsonl>, "{\\"seq\\":13", 298) = 298',
  '4713  write(9<anon_inode:[eventfd]>, "\\1\\0\\0\\0\\0\\0\\0\\0", 8) = 8',
  '4711  write(19<socket:[88123]>, "0\\23\\0\\22", 40) = 40',
  '4711  write(17</dev/pts/4>, "$HO,3,ACK", 20) = 20',
  '4714  pwrite64(25</tmp/x/wear-1-journal/cursor.json.tmp>, "{}", 2, 0) = 2',
  '4714  fsync(25</tmp/x/wear-1-journal/cursor.json.tmp>) = 0',
  '4714  fsync(24</tmp/x/wear-1-journal>) = 0',
  '4711  --- SIGCHLD {si_signo=SIGCHLD} ---',
].join('\n');

describe('the wear lane', () => {
  it('counts journal writes as durable, every sync, and leaves out what never reaches storage', () => {
    const counts = countTrace(TRACE, (path) => path.endsWith('.jsonl'));
    expect(counts.writes).toBe(3);
    expect(counts.durableWrites).toBe(2);
    expect(counts.syncs).toBe(2);
    expect(counts.byFile).toEqual({
      journal: 2,
      cursor: 1,
      'cursor (sync)': 1,
      'wear-1-journal (sync)': 1,
    });
  });
});
