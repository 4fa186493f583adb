/**
 * Journal verification: pure over the files' bytes (`verifyJournalFiles`),
 * plus a thin reader (`verifyJournalDir`). It names every edited, removed,
 * reordered, duplicated, malformed or truncated record with its file, line,
 * byte offset and sequence number.
 *
 * It also names an input whose events are missing (an input states how
 * many events follow it).
 *
 * What a hash chain cannot see without an outside anchor: an edit of the
 * very last record, or whole records cut from the end at a line boundary,
 * or records rewritten with the chain recomputed. Pass `expectLastSeq`
 * (e.g. the MQTT cursor, or the last seq a consumer saw) to catch a cut;
 * signed heads (seal.ts) and the consumers' copy of the published events
 * (published-events.ts) catch a rewrite.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  decodeLine,
  GENESIS_HASH,
  hashLine,
  JOURNAL_FILE_PATTERN,
  type JournalRecord,
  journalFileIndex,
  type RepairNote,
  repairNoteOf,
  SET_ASIDE_PATTERN,
  splitLines,
} from './record.ts';

export type FindingProblem =
  | 'edited'
  | 'removed'
  | 'reordered'
  | 'duplicated'
  | 'malformed'
  | 'truncated'
  /** An input states more events than follow it: they were never written (or removed). */
  | 'events_missing'
  /** `journal repair` continued the journal past a file set aside unreadable: what it held is not here. */
  | 'repaired'
  /** A file the daemon set aside unreadable waits for a decision (restore it, or `journal repair`). */
  | 'set_aside';

export interface VerifyOptions {
  /** The journal must reach this seq (e.g. the last seq a consumer saw). */
  expectLastSeq?: number;
  /** Names of the folder's set-aside files (`journal-NNNNNN.jsonl.unreadable-from-line-N`). */
  setAside?: readonly string[];
}

export interface Finding {
  problem: FindingProblem;
  file: string;
  /** 1-based line within the file. */
  line: number;
  /** Byte offset of that line. */
  offset: number;
  /** The record concerned (for `removed`: the first missing one). */
  seq?: number;
  /** For `removed`: how many consecutive records are missing. */
  count?: number;
  message: string;
}

export interface VerifyReport {
  ok: boolean;
  files: number;
  records: number;
  firstSeq: number | undefined;
  lastSeq: number | undefined;
  findings: Finding[];
}

export interface JournalFileBytes {
  name: string;
  bytes: Uint8Array;
}

interface Entry {
  file: string;
  line: number;
  offset: number;
  seq: number;
  prev: string;
  hash: string;
  kind: string;
  /** On an input: the events it states it made. */
  events: number | undefined;
  /** On a `journal repair` record: what it says was set aside. */
  repair: RepairNote | undefined;
}

/** What reading the files found: every record in file order (`undefined` for a malformed line) and each seq's first record. */
interface ReadRecords {
  readonly sequence: (Entry | undefined)[];
  readonly bySeq: Map<number, Entry>;
}

/** Reads every line of the files in order; names truncated, malformed and duplicated lines. */
function readRecords(ordered: readonly JournalFileBytes[], findings: Finding[]): ReadRecords {
  const sequence: (Entry | undefined)[] = [];
  const bySeq = new Map<number, Entry>();
  for (const [fileIndex, file] of ordered.entries()) {
    for (const raw of splitLines(file.bytes)) {
      const where = { file: file.name, line: raw.line, offset: raw.offset };
      if (!raw.terminated) {
        const last = fileIndex === ordered.length - 1;
        findings.push({
          problem: 'truncated',
          ...where,
          message: last
            ? 'last line has no newline: a torn write (the daemon cuts it off on start)'
            : 'line has no newline, yet later files follow: the file was cut',
        });
        sequence.push(undefined);
        continue;
      }
      const decoded = decodeLine(raw.text);
      if (!decoded.ok) {
        findings.push({
          problem: 'malformed',
          ...where,
          message: `record is damaged: ${decoded.reason}`,
        });
        sequence.push(undefined);
        continue;
      }
      const { seq, prev, kind, events } = decoded.record;
      const repair = repairNoteOf(decoded.record);
      const entry: Entry = { ...where, seq, prev, hash: hashLine(raw.text), kind, events, repair };
      const earlier = bySeq.get(seq);
      if (earlier) {
        findings.push({
          problem: 'duplicated',
          ...where,
          seq,
          message: `seq ${seq} appears again (first at ${earlier.file}:${earlier.line})`,
        });
      } else {
        bySeq.set(seq, entry);
      }
      sequence.push(entry);
    }
  }
  return { sequence, bySeq };
}

