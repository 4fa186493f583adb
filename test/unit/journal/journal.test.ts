import {
  constants,
  existsSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { CardCode } from '../../../device-protocol/cards.ts';
import {
  encodeRecord,
  GENESIS_HASH,
  hashLine,
  isJournalError,
  Journal,
  type JournalEntry,
  type JournalOptions,
  type JournalRecord,
  verifyJournalDir,
} from '../../../firmware-host/journal/index.ts';
import { tempDir as makeTempDir } from '../../helpers/temp.ts';
import { missingTool } from '../../helpers/tools.ts';

const opened: Journal[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((journal) => journal.close()));
});

function tempDir(): string {
  return makeTempDir('tableside-journal-');
}

function steppingClock(start = Date.UTC(2025, 0, 1, 12)) {
  let now = start;
  const clock = () => now++;
  clock.set = (ts: number) => {
    now = ts;
  };
  return clock;
}

async function openJournal(dir: string, options: Partial<JournalOptions> = {}) {
  const journal = await Journal.open({ dir, clock: steppingClock(), ...options });
  opened.push(journal);
  return journal;
}

async function closeJournal(journal: Journal) {
  await journal.close();
  opened.splice(opened.indexOf(journal), 1);
}

const card = (code: string): JournalEntry => ({
  kind: 'event',
  data: { type: 'card', card: code, to: 'player' },
});
const cardInput = (code: CardCode): JournalEntry => ({
  kind: 'input',
  data: { t: 'card', card: code, back: 'red', face: 'up' },
});

function fileLines(dir: string, name: string): string[] {
  return readFileSync(join(dir, name), 'utf8').split('\n').filter(Boolean);
}

