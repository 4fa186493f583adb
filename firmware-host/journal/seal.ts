/**
 * Signed chain heads (docs/operator/journal.md, "Journal signatures").
 *
 * The daemon seals the chain with the table's Ed25519 key at every
 * checkpoint, `sealIntervalSeconds` (default 5) after records come in
 * (seal-timer.ts), at start and at a clean stop: a `meta` record of type `head`
 *
 *   {"type":"head","table":"t1","seq":812,"hash":"<sha256 of record 812's line>",
 *    "at":1764040000000,"key":"3f2a-9c01-77de-b410","sig":"<base64>"}
 *
 * whose `sig` is the Ed25519 signature of the UTF-8 bytes of
 *
 *   tableside-journal-head/1 LF <table> LF <seq> LF <hash> LF <at>
 *
 * The same object is published retained on `<base>/<table>/journal/head`,
 * so the casino's systems hold copies the table cannot take back. Since a
 * line's hash covers its `prev`, a head commits to every record up to `seq`:
 * whoever rewrites a record and recomputes the chain cannot make the heads
 * after it match again without the table's private key.
 *
 * Pure: no I/O, no clock; verification takes the files' bytes.
 */
import { type KeyObject, sign, verify } from 'node:crypto';
import { isoTime } from '../trust/canonical.ts';
import { fingerprint } from '../trust/keys.ts';
import type { ChainHead } from './journal.ts';
import { decodeLine, hashLine, journalFileIndex, splitLines } from './record.ts';
import {
  type JournalFileBytes,
  type VerifyOptions,
  type VerifyReport,
  verifyJournalFiles,
} from './verify.ts';

export const HEAD_SIGNATURE_DOMAIN = 'tableside-journal-head/1';

export interface SignedHead {
  type: 'head';
  table: string;
  seq: number;
  hash: string;
  at: number;
  key: string;
  sig: string;
}

export function headSigningInput(table: string, seq: number, hash: string, at: number): Buffer {
  return Buffer.from(`${HEAD_SIGNATURE_DOMAIN}\n${table}\n${seq}\n${hash}\n${at}`, 'utf8');
}

export function signHead(privateKey: KeyObject, table: string, head: ChainHead): SignedHead {
  const sig = sign(null, headSigningInput(table, head.seq, head.hash, head.ts), privateKey);
  return {
    type: 'head',
    table,
    seq: head.seq,
    hash: head.hash,
    at: head.ts,
    key: fingerprint(privateKey),
    sig: sig.toString('base64'),
  };
}

/**
 * The table's public keys: one, or several after a key rotation (each head
 * names the key that signed it).
 */
export type TableKeys = KeyObject | readonly KeyObject[];

/** Why `value` is not a head signed by one of `keys`, or undefined when it is one. */
export function headProblem(value: unknown, keys: TableKeys): string | undefined {
  const candidates = Array.isArray(keys) ? (keys as readonly KeyObject[]) : [keys as KeyObject];
  if (value === null || typeof value !== 'object') return 'not an object';
  const head = value as Partial<SignedHead>;
  if (head.type !== 'head') return 'type is not "head"';
  if (typeof head.table !== 'string') return 'table is missing';
  if (!Number.isSafeInteger(head.seq) || (head.seq as number) < 1)
    return 'seq is not a positive integer';
  if (typeof head.hash !== 'string' || !/^[0-9a-f]{64}$/.test(head.hash)) {
    return 'hash is not a SHA-256 hex digest';
  }
  if (!Number.isSafeInteger(head.at)) return 'at is not an integer';
  if (
    typeof head.sig !== 'string' ||
    Buffer.from(head.sig, 'base64').toString('base64') !== head.sig
  ) {
    return 'sig is not a canonical base64 signature';
  }
  if (typeof head.key !== 'string') return 'key is missing';
  const publicKey = candidates.find((key) => fingerprint(key) === head.key);
  if (!publicKey) {
    return `signed by key ${JSON.stringify(head.key.slice(0, 32))}, not by ${candidates.map(fingerprint).join(' or ')}`;
  }
  let good = false;
  try {
    good = verify(
      null,
      headSigningInput(head.table, head.seq as number, head.hash, head.at as number),
      publicKey,
      Buffer.from(head.sig, 'base64'),
    );
  } catch {
    good = false;
  }
  return good ? undefined : 'the signature does not verify';
}