/** Records missing before `entry`, or `entry` out of order, given the highest seq seen before it. */
function orderFindings(
  entry: Entry,
  previous: Entry | undefined | null,
  highest: number,
  records: ReadRecords,
  startsMidway: boolean,
): Finding[] {
  const at = { file: entry.file, line: entry.line, offset: entry.offset };
  const found: Finding[] = [];
  if (previous === null && !startsMidway && entry.seq !== 1) {
    found.push({
      problem: 'removed',
      ...at,
      seq: 1,
      count: entry.seq - 1,
      message: `records 1..${entry.seq - 1} are missing before seq ${entry.seq}`,
    });
  }
  if (entry.seq < highest) {
    found.push({
      problem: 'reordered',
      ...at,
      seq: entry.seq,
      message: `seq ${entry.seq} comes after seq ${highest}`,
    });
  } else if (previous && entry.seq > highest + 1) {
    const missing: number[] = [];
    // Seqs a repair skipped (published from the set-aside file) are named by the repair finding.
    const skipped = entry.repair?.skipped;
    const from = skipped && skipped.from === highest + 1 ? skipped.to + 1 : highest + 1;
    for (let seq = from; seq < entry.seq; seq++) {
      if (!records.bySeq.has(seq)) missing.push(seq);
    }
    if (missing.length > 0) {
      found.push({
        problem: 'removed',
        ...at,
        seq: missing[0]!,
        count: missing.length,
        message:
          missing.length === 1
            ? `seq ${missing[0]} is missing before seq ${entry.seq}`
            : `${missing.length} records (${missing[0]}..${missing[missing.length - 1]}) are missing before seq ${entry.seq}`,
      });
    }
  }
  return found;
}

/** The chain: each record names the hash of the record with the seq before it. */
function chainFinding(entry: Entry, records: ReadRecords): Finding | undefined {
  if (entry.seq === 1) {
    if (entry.prev === GENESIS_HASH) return undefined;
    return {
      problem: 'edited',
      file: entry.file,
      line: entry.line,
      offset: entry.offset,
      seq: 1,
      message: 'the first record does not start the chain (prev is not the genesis hash)',
    };
  }
  const skipped = entry.repair?.skipped;
  const before = records.bySeq.get(
    skipped && skipped.to === entry.seq - 1 ? skipped.from - 1 : entry.seq - 1,
  );
  if (!before || before.hash === entry.prev) return undefined;
  return {
    problem: 'edited',
    file: before.file,
    line: before.line,
    offset: before.offset,
    seq: before.seq,
    message: `seq ${before.seq} was changed: its hash no longer matches the prev of seq ${entry.seq} (${entry.file}:${entry.line}; or that prev was changed)`,
  };
}

/** Walks the records in order: gaps, reordering and the hash chain. Returns the highest seq. */
function checkOrderAndChain(
  records: ReadRecords,
  startsMidway: boolean,
  findings: Finding[],
): number {
  let highest = 0;
  let previous: Entry | undefined | null = null; // null: nothing before; undefined: a malformed line
  for (const entry of records.sequence) {
    if (!entry) {
      previous = undefined;
      continue;
    }
    findings.push(...orderFindings(entry, previous, highest, records, startsMidway));
    if (entry.repair) findings.push(repairFinding(entry, entry.repair));
    highest = Math.max(highest, entry.seq);
    const broken = chainFinding(entry, records);
    if (broken) findings.push(broken);
    previous = entry;
  }
  return highest;
}

/** A repair record: the journal says itself what it lost, and verify never calls it intact. */
function repairFinding(entry: Entry, note: RepairNote): Finding {
  const skipped = note.skipped
    ? `; seq ${note.skipped.from}..${note.skipped.to} had been published from it and are not in this journal (never reused)`
    : '';
  return {
    problem: 'repaired',
    file: entry.file,
    line: entry.line,
    offset: entry.offset,
    seq: entry.seq,
    message: `journal repair: ${note.setAside} (${note.bytes} bytes, sha256 ${note.sha256}) was set aside, unreadable from line ${note.fromLine}; its ${note.fromLine - 1} line(s) before that are kept, the rest is not in this journal${skipped}`,
  };
}

/** Set-aside files newer than every journal file: nobody has decided yet, the journal is not whole. */
function setAsideFindings(
  names: readonly string[],
  ordered: readonly JournalFileBytes[],
): Finding[] {
  const newest = Math.max(0, ...ordered.map((file) => journalFileIndex(file.name) ?? 0));
  return names.flatMap((name): Finding[] => {
    const match = SET_ASIDE_PATTERN.exec(name);
    if (!match || Number(match[2]) <= newest) return [];
    return [
      {
        problem: 'set_aside',
        file: name,
        line: Number(match[3]),
        offset: 0,
        message: `${match[1]} was set aside, unreadable from line ${match[3]}: its records are not verified; restore a good copy, or run \`tableside journal repair\``,
      },
    ];
  });
}

