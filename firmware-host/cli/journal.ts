import { type Command, InvalidArgumentError } from 'commander';
import { isJournalError } from '../journal/errors.ts';
import type { JournalRecord } from '../journal/record.ts';
import type { VerifyReport } from '../journal/verify.ts';

export function register(program: Command): void {
  const journal = program.command('journal').description('verify or read a table journal');
  registerVerify(journal);
  registerExport(journal);
  registerVerifyBundle(journal);
  registerShow(journal);
  registerRepair(journal);
}

function registerVerify(journal: Command): void {
  journal
    .command('verify')
    .description('check the hash chain; exit 0 when intact, 1 with every finding otherwise')
    .argument('<dir>', 'journal folder (journal.dir of the config)')
    .option('--json', 'print the report as JSON')
    .option(
      '--expect-last-seq <seq>',
      'the journal must reach this seq (e.g. the last seq a consumer saw)',
      parseSeq,
    )
    .option(
      '--key <pubkey>',
      "the table's public key (ed25519:… or a PEM file): check the signed heads; repeat after a key rotation",
      collect,
    )
    .option(
      '--heads <file>',
      'heads held elsewhere (JSON lines or array, as published on journal/head)',
    )
    .option(
      '--events <file>',
      "a consumer's capture of the published events (mosquitto_sub -v -t '<base>/<table>/events/#'): each must be in the journal as published",
    )
    .action(async (dir: string, options: VerifyOptions) => {
      if (options.key !== undefined || options.heads !== undefined) {
        const { verifySigned } = await import('./journal-signed.ts');
        process.exitCode = await verifySigned(dir, options);
        return;
      }
      await verifyChain(dir, options);
    });
}

/** `journal verify` without a key: the hash chain, and a consumer's events when given. */
async function verifyChain(dir: string, options: VerifyOptions): Promise<void> {
  const { readJournalFiles, readSetAsideNames, verifyJournalFiles } = await import(
    '../journal/verify.ts'
  );
  let report: VerifyReport;
  let files: Awaited<ReturnType<typeof readJournalFiles>>;
  try {
    files = await readJournalFiles(dir);
    report = verifyJournalFiles(files, {
      ...(options.expectLastSeq === undefined ? {} : { expectLastSeq: options.expectLastSeq }),
      setAside: await readSetAsideNames(dir),
    });
  } catch (error) {
    process.stderr.write(`tableside journal verify: cannot read ${dir}: ${String(error)}\n`);
    process.exitCode = 1;
    return;
  }
  if (report.files === 0) {
    process.stderr.write(
      `tableside journal verify: no journal files (journal-NNNNNN.jsonl) in ${dir}\n`,
    );
    process.exitCode = 1;
    return;
  }
  let events: import('./journal-events.ts').EventsCheck | undefined;
  if (options.events !== undefined) {
    const { checkEventsFile } = await import('./journal-events.ts');
    const checked = await checkEventsFile(options.events, files);
    if (typeof checked === 'string') {
      process.stderr.write(`tableside journal verify: ${checked}\n`);
      process.exitCode = 1;
      return;
    }
    events = checked;
  }
  const ok = report.ok && (events?.report.ok ?? true);
  if (options.json) {
    const whole = events ? { ...report, ok, events: events.report } : report;
    process.stdout.write(`${JSON.stringify(whole, null, 2)}\n`);
  } else {
    printVerifyReport(report, ok, events?.lines);
  }
  if (!ok) process.exitCode = 1;
}

function printVerifyReport(
  report: VerifyReport,
  ok: boolean,
  eventLines?: readonly string[],
): void {
  const range =
    report.firstSeq === undefined ? 'no records' : `seq ${report.firstSeq}..${report.lastSeq}`;
  process.stdout.write(
    `${ok ? 'OK' : 'BROKEN'}: ${report.files} file(s), ${report.records} record(s), ${range}\n`,
  );
  for (const finding of report.findings) {
    const seq = finding.seq === undefined ? '' : ` seq ${finding.seq}`;
    process.stdout.write(
      `${finding.problem.padEnd(10)} ${finding.file}:${finding.line} (byte ${finding.offset})${seq}: ${finding.message}\n`,
    );
  }
  if (eventLines) process.stdout.write(`${eventLines.join('\n')}\n`);
}