export type SealProblem =
  | 'forged_head'
  | 'rewritten'
  | 'unsealed_checkpoint'
  | 'missing_records'
  /** Not one head signed by this key: nothing is proven (heads stripped, or never signed). */
  | 'no_heads';

export interface SealFinding {
  problem: SealProblem;
  /** The seq of the head (or checkpoint) concerned. */
  seq: number;
  message: string;
}

export interface SealReport {
  ok: boolean;
  /** The hash chain on its own (as `journal verify` without a key). */
  chain: VerifyReport;
  /** Good signed heads found in the journal, and in the heads file. */
  heads: number;
  externalHeads: number;
  /** The highest seq a good head proves unchanged (0: none). */
  provenThrough: number;
  /** Records after it: appended since the last seal, not yet provable. */
  unsealed: number;
  /**
   * Those records' seqs (heads excluded) and kinds: what a crash left after
   * the last signed head, or what was changed there; only the consumers'
   * copies (`--events`, `--heads`) can prove them.
   */
  unsealedRange: { from: number; through: number; inputs: number; events: number } | undefined;
  /** Where a rewrite lies: the first record that differs is in after+1..through. */
  firstDiffering: { after: number; through: number } | undefined;
  findings: SealFinding[];
}

interface Line {
  seq: number;
  hash: string;
  data: Record<string, unknown>;
  kind: string;
}

/** Every well-formed record of the journal by seq (the first of a duplicated seq). */
function readLines(files: readonly JournalFileBytes[]): Map<number, Line> {
  const bySeq = new Map<number, Line>();
  const ordered = [...files].sort(
    (a, b) => (journalFileIndex(a.name) ?? 0) - (journalFileIndex(b.name) ?? 0),
  );
  for (const file of ordered) {
    for (const raw of splitLines(file.bytes)) {
      if (!raw.terminated) continue;
      const decoded = decodeLine(raw.text);
      if (!decoded.ok || bySeq.has(decoded.record.seq)) continue;
      const { seq, kind, data } = decoded.record;
      bySeq.set(seq, {
        seq,
        hash: hashLine(raw.text),
        kind,
        data: data as Record<string, unknown>,
      });
    }
  }
  return bySeq;
}

/** The heads checked so far against the journal: the seqs that match, those that differ, what was found. */
class HeadCheck {
  readonly matching: number[] = [];
  readonly differing: number[] = [];
  readonly findings: SealFinding[] = [];
  readonly lastSeq: number;

  constructor(readonly bySeq: ReadonlyMap<number, Line>) {
    let lastSeq = 0;
    for (const seq of bySeq.keys()) lastSeq = Math.max(lastSeq, seq);
    this.lastSeq = lastSeq;
  }

  /** A good head: does the journal still hold the record it signed, unchanged? */
  check(head: SignedHead, where: string, headSeq: number | undefined): void {
    const covered = this.bySeq.get(head.seq);
    if (!covered) {
      this.findings.push({
        problem: 'missing_records',
        seq: head.seq,
        message: `${where} signed seq ${head.seq} at ${isoTime(head.at)}, but the journal ${head.seq > this.lastSeq ? `ends at seq ${this.lastSeq}` : 'lacks it'}: records were removed`,
      });
      this.differing.push(Math.min(head.seq, this.lastSeq + 1));
      return;
    }
    if (covered.hash === head.hash) {
      this.matching.push(head.seq);
      return;
    }
    this.differing.push(head.seq);
    this.findings.push({
      problem: 'rewritten',
      seq: headSeq ?? head.seq,
      message: `${where} signed seq ${head.seq} with hash ${head.hash.slice(0, 12)}… at ${isoTime(head.at)}; the journal's record ${head.seq} hashes to ${covered.hash.slice(0, 12)}…: a record up to seq ${head.seq} was changed and the chain recomputed`,
    });
  }
}

/** The heads and checkpoints written in the journal; returns how many good heads it holds. */
function checkJournalHeads(heads: HeadCheck, publicKey: TableKeys): number {
  let good = 0;
  for (const line of [...heads.bySeq.values()].sort((a, b) => a.seq - b.seq)) {
    if (line.kind !== 'meta') continue;
    if (line.data.type === 'head') {
      const problem = headProblem(line.data, publicKey);
      if (problem) {
        heads.findings.push({
          problem: 'forged_head',
          seq: line.seq,
          message: `the head record at seq ${line.seq} is not the table's: ${problem}`,
        });
        continue;
      }
      good++;
      heads.check(line.data as unknown as SignedHead, `the head at seq ${line.seq}`, line.seq);
    } else if (line.data.type === 'checkpoint') {
      // A rotation writes file, checkpoint and head together: a checkpoint
      // without its head means heads were removed.
      const next = heads.bySeq.get(line.seq + 1);
      if (next?.data.type !== 'head' || headProblem(next.data, publicKey)) {
        heads.findings.push({
          problem: 'unsealed_checkpoint',
          seq: line.seq,
          message: `the checkpoint at seq ${line.seq} is not followed by a head signed by this key (written by a daemon without journal.signingKey, or the head was removed)`,
        });
      }
    }
  }
  return good;
}

