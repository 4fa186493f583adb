import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  encodeRecord,
  GENESIS_HASH,
  hashLine,
  type JournalFileBytes,
  type JournalRecord,
  journalFileName,
  verifyJournalFiles,
} from '../../../firmware-host/journal/index.ts';
import { runCliSync } from '../../helpers/cli.ts';
import { tempDir as makeTempDir } from '../../helpers/temp.ts';

/** Builds journal files in memory: `perFile` records per file, chained across files. */
function buildLines(count: number): string[] {
  const lines: string[] = [];
  let prev = GENESIS_HASH;
  for (let seq = 1; seq <= count; seq++) {
    const record: JournalRecord = {
      seq,
      ts: 1_700_000_000_000 + seq,
      kind: 'event',
      prev,
      data: { type: 'card', card: 'AS', to: 'player', index: seq },
    };
    const line = encodeRecord(record);
    lines.push(line);
    prev = hashLine(line);
  }
  return lines;
}

function files(...contents: string[][]): JournalFileBytes[] {
  return contents.map((lines, index) => ({
    name: journalFileName(index + 1),
    bytes: Buffer.from(lines.map((line) => `${line}\n`).join('')),
  }));
}

const offsetOf = (lines: string[], index: number) =>
  lines.slice(0, index).reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0);

