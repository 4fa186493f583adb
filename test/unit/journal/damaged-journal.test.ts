import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  isJournalError,
  Journal,
  type JournalEntry,
  readJournalRecords,
  verifyJournalDir,
} from '../../../firmware-host/journal/index.ts';
import { repairJournal } from '../../../firmware-host/journal/repair.ts';
import { tempDir } from '../../helpers/temp.ts';

const opened: Journal[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((journal) => journal.close()));
});

let now = Date.UTC(2025, 0, 1, 12);
const clock = () => now++;

async function openJournal(dir: string): Promise<Journal> {
  const journal = await Journal.open({ dir, clock, table: 't1' });
  opened.push(journal);
  return journal;
}

async function closeJournal(journal: Journal): Promise<void> {
  opened.splice(opened.indexOf(journal), 1);
  await journal.close();
}

const card = (code: string): JournalEntry => ({
  kind: 'event',
  data: { type: 'card', card: code, to: 'player' },
});

/** A folder of two files: seq 1..3 in the first, 4..7 in the second (its file record and three cards). */
async function twoFiles(): Promise<string> {
  const dir = tempDir('tableside-damaged-');
  const journal = await openJournal(dir);
  await journal.append([card('AS'), card('KS')]);
  await journal.rotate('shoe');
  await journal.append([card('QS'), card('JS'), card('TS')]);
  await closeJournal(journal);
  return dir;
}

/** Every file of the folder with its bytes. */
function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir)
      .filter((name) => name !== 'journal.lock')
      .map((name) => [name, readFileSync(join(dir, name), 'latin1')]),
  );
}

/** Garbage of many lines, none a record (a disk that returned other blocks). */
const GARBAGE = Buffer.from(
  Array.from({ length: 2000 }, (_, line) => `\u0000\u00ff~${line}~garbage`).join('\n'),
  'latin1',
);

async function refusal(dir: string): Promise<Error> {
  const error = await Journal.open({ dir, clock, table: 't1' }).catch((caught: unknown) => caught);
  expect(isJournalError(error) && error.code, String(error)).toBe('damaged');
  return error as Error;
}

describe('a damaged journal is never deleted', () => {
  it('sets a newest file unreadable from line 1 aside whole and refuses to start, naming it and the two choices', async () => {
    // Issue 33 item 6: start-up cut the whole 4 MiB file with a warning and began again.
    const dir = await twoFiles();
    writeFileSync(join(dir, 'journal-000002.jsonl'), GARBAGE);
    const error = await refusal(dir);
    expect(error.message).toContain('journal-000002.jsonl cannot be read from line 1 on');
    expect(error.message).toContain(join(dir, 'journal-000002.jsonl.unreadable-from-line-1'));
    expect(error.message).toContain(`put a good copy of journal-000002.jsonl`);
    expect(error.message).toContain(`tableside journal repair ${dir}`);
    expect(readFileSync(join(dir, 'journal-000002.jsonl.unreadable-from-line-1'))).toEqual(GARBAGE);
    // Until someone decides, every start is refused, and nothing is written.
    const before = snapshot(dir);
    expect((await refusal(dir)).message).toContain('was set aside whole');
    expect(snapshot(dir)).toEqual(before);
    // verify does not call the journal intact meanwhile.
    const report = await verifyJournalDir(dir);
    expect(report.ok).toBe(false);
    expect(report.findings.map((finding) => finding.problem)).toEqual(['set_aside']);
  });

  it('sets aside a newest file whose good lines are followed by more than one bad line', async () => {
    const dir = await twoFiles();
    const path = join(dir, 'journal-000002.jsonl');
    const good = readFileSync(path);
    const kept = good.subarray(0, good.indexOf(0x0a, good.indexOf(0x0a) + 1) + 1); // seq 4 and 5
    writeFileSync(path, Buffer.concat([kept, Buffer.from('bad\nworse\n')]));
    const error = await refusal(dir);
    expect(error.message).toContain('cannot be read from line 3 on');
    expect(readFileSync(`${path}.unreadable-from-line-3`)).toEqual(
      Buffer.concat([kept, Buffer.from('bad\nworse\n')]),
    );
  });

  it('still cuts a torn last line silently, and only that', async () => {
    const dir = await twoFiles();
    const path = join(dir, 'journal-000002.jsonl');
    writeFileSync(path, Buffer.concat([readFileSync(path), Buffer.from('{"seq":8,"ts"')]));
    const journal = await openJournal(dir);
    expect(journal.recovery).toEqual([expect.objectContaining({ bytes: 13 })]);
    expect(journal.lastSeq).toBe(8); // seven records and the `recovered` note
  });

  it('deletes nothing of an older file damaged on its first line or in its middle: the start is refused', async () => {
    for (const damage of ['first', 'middle'] as const) {
      const dir = await twoFiles();
      const journal = await openJournal(dir);
      await journal.rotate('shoe');
      await journal.append([card('9S')]);
      await closeJournal(journal);
      const path = join(dir, 'journal-000002.jsonl');
      const lines = readFileSync(path, 'utf8').split('\n');
      lines[damage === 'first' ? 0 : 2] = 'garbage';
      writeFileSync(path, lines.join('\n'));
      const before = snapshot(dir);
      // The newest file opens (its chain comes from the older file's intact last line) ...
      const again = await Journal.open({ dir, clock, table: 't1' });
      // ... but reading the history through the damage refuses, naming the line.
      const reading = (async () => {
        for await (const _ of readJournalRecords(dir)) {
          // read through
        }
      })();
      await expect(reading).rejects.toThrow(/journal-000002\.jsonl:(1|3):/);
      await again.close();
      expect(snapshot(dir), damage).toEqual(before);
    }
  });
});

