/**
 * The signed side of `tableside journal`: verify with the table's public
 * key (and heads held elsewhere), export a period as a bundle, verify a
 * bundle. Exit codes: 0 proven, 1 a finding or an error.
 */

import type { KeyObject } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { exportBundle, type PeriodBound, verifyBundle } from '../journal/bundle.ts';
import { verifySealedJournal } from '../journal/seal.ts';
import { readJournalFiles, readSetAsideNames } from '../journal/verify.ts';
import { fingerprint, readPublicKey } from '../trust/keys.ts';
import { checkEventsFile, type EventsCheck } from './journal-events.ts';

function fail(command: string, message: string): number {
  process.stderr.write(`tableside journal ${command}: ${message}\n`);
  return 1;
}

/** The keys given with --key (several after a key rotation), or what is wrong with one. */
async function publicKeysOf(texts: readonly string[] | undefined): Promise<KeyObject[] | string> {
  if (!texts || texts.length === 0) return "expected --key with the table's public key";
  const keys: KeyObject[] = [];
  for (const text of texts) {
    try {
      keys.push(await readPublicKey(text));
    } catch (error) {
      return (error as Error).message;
    }
  }
  return keys;
}

/** Heads as a JSON array, or one JSON object per line. */
export function parseHeads(text: string): unknown[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  if (trimmed.startsWith('[')) return JSON.parse(trimmed) as unknown[];
  return trimmed
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, index) => {
      try {
        return JSON.parse(line) as unknown;
      } catch {
        throw new Error(`line ${index + 1} is not JSON`);
      }
    });
}

export async function verifySigned(
  dir: string,
  options: {
    key?: string[];
    heads?: string;
    events?: string;
    expectLastSeq?: number;
    json?: boolean;
  },
): Promise<number> {
  const key = await publicKeysOf(options.key);
  if (typeof key === 'string') return fail('verify', key);
  let heads: unknown[] = [];
  if (options.heads !== undefined) {
    try {
      heads = parseHeads(await readFile(options.heads, 'utf8'));
    } catch (error) {
      return fail('verify', `--heads ${options.heads}: ${(error as Error).message}`);
    }
  }
  let files: Awaited<ReturnType<typeof readJournalFiles>>;
  try {
    files = await readJournalFiles(dir);
  } catch (error) {
    return fail('verify', `cannot read ${dir}: ${String(error)}`);
  }
  if (files.length === 0)
    return fail('verify', `no journal files (journal-NNNNNN.jsonl) in ${dir}`);
  const report = verifySealedJournal(files, key, heads, {
    ...(options.expectLastSeq === undefined ? {} : { expectLastSeq: options.expectLastSeq }),
    setAside: await readSetAsideNames(dir),
  });
  let events: EventsCheck | undefined;
  if (options.events !== undefined) {
    const checked = await checkEventsFile(options.events, files);
    if (typeof checked === 'string') return fail('verify', checked);
    events = checked;
  }
  const ok = report.ok && (events?.report.ok ?? true);
  if (options.json) {
    const whole = events ? { ...report, ok, events: events.report } : report;
    process.stdout.write(`${JSON.stringify(whole, null, 2)}\n`);
    return ok ? 0 : 1;
  }
  const { chain } = report;
  const range =
    chain.firstSeq === undefined ? 'no records' : `seq ${chain.firstSeq}..${chain.lastSeq}`;
  const tail = report.unsealedRange;
  const out: string[] = [
    `${ok ? 'OK' : 'BROKEN'}: ${chain.files} file(s), ${chain.records} record(s), ${range}; key ${key.map(fingerprint).join(', ')}`,
    `signed heads: ${report.heads} in the journal, ${report.externalHeads} held elsewhere; proven unchanged through seq ${report.provenThrough}`,
    tail
      ? `not proven: seq ${tail.from}..${tail.through} after the last signed head (${report.unsealed} record(s): ${tail.inputs} input(s), ${tail.events} event(s)): left by a crash, or changed; ${events ? 'their published events are checked below' : 'check them with --events (a consumer capture of the published events)'}`
      : `nothing after the last signed head; records cut after it show only with --heads, --events or --expect-last-seq`,
  ];
  for (const finding of chain.findings) {
    const seq = finding.seq === undefined ? '' : ` seq ${finding.seq}`;
    out.push(
      `${finding.problem.padEnd(19)} ${finding.file}:${finding.line} (byte ${finding.offset})${seq}: ${finding.message}`,
    );
  }
  for (const finding of report.findings) {
    out.push(`${finding.problem.padEnd(19)} seq ${finding.seq}: ${finding.message}`);
  }
  if (events) out.push(...events.lines);
  process.stdout.write(`${out.join('\n')}\n`);
  return ok ? 0 : 1;
}

/** A seq (digits) or an ISO date-time. */
export function parseBound(text: string): PeriodBound | undefined {
  if (/^\d+$/.test(text)) return { seq: Number(text) };
  const ts = Date.parse(text);
  return Number.isNaN(ts) ? undefined : { ts };
}

export async function exportPeriod(
  dir: string,
  options: { from: string; to: string; out?: string },
): Promise<number> {
  const from = parseBound(options.from);
  const to = parseBound(options.to);
  if (!from)
    return fail('export', `--from: expected a seq or an ISO date-time, got ${options.from}`);
  if (!to) return fail('export', `--to: expected a seq or an ISO date-time, got ${options.to}`);
  let files: Awaited<ReturnType<typeof readJournalFiles>>;
  try {
    files = await readJournalFiles(dir);
  } catch (error) {
    return fail('export', `cannot read ${dir}: ${String(error)}`);
  }
  const result = exportBundle(files, from, to);
  if (!result.ok) return fail('export', result.error);
  if (options.out === undefined) {
    process.stdout.write(result.text);
  } else {
    try {
      await writeFile(options.out, result.text, { flag: 'wx' });
    } catch (error) {
      return fail('export', `cannot write ${options.out}: ${String(error)}`);
    }
    process.stderr.write(
      `bundle: ${options.out}: seq ${result.header.firstSeq}..${result.header.lastSeq} (closed by a signed head)\n`,
    );
  }
  return 0;
}

export async function verifyBundleFile(
  file: string,
  options: { key: string[]; json?: boolean },
): Promise<number> {
  const key = await publicKeysOf(options.key);
  if (typeof key === 'string') return fail('verify-bundle', key);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    return fail('verify-bundle', `cannot read ${file}: ${String(error)}`);
  }
  const report = verifyBundle(text, key);
  if (options.json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    process.stdout.write(
      report.ok
        ? `OK: table ${report.table ?? '?'}, seq ${report.firstSeq}..${report.provenThrough} proven by a head signed with key ${key.map(fingerprint).join(', ')}\n`
        : `BROKEN: ${report.problems.join('\n        ')}\n`,
    );
  }
  return report.ok ? 0 : 1;
}