describe('journal verify', () => {
  it('passes an intact journal spread over several files', () => {
    const lines = buildLines(9);
    const report = verifyJournalFiles(files(lines.slice(0, 3), lines.slice(3, 7), lines.slice(7)));
    expect(report).toEqual({
      ok: true,
      files: 3,
      records: 9,
      firstSeq: 1,
      lastSeq: 9,
      findings: [],
    });
  });

  it('names an edited record with its file, line, offset and seq', () => {
    const lines = buildLines(6);
    lines[3] = lines[3]!.replace('"card":"AS"', '"card":"KS"');
    const report = verifyJournalFiles(files(lines));
    expect(report.ok).toBe(false);
    expect(report.findings).toEqual([
      expect.objectContaining({
        problem: 'edited',
        file: 'journal-000001.jsonl',
        line: 4,
        offset: offsetOf(lines, 3),
        seq: 4,
      }),
    ]);
  });

  it('names an edit that breaks the JSON as malformed', () => {
    const lines = buildLines(4);
    lines[1] = lines[1]!.slice(0, 20);
    const report = verifyJournalFiles(files(lines));
    expect(report.findings).toEqual([
      expect.objectContaining({ problem: 'malformed', line: 2, offset: offsetOf(lines, 1) }),
    ]);
  });

  it('names removed records, within a file and as a whole file', () => {
    const lines = buildLines(10);
    const withoutTwo = [...lines.slice(0, 4), ...lines.slice(6)];
    expect(verifyJournalFiles(files(withoutTwo)).findings).toEqual([
      expect.objectContaining({ problem: 'removed', line: 5, seq: 5, count: 2 }),
    ]);
    const missingMiddleFile: JournalFileBytes[] = files(
      lines.slice(0, 3),
      lines.slice(3, 6),
      lines.slice(6),
    );
    missingMiddleFile.splice(1, 1);
    expect(verifyJournalFiles(missingMiddleFile).findings).toEqual([
      expect.objectContaining({
        problem: 'removed',
        file: 'journal-000003.jsonl',
        line: 1,
        seq: 4,
        count: 3,
      }),
    ]);
    expect(verifyJournalFiles(files(lines.slice(1))).findings).toEqual([
      expect.objectContaining({ problem: 'removed', line: 1, seq: 1, count: 1 }),
    ]);
  });

  it('names a reordered record at the place it moved to', () => {
    const lines = buildLines(6);
    const swapped = [...lines];
    [swapped[2], swapped[3]] = [swapped[3]!, swapped[2]!];
    expect(verifyJournalFiles(files(swapped)).findings).toEqual([
      expect.objectContaining({ problem: 'reordered', line: 4, seq: 3 }),
    ]);
    const movedFar = [lines[0]!, ...lines.slice(2), lines[1]!];
    expect(verifyJournalFiles(files(movedFar)).findings).toEqual([
      expect.objectContaining({ problem: 'reordered', line: 6, seq: 2 }),
    ]);
  });

  it('names a duplicated record', () => {
    const lines = buildLines(4);
    expect(verifyJournalFiles(files([...lines, lines[3]!])).findings).toEqual([
      expect.objectContaining({ problem: 'duplicated', line: 5, seq: 4 }),
    ]);
  });

  it('names a truncated record, and records cut from the end when the last seq is known', () => {
    const lines = buildLines(5);
    const [file] = files(lines);
    const torn = { ...file!, bytes: file!.bytes.subarray(0, file!.bytes.length - 10) };
    expect(verifyJournalFiles([torn]).findings).toEqual([
      expect.objectContaining({ problem: 'truncated', line: 5, offset: offsetOf(lines, 4) }),
    ]);
    expect(verifyJournalFiles(files(lines.slice(0, 3)), { expectLastSeq: 5 }).findings).toEqual([
      expect.objectContaining({ problem: 'removed', line: 4, seq: 4, count: 2 }),
    ]);
  });

  it('names an input whose events are missing (a write cut after the input)', () => {
    const lines: string[] = [];
    let prev = GENESIS_HASH;
    const entries = [
      { kind: 'input', events: 2, data: { t: 'card', card: 'AS', back: 'red', face: 'up' } },
      { kind: 'event', data: { type: 'card', card: 'AS', to: 'player', index: 1 } },
      { kind: 'input', events: 1, data: { t: 'card', card: 'KD', back: 'red', face: 'up' } },
      { kind: 'event', data: { type: 'card', card: 'KD', to: 'banker', index: 2 } },
    ] as const;
    for (const [index, entry] of entries.entries()) {
      const line = encodeRecord({ ...entry, seq: index + 1, ts: 1_000, prev } as JournalRecord);
      lines.push(line);
      prev = hashLine(line);
    }
    expect(verifyJournalFiles(files(lines)).findings).toEqual([
      expect.objectContaining({ problem: 'events_missing', seq: 1, line: 1, count: 1 }),
    ]);
    // An input written before inputs stated their events is not checked.
    const old = verifyJournalFiles(files(buildLines(3)));
    expect(old.ok).toBe(true);
  });

  it('accepts a journal whose first files were archived', () => {
    const lines = buildLines(6);
    const [, second] = files(lines.slice(0, 3), lines.slice(3));
    expect(verifyJournalFiles([second!])).toMatchObject({ ok: true, firstSeq: 4, lastSeq: 6 });
  });
});

describe('tableside journal verify', () => {
  const cli = (...args: string[]) => runCliSync(args);

  it('exits 0 when intact and 1 with the findings otherwise', () => {
    const lines = buildLines(4);
    const dir = makeTempDir('tableside-verify-');
    writeFileSync(join(dir, 'journal-000001.jsonl'), lines.map((line) => `${line}\n`).join(''));
    const intact = cli('journal', 'verify', dir);
    expect(intact.status).toBe(0);
    expect(intact.stdout).toMatch(/^OK: 1 file\(s\), 4 record\(s\), seq 1\.\.4/);

    lines[1] = lines[1]!.replace('"index":2', '"index":3');
    writeFileSync(join(dir, 'journal-000001.jsonl'), lines.map((line) => `${line}\n`).join(''));
    const broken = cli('journal', 'verify', dir, '--json');
    expect(broken.status).toBe(1);
    const report = JSON.parse(broken.stdout);
    expect(report.ok).toBe(false);
    expect(report.findings).toEqual([
      expect.objectContaining({ problem: 'edited', seq: 2, line: 2 }),
    ]);

    const shown = cli('journal', 'show', dir, '--from', '3', '--json');
    expect(shown.status).toBe(1); // the chain break is reported, not papered over
  });
});