function registerExport(journal: Command): void {
  journal
    .command('export')
    .description(
      'write a signed bundle of a period (001 § 11), verifiable offline with the public key',
    )
    .argument('<dir>', 'journal folder')
    .requiredOption('--from <when>', 'first seq, or an ISO date-time (2026-11-25T10:00:00Z)')
    .requiredOption('--to <when>', 'last seq, or an ISO date-time')
    .option('--out <file>', 'bundle file (default: stdout)')
    .action(async (dir: string, options: { from: string; to: string; out?: string }) => {
      const { exportPeriod } = await import('./journal-signed.ts');
      process.exitCode = await exportPeriod(dir, options);
    });
}

function registerVerifyBundle(journal: Command): void {
  journal
    .command('verify-bundle')
    .description("check a bundle from `journal export` with the table's public key alone")
    .argument('<file>', 'bundle file')
    .requiredOption(
      '--key <pubkey>',
      "the table's public key (ed25519:… or a PEM file); repeat after a key rotation",
      collect,
    )
    .option('--json', 'print the report as JSON')
    .action(async (file: string, options: { key: string[]; json?: boolean }) => {
      const { verifyBundleFile } = await import('./journal-signed.ts');
      process.exitCode = await verifyBundleFile(file, options);
    });
}

function registerRepair(journal: Command): void {
  journal
    .command('repair')
    .description(
      'continue a journal whose newest file the daemon set aside unreadable: a new file takes its readable lines and a record of what was set aside',
    )
    .argument('<dir>', 'journal folder (journal.dir of the config)')
    .action(async (dir: string) => {
      const { repairJournal } = await import('../journal/repair.ts');
      try {
        const done = await repairJournal(dir, Date.now);
        const skipped = done.skipped
          ? `; seq ${done.skipped.from}..${done.skipped.to}, published from it, are skipped`
          : '';
        process.stdout.write(
          `repaired: ${done.file} continues the journal at seq ${done.seq} after ${done.keptLines} readable line(s) of ${done.setAside} (kept in the folder, unchanged)${skipped}; \`tableside journal verify\` names the repair, and the table may start\n`,
        );
      } catch (error) {
        process.stderr.write(`tableside journal repair: ${(error as Error).message}\n`);
        process.exitCode = 1;
      }
    });
}

function registerShow(journal: Command): void {
  journal
    .command('show')
    .description('print journal records, one per line')
    .argument('<dir>', 'journal folder')
    .option('--from <seq>', 'first seq to show', parseSeq, 1)
    .option('--kind <kind>', 'only input, event or meta records')
    .option('--json', 'print the raw JSON records (one per line)')
    .action(async (dir: string, options: { from: number; kind?: string; json?: boolean }) => {
      const { readJournalRecords } = await import('../journal/journal.ts');
      try {
        for await (const record of readJournalRecords(dir, options.from)) {
          if (options.kind && record.kind !== options.kind) continue;
          process.stdout.write(`${options.json ? JSON.stringify(record) : describe(record)}\n`);
        }
      } catch (error) {
        const reason = isJournalError(error) ? error.message : String(error);
        process.stderr.write(`tableside journal show: ${reason}\n`);
        process.exitCode = 1;
      }
    });
}

interface VerifyOptions {
  json?: boolean;
  expectLastSeq?: number;
  key?: string[];
  heads?: string;
  events?: string;
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function parseSeq(text: string): number {
  const seq = Number(text);
  if (!Number.isSafeInteger(seq) || seq < 0) {
    throw new InvalidArgumentError(`expected a sequence number, got ${text}`);
  }
  return seq;
}

function describe(record: JournalRecord): string {
  const { t, type, ...rest } = record.data as Record<string, unknown>;
  if (record.kind === 'meta' && type === 'checkpoint') {
    // The session state holds the undealt cards' counts (and any shuffler
    // order): summarised here, whole with --json only.
    const { session, dedupe: _dedupe, ...summary } = rest;
    const bytes = JSON.stringify(session ?? null).length;
    return `${String(record.seq).padStart(7)}  ${new Date(record.ts).toISOString()}  ${record.kind.padEnd(5)}  checkpoint  ${Object.entries(
      summary,
    )
      .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
      .join(' ')} session=<${bytes} bytes; --json to see>`;
  }
  const what = String(t ?? type ?? '?');
  const detail = Object.entries(rest)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ');
  return `${String(record.seq).padStart(7)}  ${new Date(record.ts).toISOString()}  ${record.kind.padEnd(5)}  ${what}${detail ? `  ${detail}` : ''}`;
}