describe('journal', () => {
  it('writes one hash-chained JSON record per line with seq, ts from the clock, kind and payload', async () => {
    const dir = tempDir();
    const journal = await openJournal(dir, { table: 'bac-07', clock: () => 1_000 });
    const written = await journal.append([cardInput('AS'), card('AS')]);
    expect(written.map((record) => [record.seq, record.kind, record.ts])).toEqual([
      [2, 'input', 1_000],
      [3, 'event', 1_000],
    ]);
    const lines = fileLines(dir, 'journal-000001.jsonl');
    expect(lines).toHaveLength(3);
    const records = lines.map((line) => JSON.parse(line));
    expect(records[0]).toMatchObject({
      seq: 1,
      kind: 'meta',
      prev: GENESIS_HASH,
      data: { type: 'file', reason: 'new', table: 'bac-07' },
    });
    expect(records[1].prev).toBe(hashLine(lines[0]!));
    expect(records[2].prev).toBe(hashLine(lines[1]!));
    expect(records[2].data).toEqual({ type: 'card', card: 'AS', to: 'player' });
    expect(encodeRecord(records[2])).toBe(lines[2]);
  });

  it('resolves an append only once its records are in the file', async () => {
    const dir = tempDir();
    const journal = await openJournal(dir);
    const [record] = await journal.append([card('KH')]);
    expect(journal.lastSeq).toBe(record!.seq);
    expect(readFileSync(join(dir, 'journal-000001.jsonl'), 'utf8')).toContain('"card":"KH"');
  });

  it('writes its files O_DSYNC: each group commit is one durable write, not a write and an fsync', async (context) => {
    // Linux only; under TABLESIDE_REQUIRE_TOOLS=1 (Linux CI) a missing /proc fails instead.
    const missing = missingTool(
      existsSync('/proc/self/fdinfo'),
      'no /proc/self/fdinfo to read the open flags from (Linux only)',
    );
    if (missing !== undefined) context.skip(missing);
    const dir = tempDir();
    const journal = await openJournal(dir);
    await journal.append([card('QD')]);
    await journal.rotate('shoe');
    await journal.append([card('JC')]);
    const journalFds = readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`).startsWith(join(dir, 'journal-'));
      } catch {
        return false; // closed between the listing and the read
      }
    });
    // The rotated-to file is the one open.
    expect(journalFds).toHaveLength(1);
    const flags = /^flags:\s+([0-7]+)$/m.exec(
      readFileSync(`/proc/self/fdinfo/${journalFds[0]}`, 'utf8'),
    );
    expect(Number.parseInt(flags![1]!, 8) & constants.O_DSYNC).toBe(constants.O_DSYNC);
    expect(fileLines(dir, 'journal-000002.jsonl').at(-1)).toContain('"card":"JC"');
  });

  it('hands recent durable records over at once, and leaves older ones to the files', async () => {
    const journal = await openJournal(tempDir(), { recentCapacity: 4 });
    const [as] = await journal.append([card('AS'), card('KD'), card('7C')]);
    const s = as!.seq;
    const seqs = (records: { seq: number }[] | undefined) => records?.map((record) => record.seq);
    expect(seqs(journal.recentRange(s + 1, 10))).toEqual([s + 1, s + 2]);
    expect(seqs(journal.recentRange(s, 2))).toEqual([s, s + 1]);
    const pending = journal.append([card('TH'), card('2S')]);
    // Appended but not yet durable: not handed over.
    expect(seqs(journal.recentRange(s + 2, 10))).toEqual([s + 2]);
    await pending;
    // Memory keeps the 4 newest: the first card is only in the file now.
    expect(journal.recentRange(s, 10)).toBeUndefined();
    expect(seqs(await journal.readRange(s, 10))).toEqual([s, s + 1, s + 2, s + 3, s + 4]);
    expect(journal.recentRange(s + 1, 10)?.map((record) => record.data)).toEqual(
      ['KD', '7C', 'TH', '2S'].map((code) => ({ type: 'card', card: code, to: 'player' })),
    );
  });

  it('keeps the order of concurrent appends under group commit', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 40 }),
        async (batchSizes) => {
          const dir = tempDir();
          const journal = await openJournal(dir);
          let counter = 0;
          const batches = batchSizes.map((size) =>
            Array.from({ length: size }, () => ({
              kind: 'meta' as const,
              data: { type: 'n', n: counter++ },
            })),
          );
          const durableBatches: number[] = [];
          journal.onDurable((records) => durableBatches.push(records.length));
          const results = await Promise.all(batches.map((batch) => journal.append(batch)));
          expect(
            results.flat().map((record) => (record.data as unknown as { n: number }).n),
          ).toEqual(Array.from({ length: counter }, (_, n) => n));
          const all = await journal.readAll();
          expect(all.map((record) => record.seq)).toEqual(all.map((_, index) => index + 1));
          expect(all.slice(1).map((record) => (record.data as unknown as { n: number }).n)).toEqual(
            Array.from({ length: counter }, (_, n) => n),
          );
          // Appends made while a write was in flight went out together.
          expect(durableBatches.reduce((sum, size) => sum + size, 0)).toBe(counter);
          if (batchSizes.length > 2) expect(durableBatches.length).toBeLessThan(batchSizes.length);
          await closeJournal(journal);
          expect((await verifyJournalDir(dir)).ok).toBe(true);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('rotates per shoe with the chain carried into the new file', async () => {
    const dir = tempDir();
    const journal = await openJournal(dir);
    await journal.append([card('AS'), card('KD')]);
    await journal.rotate('shoe');
    await journal.append([card('2C')]);
    await journal.rotate('shoe');
    expect(
      readdirSync(dir)
        .filter((name) => name.endsWith('.jsonl'))
        .sort(),
    ).toEqual(['journal-000001.jsonl', 'journal-000002.jsonl', 'journal-000003.jsonl']);
    const first = fileLines(dir, 'journal-000001.jsonl');
    const second = fileLines(dir, 'journal-000002.jsonl');
    const opening = JSON.parse(second[0]!);
    expect(opening).toMatchObject({ seq: 4, kind: 'meta', data: { type: 'file', reason: 'shoe' } });
    expect(opening.prev).toBe(hashLine(first[first.length - 1]!));
    expect((await journal.readAll()).map((record) => record.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    const fromMiddle: number[] = [];
    for await (const record of journal.read(5)) fromMiddle.push(record.seq);
    expect(fromMiddle).toEqual([5, 6]);
    await closeJournal(journal);
    expect(await verifyJournalDir(dir)).toMatchObject({ ok: true, files: 3, lastSeq: 6 });
  });

  it('rotates when the day changes', async () => {
    const dir = tempDir();
    const clock = steppingClock(Date.UTC(2025, 0, 1, 23, 59));
    const journal = await openJournal(dir, { clock });
    await journal.append([card('AS')]);
    clock.set(Date.UTC(2025, 0, 2, 0, 1));
    const [record] = await journal.append([card('KS')]);
    const second = fileLines(dir, 'journal-000002.jsonl').map((line) => JSON.parse(line));
    expect(second[0]).toMatchObject({ data: { type: 'file', reason: 'day' } });
    expect(second[1].seq).toBe(record!.seq);
    await closeJournal(journal);
    expect((await verifyJournalDir(dir)).ok).toBe(true);
  });

  it('continues the sequence and the chain after a restart', async () => {
    const dir = tempDir();
    const journal = await openJournal(dir);
    await journal.append([card('AS')]);
    await journal.rotate('shoe');
    await journal.append([card('KS')]);
    await closeJournal(journal);
    const again = await openJournal(dir);
    expect(again.recovery).toEqual([]);
    expect(again.lastSeq).toBe(4);
    const [next] = await again.append([card('QS')]);
    expect(next!.seq).toBe(5);
    await closeJournal(again);
    expect(await verifyJournalDir(dir)).toMatchObject({ ok: true, lastSeq: 5 });
  });

  it('refuses a second writer on the same folder', async () => {
    const dir = tempDir();
    await openJournal(dir);
    const error = await Journal.open({ dir, clock: Date.now }).catch((caught: unknown) => caught);
    expect(isJournalError(error) && error.code).toBe('locked');
  });

  it("refuses another table's folder, naming both tables and the folder, and writes nothing", async () => {
    // Issue 34 item 1: a bench table run in table-1's folder continued table-1's shoe.
    const dir = tempDir();
    const journal = await openJournal(dir, { table: 'table-1' });
    await journal.append([card('AS')]);
    await journal.rotate('shoe');
    await closeJournal(journal);
    const before = readdirSync(dir).map((name) => [name, readFileSync(join(dir, name), 'utf8')]);
    const error = await Journal.open({ dir, clock: Date.now, table: 'pty-bench' }).catch(
      (caught: unknown) => caught,
    );
    expect(isJournalError(error) && error.code).toBe('other_table');
    const message = (error as Error).message;
    expect(message).toContain(`the journal folder ${dir} belongs to table "table-1"`);
    expect(message).toContain('not to "pty-bench"');
    expect(message).toContain('journal.dir');
    expect(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name), 'utf8')])).toEqual(
      before,
    );
    // The lock is released: the folder's own table opens it.
    const own = await openJournal(dir, { table: 'table-1' });
    expect(own.lastSeq).toBe(3);
  });

  it('refuses appends after close', async () => {
    const dir = tempDir();
    const journal = await openJournal(dir);
    await closeJournal(journal);
    const error = await journal.append([card('AS')]).catch((caught: unknown) => caught);
    expect(isJournalError(error) && error.code).toBe('closed');
  });
});

describe('journal recovery', () => {
  async function buildJournal(): Promise<{ bytes: Buffer; lastStart: number }> {
    const dir = tempDir();
    const journal = await openJournal(dir);
    await journal.append([cardInput('AS'), card('AS')]);
    await journal.append([cardInput('TD'), card('TD')]);
    await closeJournal(journal);
    const bytes = readFileSync(join(dir, 'journal-000001.jsonl'));
    const lastStart = bytes.subarray(0, bytes.length - 1).lastIndexOf(0x0a) + 1;
    return { bytes, lastStart };
  }

  it('cuts an input with its events when a write stopped inside them, whatever byte it stopped at', async () => {
    // Issue 24 item 7: a full disk cut a write after the input's line; the
    // input stayed, its event did not, and the device's resend was then
    // taken as already journaled: the card's event was lost for good.
    const { bytes, lastStart } = await buildJournal();
    const inputStart = bytes.subarray(0, lastStart - 1).lastIndexOf(0x0a) + 1;
    for (let cut = lastStart; cut < bytes.length; cut++) {
      const dir = tempDir();
      writeFileSync(join(dir, 'journal-000001.jsonl'), bytes.subarray(0, cut));
      const journal = await openJournal(dir);
      expect(journal.recovery, `cut at ${cut}`).toEqual([
        expect.objectContaining({
          file: 'journal-000001.jsonl',
          offset: inputStart,
          bytes: cut - inputStart,
          reason: expect.stringContaining('input seq 4 states 1 event(s) but 0 follow'),
        }),
      ]);
      const records = await journal.readAll();
      // The three records before the cut unit survive; the TD input and its event are gone.
      expect(records.slice(0, 3).map((record) => record.seq)).toEqual([1, 2, 3]);
      expect(records.some((record) => JSON.stringify(record.data).includes('"TD"'))).toBe(false);
      expect(records[3]).toMatchObject({ seq: 4, kind: 'meta', data: { type: 'recovered' } });
      await closeJournal(journal);
      expect((await verifyJournalDir(dir)).ok, `cut at ${cut}`).toBe(true);
    }
  });

  it('cuts exactly a torn last record that ends no unit, whatever byte the crash stopped at', async () => {
    const dir = tempDir();
    const journal = await openJournal(dir);
    await journal.append([cardInput('AS'), card('AS')]);
    await journal.append([card('TD')]);
    await closeJournal(journal);
    const bytes = readFileSync(join(dir, 'journal-000001.jsonl'));
    const lastStart = bytes.subarray(0, bytes.length - 1).lastIndexOf(0x0a) + 1;
    for (let cut = lastStart + 1; cut < bytes.length; cut++) {
      const torn = tempDir();
      writeFileSync(join(torn, 'journal-000001.jsonl'), bytes.subarray(0, cut));
      const again = await openJournal(torn);
      expect(again.recovery, `cut at ${cut}`).toEqual([
        expect.objectContaining({ offset: lastStart, bytes: cut - lastStart }),
      ]);
      expect((await again.readAll()).slice(0, 3).map((record) => record.seq)).toEqual([1, 2, 3]);
      await closeJournal(again);
    }
  });

  it('reads an input of an older journal (no event count) as before: only the torn line is cut', async () => {
    let prev = GENESIS_HASH;
    const lines = [
      { kind: 'meta', data: { type: 'file' } },
      { kind: 'input', data: { t: 'card', card: 'AS', back: 'red', face: 'up' } },
      { kind: 'event', data: { type: 'card', card: 'AS', to: 'player' } },
    ].map((entry, index) => {
      const line = encodeRecord({ ...entry, seq: index + 1, ts: 1, prev } as JournalRecord);
      prev = hashLine(line);
      return line;
    });
    expect(lines[1]).not.toContain('"events"');
    const dir = tempDir();
    const text = `${lines.join('\n')}\n`;
    writeFileSync(join(dir, 'journal-000001.jsonl'), text.slice(0, text.length - 5));
    const journal = await openJournal(dir);
    expect(journal.recovery).toEqual([
      expect.objectContaining({ offset: text.length - lines[2]!.length - 1 }),
    ]);
    expect((await journal.readAll()).slice(0, 2).map((record) => record.kind)).toEqual([
      'meta',
      'input',
    ]);
  });

  it('states on each input how many events were appended with it', async () => {
    const dir = tempDir();
    const journal = await openJournal(dir);
    await journal.append([cardInput('AS'), card('AS'), card('AS'), cardInput('KD')]);
    await closeJournal(journal);
    const inputs = fileLines(dir, 'journal-000001.jsonl')
      .map((line) => JSON.parse(line))
      .filter((record) => record.kind === 'input');
    expect(inputs.map((record) => record.events)).toEqual([2, 0]);
  });

  it('cuts a last line with a broken hash or bad JSON', async () => {
    const { bytes, lastStart } = await buildJournal();
    const last = JSON.parse(bytes.subarray(lastStart).toString());
    for (const damaged of [
      JSON.stringify({ ...last, prev: 'f'.repeat(64) }),
      '{"seq":5,"ts":1,"kind":"event"',
      '\u0000\u0000\u0000\u0000',
    ]) {
      const dir = tempDir();
      writeFileSync(
        join(dir, 'journal-000001.jsonl'),
        Buffer.concat([bytes.subarray(0, lastStart), Buffer.from(`${damaged}\n`)]),
      );
      const journal = await openJournal(dir);
      // The damaged event takes its input with it: the unit is cut whole.
      const inputStart = bytes.subarray(0, lastStart - 1).lastIndexOf(0x0a) + 1;
      expect(journal.recovery).toEqual([expect.objectContaining({ offset: inputStart })]);
      expect(journal.lastSeq).toBe(4); // three records kept + the `recovered` note
      await closeJournal(journal);
    }
  });

  it('refuses to open a journal damaged before its last line', async () => {
    const { bytes, lastStart } = await buildJournal();
    const dir = tempDir();
    const text = bytes.toString().replace('"card":"AS"', '"card":"KS"');
    writeFileSync(join(dir, 'journal-000001.jsonl'), text);
    const error = await Journal.open({ dir, clock: Date.now }).catch((caught: unknown) => caught);
    expect(isJournalError(error) && error.code).toBe('corrupt');
    expect((error as Error).message).toContain('journal verify');
    expect(lastStart).toBeGreaterThan(0);
  });

  it('starts a new file cleanly after a crash in the middle of a rotation', async () => {
    const dir = tempDir();
    const journal = await openJournal(dir);
    await journal.append([card('AS')]);
    await closeJournal(journal);
    writeFileSync(join(dir, 'journal-000002.jsonl'), '{"seq":3,"ts"');
    const again = await openJournal(dir);
    expect(again.recovery).toHaveLength(1);
    await again.append([card('KS')]);
    await closeJournal(again);
    expect(await verifyJournalDir(dir)).toMatchObject({ ok: true, files: 2 });
  });
});
