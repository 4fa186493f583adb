/**
 * The journal's record format, pure: one JSON object per line,
 *
 *   {"seq":12,"ts":1700000000000,"kind":"event","prev":"<sha256 hex>","data":{...}}
 *
 * An input record also states how many event records it made, right after
 * it (`"events":2` between `prev` and `data`): an input and its events are
 * one unit, and the count lets recovery and `verify` see a unit cut short.
 * Journals written before the field have inputs without it (not checked).
 *
 * `seq` counts from 1 across all files; `prev` is the SHA-256 of the exact
 * bytes of the previous record's line (without its newline), or the genesis
 * constant for the first record. Editing, removing or reordering a record
 * breaks the chain at a position `verify` can name.
 */
import { hash } from 'node:crypto';
import type { DomainEvent } from '../table/events.ts';
import type { TableLogRecord } from '../table/log.ts';

export const GENESIS_HASH = '0'.repeat(64);
export const JOURNAL_FILE_PATTERN = /^journal-(\d{6,})\.jsonl$/;

export type JournalKind = 'input' | 'event' | 'meta';

/** What a caller appends; the journal adds seq, ts and prev. */
export type JournalEntry =
  | { kind: 'input'; data: TableLogRecord }
  | { kind: 'event'; data: DomainEvent }
  | { kind: 'meta'; data: { type: string; [detail: string]: unknown } };

export type JournalRecord = JournalEntry & {
  seq: number;
  ts: number;
  prev: string;
  /** On an input: how many event records follow it as its events (absent in older journals). */
  events?: number;
};

export function journalFileName(index: number): string {
  return `journal-${String(index).padStart(6, '0')}.jsonl`;
}

export function journalFileIndex(name: string): number | undefined {
  const match = JOURNAL_FILE_PATTERN.exec(name);
  return match ? Number(match[1]) : undefined;
}

/**
 * A file set aside because it could not be read from line N on (the
 * daemon moved it; `journal repair` decides): `journal-000007.jsonl.unreadable-from-line-1`.
 * Never a journal file name, so no reader takes it for one.
 */
export const SET_ASIDE_PATTERN =
  /^(journal-(\d{6,})\.jsonl)\.unreadable-from-line-(\d+)(?:\.\d+)?$/;

export function setAsideFileName(file: string, line: number): string {
  return `${file}.unreadable-from-line-${line}`;
}

/** What a `journal repair` record says of the file it set aside (`data.repair`). */
export interface RepairNote {
  /** The set-aside file's name, kept in the folder. */
  setAside: string;
  bytes: number;
  sha256: string;
  /** The first unreadable line of it; the lines before it are kept verbatim before this record. */
  fromLine: number;
  /** Seqs the table had published (the MQTT cursor) past the last readable record: never used again. */
  skipped?: { from: number; to: number };
}

/** The repair note of a record, if it is a repair record. */
export function repairNoteOf(record: JournalRecord): RepairNote | undefined {
  if (record.kind !== 'meta') return undefined;
  const note = record.data.repair as RepairNote | undefined;
  return typeof note === 'object' && note !== null && typeof note.setAside === 'string'
    ? note
    : undefined;
}

/**
 * The seq a record must have after `previousSeq`: the next one, except
 * after a repair that skipped the seqs already published from a file set
 * aside (those seqs are never given to other records).
 */
export function seqAfter(previousSeq: number, record: JournalRecord): number {
  const skipped = repairNoteOf(record)?.skipped;
  return skipped && skipped.from === previousSeq + 1 ? skipped.to + 1 : previousSeq + 1;
}

/** One-shot: no Hash object per record (the journal hashes every line it writes or reads). */
export function hashLine(line: string | Uint8Array): string {
  return hash('sha256', line, 'hex');
}

/** The exact line (without newline) of a record: fixed key order, so equal records give equal bytes. */
export function encodeRecord(record: JournalRecord): string {
  return JSON.stringify({
    seq: record.seq,
    ts: record.ts,
    kind: record.kind,
    prev: record.prev,
    events: record.kind === 'input' ? record.events : undefined,
    data: record.data,
  });
}

export type DecodedLine = { ok: true; record: JournalRecord } | { ok: false; reason: string };

/** Parses one line and checks the record's shape (not its place in the chain). */
export function decodeLine(line: string): DecodedLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { ok: false, reason: 'not valid JSON' };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, reason: 'not a JSON object' };
  }
  const record = value as Record<string, unknown>;
  if (!Number.isSafeInteger(record.seq) || (record.seq as number) < 1) {
    return { ok: false, reason: 'seq is not a positive integer' };
  }
  if (!Number.isSafeInteger(record.ts) || (record.ts as number) < 0) {
    return { ok: false, reason: 'ts is not a non-negative integer' };
  }
  if (record.kind !== 'input' && record.kind !== 'event' && record.kind !== 'meta') {
    return { ok: false, reason: 'kind is not input, event or meta' };
  }
  if (typeof record.prev !== 'string' || !/^[0-9a-f]{64}$/.test(record.prev)) {
    return { ok: false, reason: 'prev is not a SHA-256 hex digest' };
  }
  if (record.data === null || typeof record.data !== 'object' || Array.isArray(record.data)) {
    return { ok: false, reason: 'data is not an object' };
  }
  if (
    record.events !== undefined &&
    (record.kind !== 'input' ||
      !Number.isSafeInteger(record.events) ||
      (record.events as number) < 0)
  ) {
    return { ok: false, reason: 'events is not the event count of an input' };
  }
  return { ok: true, record: record as unknown as JournalRecord };
}

/** The UTC calendar day of a timestamp, the default unit of daily rotation. */
export function utcDay(ts: number): string {
  return new Date(ts).toISOString().slice(0, 10);
}

/** One line of a file's bytes, with where it starts. */
export interface RawLine {
  /** 1-based line number within the file. */
  line: number;
  /** Byte offset of the line's first byte. */
  offset: number;
  text: string;
  /** False for a last line that has no newline (a torn write). */
  terminated: boolean;
}

export function splitLines(bytes: Uint8Array): RawLine[] {
  const lines: RawLine[] = [];
  const decoder = new TextDecoder();
  let start = 0;
  let number = 1;
  for (let index = 0; index < bytes.length; index++) {
    if (bytes[index] === 0x0a) {
      lines.push({
        line: number++,
        offset: start,
        text: decoder.decode(bytes.subarray(start, index)),
        terminated: true,
      });
      start = index + 1;
    }
  }
  if (start < bytes.length) {
    lines.push({
      line: number,
      offset: start,
      text: decoder.decode(bytes.subarray(start)),
      terminated: false,
    });
  }
  return lines;
}
