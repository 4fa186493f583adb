/**
 * A signed bundle of a period of the journal, for a regulator or a dispute
 * (001 § 11): verifiable offline with the table's public key alone.
 *
 * Format (JSON lines): a header line, then the journal's own lines for the
 * period, byte for byte, extended forward to the first signed head after
 * the period's end:
 *
 *   {"format":"tableside-journal-bundle/1","table":"t1","from":…,"to":…,"firstSeq":120,"lastSeq":415,"anchor":"<prev of record 120>"}
 *   {"seq":120,…}
 *   …
 *   {"seq":415,…,"kind":"meta","data":{"type":"head","seq":414,…}}
 *
 * Why it proves the period: each line holds the hash of the one before it,
 * and the closing head is the table's signature over the hash of the line
 * before it, so it commits to every line of the bundle (the first one's
 * `prev`, the anchor, is taken as given: it only links the period to the
 * history before it). The header is a label; verification relies on the
 * lines only.
 *
 * Pure: no I/O, no clock.
 */
import { decodeLine, encodeRecord, hashLine, journalFileIndex, splitLines } from './record.ts';
import { headProblem, type SignedHead, type TableKeys } from './seal.ts';
import type { JournalFileBytes } from './verify.ts';

export const BUNDLE_FORMAT = 'tableside-journal-bundle/1';

/** A bound of the period: a seq, or a time (ms since the epoch). */
export type PeriodBound = { seq: number } | { ts: number };

export interface BundleHeader {
  format: typeof BUNDLE_FORMAT;
  table: string | undefined;
  from: PeriodBound;
  to: PeriodBound;
  firstSeq: number;
  lastSeq: number;
  anchor: string;
}

export type ExportResult =
  | { ok: true; text: string; header: BundleHeader }
  | { ok: false; error: string };

function within(bound: PeriodBound, seq: number, ts: number, side: 'from' | 'to'): boolean {
  const [mine, theirs] = 'seq' in bound ? [seq, bound.seq] : [ts, bound.ts];
  return side === 'from' ? mine >= theirs : mine <= theirs;
}

/** The bundle of the records from `from` to `to` (inclusive), closed by the next signed head. */
export function exportBundle(
  files: readonly JournalFileBytes[],
  from: PeriodBound,
  to: PeriodBound,
): ExportResult {
  const ordered = [...files].sort(
    (a, b) => (journalFileIndex(a.name) ?? 0) - (journalFileIndex(b.name) ?? 0),
  );
  const lines: string[] = [];
  let header: Omit<BundleHeader, 'lastSeq'> | undefined;
  let periodEnded = false;
  /** The last line taken is a head sealing the line before it. */
  let closedBy: number | undefined;
  const close = (lastSeq: number): ExportResult => {
    const complete: BundleHeader = { ...header!, lastSeq };
    return {
      ok: true,
      header: complete,
      text: `${[JSON.stringify(complete), ...lines].join('\n')}\n`,
    };
  };
  for (const file of ordered) {
    for (const raw of splitLines(file.bytes)) {
      if (!raw.terminated) continue;
      const decoded = decodeLine(raw.text);
      if (!decoded.ok) {
        return {
          ok: false,
          error: `${file.name}:${raw.line}: ${decoded.reason}; run \`tableside journal verify\``,
        };
      }
      const { seq, ts, prev, kind, data } = decoded.record;
      if (!header) {
        if (!within(from, seq, ts, 'from')) continue;
        if (!within(to, seq, ts, 'to')) return { ok: false, error: 'no record in that period' };
        header = { format: BUNDLE_FORMAT, table: undefined, from, to, firstSeq: seq, anchor: prev };
      }
      if (!periodEnded && !within(to, seq, ts, 'to')) {
        periodEnded = true;
        if (closedBy !== undefined) return close(closedBy);
      }
      lines.push(raw.text);
      const table = (data as { table?: unknown }).table;
      if (header.table === undefined && typeof table === 'string') header.table = table;
      const isHead = kind === 'meta' && (data as { type?: unknown }).type === 'head';
      closedBy = isHead && (data as { seq?: unknown }).seq === seq - 1 ? seq : undefined;
      if (periodEnded && closedBy !== undefined) return close(seq);
    }
  }
  // The journal ends inside the period, on a head: the period is sealed up to now.
  if (header && closedBy !== undefined) return close(closedBy);
  if (!header) return { ok: false, error: 'no record in that period' };
  return {
    ok: false,
    error:
      'the period is not sealed yet: no signed head follows its end (the daemon seals at every checkpoint, sealIntervalSeconds after records come in and when it stops); try again later or end the period earlier',
  };
}

