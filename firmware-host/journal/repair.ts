/**
 * `tableside journal repair`: the operator's decision over a newest file the
 * daemon set aside because it could not be read from some line on. The
 * set-aside file stays in the folder, byte for byte; a new file of its name
 * takes its readable lines (verbatim, so the chain and the heads over them
 * still hold) and then a repair record chained to them, which says what was
 * set aside (name, size, SHA-256, first unreadable line). Seqs the table had
 * already published past the readable lines (the MQTT cursor) are skipped,
 * never given to other records: consumers deduplicate by seq. `journal
 * verify` names every repair record, so the journal never verifies as
 * intact over what it lost.
 */
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { JournalError } from './errors.ts';
import {
  acquireJournalLock,
  readLeadingRecords,
  releaseJournalLock,
  scanForRecovery,
} from './journal.ts';
import {
  decodeLine,
  encodeRecord,
  GENESIS_HASH,
  hashLine,
  type JournalRecord,
  journalFileIndex,
  journalFileName,
  type RepairNote,
  SET_ASIDE_PATTERN,
  splitLines,
} from './record.ts';

/** The MQTT bridge's cursor file in the journal folder: the last seq the broker took. */
const MQTT_CURSOR_FILE = 'mqtt-cursor.json';

export interface RepairResult {
  /** The new journal file. */
  file: string;
  setAside: string;
  /** Lines of the set-aside file kept (those before the first unreadable one). */
  keptLines: number;
  /** The repair record's seq. */
  seq: number;
  skipped?: { from: number; to: number };
}

/** Repairs the folder's undecided set-aside file (see the module comment). */
export async function repairJournal(dir: string, clock: () => number): Promise<RepairResult> {
  await acquireJournalLock(dir);
  try {
    return await repairLocked(dir, clock);
  } finally {
    await releaseJournalLock(dir);
  }
}

async function repairLocked(dir: string, clock: () => number): Promise<RepairResult> {
  const names = await readdir(dir);
  const indexes = names
    .map((name) => journalFileIndex(name))
    .filter((index): index is number => index !== undefined)
    .sort((a, b) => a - b);
  const newest = indexes[indexes.length - 1] ?? 0;
  const undecided = names
    .map((name) => ({ name, match: SET_ASIDE_PATTERN.exec(name) }))
    .filter(({ match }) => match && Number(match[2]) > newest)
    .sort((a, b) => Number(b.match![2]) - Number(a.match![2]))[0];
  if (!undecided) {
    throw new JournalError(
      'corrupt',
      `nothing to repair in ${dir}: no file set aside by the daemon waits for a decision (journal-NNNNNN.jsonl.unreadable-from-line-N newer than every journal file)`,
    );
  }
  const file = undecided.match![1]!;
  const chain = await chainBefore(dir, indexes);
  const bytes = await readFile(join(dir, undecided.name));
  const scanned = scanForRecovery(bytes, chain, undecided.name);
  const kept = scanned.records;
  const keptBytes = bytes.subarray(0, scanned.cutAt ?? bytes.length);
  const last = kept[kept.length - 1];
  const lastSeq = last ? last.record.seq : chain.seq;
  const published = await publishedThrough(dir);
  const note: RepairNote = {
    setAside: undecided.name,
    bytes: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    fromLine: kept.length + 1,
    ...(published > lastSeq ? { skipped: { from: lastSeq + 1, to: published } } : {}),
  };
  const table = kept.length === 0 ? await tableOf(dir, indexes) : undefined;
  const record: JournalRecord = {
    kind: 'meta',
    seq: (note.skipped?.to ?? lastSeq) + 1,
    ts: clock(),
    prev: last ? last.hash : chain.hash,
    // With no line kept, the repair record opens the file: it is the file's first record too.
    data:
      kept.length === 0
        ? {
            type: 'file',
            file,
            reason: 'repaired',
            ...(table ? { table } : {}),
            repair: note,
          }
        : { type: 'repaired', repair: note },
  };
  const handle = await open(
    join(dir, file),
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
    0o640,
  );
  try {
    await handle.writeFile(Buffer.concat([keptBytes, Buffer.from(`${encodeRecord(record)}\n`)]));
    await handle.datasync();
  } finally {
    await handle.close();
  }
  const folder = await open(dir, constants.O_RDONLY);
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
  return {
    file,
    setAside: undecided.name,
    keptLines: kept.length,
    seq: record.seq,
    ...(note.skipped ? { skipped: note.skipped } : {}),
  };
}

/** The last record before the set-aside file: the chain the new file continues. */
async function chainBefore(
  dir: string,
  indexes: readonly number[],
): Promise<{ seq: number; hash: string }> {
  for (let position = indexes.length - 1; position >= 0; position--) {
    const file = journalFileName(indexes[position]!);
    const lines = splitLines(await readFile(join(dir, file))).filter((line) => line.terminated);
    const lastLine = lines[lines.length - 1];
    if (!lastLine) continue;
    const decoded = decodeLine(lastLine.text);
    if (!decoded.ok) {
      throw new JournalError(
        'corrupt',
        `${file}: its last line is damaged (${decoded.reason}), so the repair has no chain to continue; run \`tableside journal verify\``,
      );
    }
    return { seq: decoded.record.seq, hash: hashLine(lastLine.text) };
  }
  return { seq: 0, hash: GENESIS_HASH };
}

/** The last seq the MQTT broker took (0 without a cursor). */
async function publishedThrough(dir: string): Promise<number> {
  let text: string;
  try {
    text = await readFile(join(dir, MQTT_CURSOR_FILE), 'utf8');
  } catch {
    return 0;
  }
  try {
    const value = JSON.parse(text) as unknown;
    const seq = typeof value === 'number' ? value : (value as { seq?: unknown } | null)?.seq;
    return typeof seq === 'number' && Number.isSafeInteger(seq) && seq > 0 ? seq : 0;
  } catch {
    return 0;
  }
}

/** The table the folder's files name (their first record), for a repair record that opens a file. */
async function tableOf(dir: string, indexes: readonly number[]): Promise<string | undefined> {
  for (let position = indexes.length - 1; position >= 0; position--) {
    const [first] = await readLeadingRecords(join(dir, journalFileName(indexes[position]!)), 1);
    if (!first) continue;
    const table = first.kind === 'meta' ? first.data.table : undefined;
    return typeof table === 'string' ? table : undefined;
  }
  return undefined;
}