describe('tableside journal repair', () => {
  it('continues in a new file after the set-aside one; verify names the repair and the chain holds', async () => {
    const dir = await twoFiles();
    writeFileSync(join(dir, 'journal-000002.jsonl'), GARBAGE);
    await refusal(dir);
    const done = await repairJournal(dir, clock);
    expect(done).toEqual({
      file: 'journal-000002.jsonl',
      setAside: 'journal-000002.jsonl.unreadable-from-line-1',
      keptLines: 0,
      seq: 4,
    });
    const journal = await openJournal(dir);
    const [next] = await journal.append([card('9S')]);
    expect(next!.seq).toBeGreaterThan(4);
    await closeJournal(journal);
    // The set-aside file is still there, byte for byte.
    expect(readFileSync(join(dir, 'journal-000002.jsonl.unreadable-from-line-1'))).toEqual(GARBAGE);
    const report = await verifyJournalDir(dir);
    expect(report.ok).toBe(false);
    expect(report.findings).toEqual([
      expect.objectContaining({
        problem: 'repaired',
        file: 'journal-000002.jsonl',
        seq: 4,
        message: expect.stringContaining(
          `journal-000002.jsonl.unreadable-from-line-1 (${GARBAGE.length} bytes, sha256`,
        ),
      }),
    ]);
    // A second repair has nothing to decide.
    await expect(repairJournal(dir, clock)).rejects.toThrow(/nothing to repair/);
  });

  it('keeps the readable lines verbatim and never reuses a seq the broker already took', async () => {
    const dir = await twoFiles();
    const path = join(dir, 'journal-000002.jsonl');
    const good = readFileSync(path);
    const kept = good.subarray(0, good.indexOf(0x0a) + 1); // seq 4, the file record
    writeFileSync(path, Buffer.concat([kept, Buffer.from('bad\nworse\n')]));
    writeFileSync(join(dir, 'mqtt-cursor.json'), JSON.stringify({ seq: 6 }));
    await refusal(dir);
    const done = await repairJournal(dir, clock);
    expect(done).toMatchObject({ keptLines: 1, seq: 7, skipped: { from: 5, to: 6 } });
    expect(readFileSync(path).subarray(0, kept.length)).toEqual(kept);
    const journal = await openJournal(dir);
    const [next] = await journal.append([card('9S')]);
    expect(next!.seq).toBe(8); // after the repair record (7), never 5 or 6 again
    await closeJournal(journal);
    const seqs: number[] = [];
    for await (const record of readJournalRecords(dir)) seqs.push(record.seq);
    expect(seqs).toEqual([1, 2, 3, 4, 7, 8]);
    const report = await verifyJournalDir(dir);
    expect(report.findings).toEqual([
      expect.objectContaining({
        problem: 'repaired',
        seq: 7,
        message: expect.stringContaining('seq 5..6 had been published from it'),
      }),
    ]);
  });
});