/** Heads held elsewhere (published on MQTT); returns how many are good. */
function checkExternalHeads(
  heads: HeadCheck,
  publicKey: TableKeys,
  externalHeads: readonly unknown[],
): number {
  let good = 0;
  for (const [index, head] of externalHeads.entries()) {
    const problem = headProblem(head, publicKey);
    if (problem) {
      heads.findings.push({
        problem: 'forged_head',
        seq: 0,
        message: `heads file entry ${index + 1} is not a head signed by this key: ${problem}`,
      });
      continue;
    }
    good++;
    heads.check(head as SignedHead, `a head held elsewhere (entry ${index + 1})`, undefined);
  }
  return good;
}

/** The span holding the first record that differs from what the table signed, if any. */
function firstDifferingOf(heads: HeadCheck): SealReport['firstDiffering'] {
  if (heads.differing.length === 0) return undefined;
  const through = heads.differing.reduce((lowest, seq) => Math.min(lowest, seq), Infinity);
  const after = heads.matching.filter((seq) => seq < through).reduce((a, b) => Math.max(a, b), 0);
  return { after, through };
}

/** The records after the last proven one (heads excluded): what only the consumers' copies can prove. */
function unsealedAfter(
  bySeq: ReadonlyMap<number, Line>,
  provenThrough: number,
): { count: number; range: SealReport['unsealedRange'] } {
  const after = [...bySeq.values()].filter(
    (line) => line.seq > provenThrough && line.data.type !== 'head',
  );
  const range =
    after.length === 0
      ? undefined
      : {
          from: after.reduce((lowest, line) => Math.min(lowest, line.seq), Infinity),
          through: after.reduce((highest, line) => Math.max(highest, line.seq), 0),
          inputs: after.filter((line) => line.kind === 'input').length,
          events: after.filter((line) => line.kind === 'event').length,
        };
  return { count: after.length, range };
}

/**
 * Checks a journal's signed heads with the table's public key, and heads
 * held elsewhere (those published on MQTT) against the journal. Names the
 * span holding the first record that differs from what the table signed.
 */
export function verifySealedJournal(
  files: readonly JournalFileBytes[],
  publicKey: TableKeys,
  externalHeads: readonly unknown[] = [],
  options: VerifyOptions = {},
): SealReport {
  const chain = verifyJournalFiles(files, options);
  const heads = new HeadCheck(readLines(files));
  const findings = heads.findings;
  const journalHeads = checkJournalHeads(heads, publicKey);
  const externalCount = checkExternalHeads(heads, publicKey, externalHeads);
  if (journalHeads === 0 && externalCount === 0 && heads.lastSeq > 0) {
    findings.push({
      problem: 'no_heads',
      seq: 1,
      message:
        'no head signed by this key: nothing can be proven (a daemon without journal.signingKey wrote it, or every head was removed)',
    });
  }
  const firstDiffering = firstDifferingOf(heads);
  if (firstDiffering) {
    const { after, through } = firstDiffering;
    findings.unshift({
      problem: 'rewritten',
      seq: after + 1,
      message:
        after + 1 === through
          ? `the first record that differs from what the table signed is seq ${through}`
          : `the first record that differs from what the table signed is one of seq ${after + 1}..${through} (seq ${after} and before match a signed head)`,
    });
  }
  const provenThrough = firstDiffering
    ? firstDiffering.after
    : heads.matching.reduce((highest, seq) => Math.max(highest, seq), 0);
  findings.sort((a, b) => a.seq - b.seq);
  const unsealed = unsealedAfter(heads.bySeq, provenThrough);
  return {
    ok: chain.ok && findings.length === 0,
    chain,
    heads: journalHeads,
    externalHeads: externalCount,
    provenThrough,
    unsealed: unsealed.count,
    unsealedRange: unsealed.range,
    firstDiffering,
    findings,
  };
}