export interface BundleReport {
  ok: boolean;
  table: string | undefined;
  /** The records the closing head proves: firstSeq..provenThrough. */
  firstSeq: number | undefined;
  provenThrough: number | undefined;
  records: number;
  problems: string[];
}

/** Checks a bundle with the table's public key alone. */
export function verifyBundle(text: string, publicKey: TableKeys): BundleReport {
  const problems: string[] = [];
  const raw = splitLines(Buffer.from(text, 'utf8'));
  const report = (extra: Partial<BundleReport> = {}): BundleReport => ({
    ok: problems.length === 0,
    table: undefined,
    firstSeq: undefined,
    provenThrough: undefined,
    records: Math.max(0, raw.length - 1),
    problems,
    ...extra,
  });
  let header: BundleHeader;
  try {
    header = JSON.parse(raw[0]?.text ?? '') as BundleHeader;
  } catch {
    problems.push('line 1: not a bundle header (JSON)');
    return report();
  }
  if (header?.format !== BUNDLE_FORMAT) {
    problems.push(`line 1: format is not ${BUNDLE_FORMAT}`);
    return report();
  }
  let expected: { seq: number; hash: string } | undefined;
  let provenThrough: number | undefined;
  let lastSeq: number | undefined;
  const hashes = new Map<number, string>();
  for (const line of raw.slice(1)) {
    const where = `line ${line.line}`;
    if (!line.terminated) {
      problems.push(`${where}: no newline (the bundle was cut)`);
      break;
    }
    const decoded = decodeLine(line.text);
    if (!decoded.ok) {
      problems.push(`${where}: ${decoded.reason}`);
      break;
    }
    const { seq, ts, prev, kind, data } = decoded.record;
    // The journal writes each record in one encoding: any other bytes were edited.
    if (encodeRecord(decoded.record) !== line.text) {
      problems.push(`${where}: seq ${seq} is not as the journal writes it (edited)`);
      break;
    }
    if (expected === undefined) {
      if (prev !== header.anchor)
        problems.push(`${where}: seq ${seq} does not start at the anchor`);
      // The anchor is the hash of the record before the bundle: a head may seal it.
      hashes.set(seq - 1, prev);
    } else if (seq !== expected.seq + 1 || prev !== expected.hash) {
      problems.push(
        `${where}: seq ${seq} does not follow seq ${expected.seq} (the chain breaks: a record was changed, removed or inserted)`,
      );
      break;
    }
    const hash = hashLine(line.text);
    hashes.set(seq, hash);
    expected = { seq, hash };
    lastSeq = seq;
    if (kind === 'meta' && (data as { type?: unknown }).type === 'head') {
      const problem = headProblem(data, publicKey);
      const head = data as unknown as SignedHead;
      if (problem) {
        problems.push(`${where}: the head at seq ${seq} is not the table's: ${problem}`);
      } else if (head.at !== ts) {
        problems.push(
          `${where}: the head at seq ${seq} is stamped ${ts}, but signed at ${head.at}`,
        );
      } else if (hashes.get(head.seq) !== head.hash) {
        problems.push(
          `${where}: the head at seq ${seq} signed seq ${head.seq} with another hash: a record up to seq ${head.seq} differs from what the table signed`,
        );
      } else {
        provenThrough = head.seq;
      }
    }
  }
  if (lastSeq !== undefined && lastSeq !== header.lastSeq) {
    problems.push(`the bundle ends at seq ${lastSeq}, its header says ${header.lastSeq}`);
  }
  if (provenThrough === undefined) problems.push('no head signed by this key closes the bundle');
  else if (lastSeq !== undefined && provenThrough < lastSeq - 1) {
    problems.push(`records after seq ${provenThrough} are not covered by a signed head`);
  }
  return report({
    table: header.table,
    firstSeq: header.firstSeq,
    provenThrough,
  });
}