/** Each input is followed by the events it states (one append, one unit). */
function missingEvents(sequence: readonly (Entry | undefined)[]): Finding[] {
  const found: Finding[] = [];
  for (const [index, entry] of sequence.entries()) {
    if (entry?.kind !== 'input' || entry.events === undefined) continue;
    let following = 0;
    while (following < entry.events && sequence[index + 1 + following]?.kind === 'event') {
      following++;
    }
    if (following < entry.events) {
      found.push({
        problem: 'events_missing',
        file: entry.file,
        line: entry.line,
        offset: entry.offset,
        seq: entry.seq,
        count: entry.events - following,
        message: `input seq ${entry.seq} states ${entry.events} event(s) but ${following} follow it: its events were not all written (or were removed)`,
      });
    }
  }
  return found;
}

/** Records cut from the end, seen against the last seq someone outside saw. */
function cutFinding(
  ordered: readonly JournalFileBytes[],
  sequence: readonly (Entry | undefined)[],
  lastSeq: number | undefined,
  expectLastSeq: number,
): Finding {
  const lastFile = ordered[ordered.length - 1];
  const lastEntry = [...sequence].reverse().find((entry) => entry !== undefined);
  return {
    problem: 'removed',
    file: lastFile?.name ?? '(none)',
    line: (lastEntry?.line ?? 0) + 1,
    offset: lastFile?.bytes.length ?? 0,
    seq: (lastSeq ?? 0) + 1,
    count: expectLastSeq - (lastSeq ?? 0),
    message: `the journal ends at seq ${lastSeq ?? 0} but seq ${expectLastSeq} was expected: records were cut from the end`,
  };
}

export function verifyJournalFiles(
  files: readonly JournalFileBytes[],
  options: VerifyOptions = {},
): VerifyReport {
  const findings: Finding[] = [];
  const ordered = [...files].sort(
    (a, b) => (journalFileIndex(a.name) ?? 0) - (journalFileIndex(b.name) ?? 0),
  );
  const records = readRecords(ordered, findings);
  const { sequence } = records;
  // A journal whose first files were archived starts past seq 1; its first
  // record's prev then points to a file we do not have.
  const firstFileIndex = ordered[0] ? journalFileIndex(ordered[0].name) : undefined;
  const startsMidway = firstFileIndex !== undefined && firstFileIndex > 1;
  const highest = checkOrderAndChain(records, startsMidway, findings);
  findings.push(...missingEvents(sequence));
  findings.push(...setAsideFindings(options.setAside ?? [], ordered));
  const lastSeq = highest > 0 ? highest : undefined;
  if (options.expectLastSeq !== undefined && (lastSeq ?? 0) < options.expectLastSeq) {
    findings.push(cutFinding(ordered, sequence, lastSeq, options.expectLastSeq));
  }
  findings.sort((a, b) => fileOrder(a.file, b.file) || a.offset - b.offset);
  const firstEntry = sequence.find((entry) => entry !== undefined);
  return {
    ok: findings.length === 0,
    files: ordered.length,
    records: sequence.length,
    firstSeq: firstEntry?.seq,
    lastSeq,
    findings,
  };
}

function fileOrder(a: string, b: string): number {
  return (journalFileIndex(a) ?? 0) - (journalFileIndex(b) ?? 0);
}

/** The records of the files that decode, in file order (what verify names as damaged is left out). */
export function decodeJournalFiles(files: readonly JournalFileBytes[]): JournalRecord[] {
  const records: JournalRecord[] = [];
  const ordered = [...files].sort((a, b) => fileOrder(a.name, b.name));
  for (const file of ordered) {
    for (const raw of splitLines(file.bytes)) {
      if (!raw.terminated) continue;
      const decoded = decodeLine(raw.text);
      if (decoded.ok) records.push(decoded.record);
    }
  }
  return records;
}

/** Reads every journal file of a folder. */
export async function readJournalFiles(dir: string): Promise<JournalFileBytes[]> {
  const names = (await readdir(dir)).filter((name) => JOURNAL_FILE_PATTERN.test(name));
  names.sort((a, b) => fileOrder(a, b));
  return Promise.all(names.map(async (name) => ({ name, bytes: await readFile(join(dir, name)) })));
}

/** The folder's set-aside files (`journal-NNNNNN.jsonl.unreadable-from-line-N`). */
export async function readSetAsideNames(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => SET_ASIDE_PATTERN.test(name));
}

export async function verifyJournalDir(
  dir: string,
  options: { expectLastSeq?: number } = {},
): Promise<VerifyReport> {
  return verifyJournalFiles(await readJournalFiles(dir), {
    ...options,
    setAside: await readSetAsideNames(dir),
  });
}
