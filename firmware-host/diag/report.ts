/**
 * The diagnostic check runner and its two outputs: a pass/fail table for a
 * technician at a terminal, one JSON object for machines.
 *
 * A check is a name and an async function; it returns one or more results
 * (a device check reports open, HELLO, firmware, ping and line errors as
 * separate rows). A check that throws is a failure with the error as its
 * detail, never a crash of the whole run. `warn` counts as passed: the exit
 * status is 0 unless some result is `fail`.
 */
import { performance } from 'node:perf_hooks';

export type CheckStatus = 'pass' | 'warn' | 'fail' | 'skip';

export interface CheckOutcome {
  /** The row's name; defaults to the check's name. */
  name?: string;
  status: CheckStatus;
  /** What was found, in one line. */
  detail: string;
  /** For `fail` and `warn`: what to do about it. */
  advice?: string;
  /** Figures for machines (round trip times, counters, free bytes). */
  data?: Record<string, unknown>;
}

export interface CheckResult {
  name: string;
  status: CheckStatus;
  detail: string;
  advice?: string;
  data?: Record<string, unknown>;
  durationMs: number;
}

export interface Check {
  name: string;
  run(): Promise<CheckOutcome | readonly CheckOutcome[]>;
}

export interface RunnerHooks {
  /** A check is starting (`index` of `total`). */
  onStart?(check: Check, index: number, total: number): void;
  /** A check finished with these rows. */
  onDone?(check: Check, results: readonly CheckResult[], index: number, total: number): void;
}

export interface DiagReport {
  ok: boolean;
  /** How many rows of each status. */
  summary: Record<CheckStatus, number>;
  checks: CheckResult[];
}

/** Runs the checks one after the other (they share devices and ports, so never in parallel). */
export async function runChecks(
  checks: readonly Check[],
  hooks: RunnerHooks = {},
): Promise<DiagReport> {
  const results: CheckResult[] = [];
  for (const [index, check] of checks.entries()) {
    hooks.onStart?.(check, index, checks.length);
    const started = performance.now();
    let outcomes: readonly CheckOutcome[];
    try {
      const outcome = await check.run();
      outcomes = Array.isArray(outcome) ? outcome : [outcome as CheckOutcome];
    } catch (error) {
      outcomes = [
        {
          status: 'fail',
          detail: `the check itself failed: ${error instanceof Error ? error.message : String(error)}`,
          advice:
            'this is a bug in tableside diag or an unexpected system state; report it with this output',
        },
      ];
    }
    const durationMs = Math.round(performance.now() - started);
    const rows = outcomes.map((outcome) => toResult(check.name, outcome, durationMs));
    results.push(...rows);
    hooks.onDone?.(check, rows, index, checks.length);
  }
  return reportOf(results);
}

function toResult(checkName: string, outcome: CheckOutcome, durationMs: number): CheckResult {
  const result: CheckResult = {
    name: outcome.name ?? checkName,
    status: outcome.status,
    detail: outcome.detail,
    durationMs,
  };
  if (outcome.advice !== undefined) result.advice = outcome.advice;
  if (outcome.data !== undefined) result.data = outcome.data;
  return result;
}

export function reportOf(results: readonly CheckResult[]): DiagReport {
  const summary: Record<CheckStatus, number> = { pass: 0, warn: 0, fail: 0, skip: 0 };
  for (const result of results) summary[result.status]++;
  return { ok: summary.fail === 0, summary, checks: [...results] };
}

/** 0 when nothing failed (warnings and skips pass), 1 otherwise. */
export function exitCodeOf(report: DiagReport): number {
  return report.ok ? 0 : 1;
}

const LABEL: Record<CheckStatus, string> = {
  pass: 'PASS',
  warn: 'WARN',
  fail: 'FAIL',
  skip: 'SKIP',
};

export interface TableOptions {
  /** Colour the status column (a TTY). */
  colour?: boolean;
  /** Wrap details to this width; default 100. */
  width?: number;
}

const COLOUR: Record<CheckStatus, [string, string]> = {
  pass: ['\u001b[32m', '\u001b[39m'],
  warn: ['\u001b[33m', '\u001b[39m'],
  fail: ['\u001b[31m', '\u001b[39m'],
  skip: ['\u001b[2m', '\u001b[22m'],
};

/**
 * The report as a plain-text table: status, check, detail; each failure or
 * warning followed by an indented `→ what to do` line; then a summary line.
 */
export function formatReportTable(report: DiagReport, options: TableOptions = {}): string {
  const nameWidth = Math.min(36, Math.max(5, ...report.checks.map((result) => result.name.length)));
  const width = Math.max(60, options.width ?? 100);
  const detailWidth = Math.max(20, width - nameWidth - 9);
  const lines: string[] = [];
  lines.push(`${'STATUS'.padEnd(6)}  ${'CHECK'.padEnd(nameWidth)}  DETAIL`);
  for (const result of report.checks) {
    const label = options.colour
      ? `${COLOUR[result.status][0]}${LABEL[result.status]}${COLOUR[result.status][1]}`
      : LABEL[result.status];
    const detail = wrap(result.detail, detailWidth);
    const indent = ' '.repeat(6 + 2 + nameWidth + 2);
    lines.push(
      `${label}${' '.repeat(6 - LABEL[result.status].length)}  ${truncate(result.name, nameWidth).padEnd(nameWidth)}  ${detail[0] ?? ''}`,
    );
    for (const more of detail.slice(1)) lines.push(`${indent}${more}`);
    if (result.advice && (result.status === 'fail' || result.status === 'warn')) {
      const advice = wrap(`→ ${result.advice}`, detailWidth);
      for (const line of advice) lines.push(`${indent}${line}`);
    }
  }
  const { summary } = report;
  lines.push('');
  lines.push(
    `${report.ok ? 'PASSED' : 'FAILED'}: ${summary.pass} passed, ${summary.warn} warnings, ${summary.fail} failed, ${summary.skip} skipped` +
      (report.ok && summary.warn > 0 ? ' (warnings do not fail the run)' : ''),
  );
  return `${lines.join('\n')}\n`;
}

function truncate(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}

function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line && line.length + 1 + word.length > width) {
        out.push(line);
        line = word;
      } else {
        line = line ? `${line} ${word}` : word;
      }
    }
    out.push(line);
  }
  return out;
}
