/**
 * The verdict of a conformance run and its two renderings: a table for a
 * person, JSON for a script. Pure.
 */
import type { CheckResult } from './checks.ts';

export interface DeviceSummary {
  readonly talker?: string;
  readonly model?: string;
  readonly serial?: string;
  readonly protocol?: string;
  readonly firmware?: string;
}

export interface ConformanceReport {
  readonly link: string;
  readonly device: DeviceSummary;
  readonly results: readonly CheckResult[];
  /** True when every required check passed. */
  readonly conforms: boolean;
  readonly verdict: string;
}

/** Exit codes: 0 every required check passed, 1 one failed (or could not run), 2 bad usage. */
export const EXIT_CONFORMS = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

export function summarize(
  link: string,
  device: DeviceSummary,
  results: readonly CheckResult[],
): ConformanceReport {
  const required = results.filter((result) => result.required);
  const failed = required.filter((result) => result.status !== 'pass');
  const optionalFailed = results.filter((result) => !result.required && result.status === 'fail');
  const conforms = failed.length === 0 && required.length > 0;
  const verdict = conforms
    ? `CONFORMS: all ${required.length} required checks passed` +
      (optionalFailed.length > 0
        ? `; optional failed: ${optionalFailed.map((result) => result.id).join(', ')}`
        : '')
    : `DOES NOT CONFORM: ${failed.length} of ${required.length} required checks did not pass: ${failed.map((result) => result.id).join(', ')}`;
  return { link, device, results, conforms, verdict };
}

export function exitCodeOf(report: ConformanceReport): number {
  return report.conforms ? EXIT_CONFORMS : EXIT_FAILED;
}

const STATUS_TEXT = { pass: 'PASS', fail: 'FAIL', skip: 'SKIP' } as const;

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

/** The pass/fail table: result, check, required or optional, section, what the device did. */
export function renderTable(report: ConformanceReport): string {
  const device = report.device;
  const head = device.model
    ? `${device.talker ?? '??'} ${device.model} ${device.serial ?? ''} firmware ${device.firmware ?? '?'} protocol ${device.protocol ?? '?'}`
    : 'no HELLO from the device';
  const rows = report.results.map((result) => [
    STATUS_TEXT[result.status],
    result.id,
    result.required ? 'required' : 'optional',
    result.section,
    result.detail,
  ]);
  const widths = [4, 0, 8, 0].map((minimum, column) =>
    Math.max(minimum, ...rows.map((row) => row[column]!.length)),
  );
  const lines = rows.map((row) =>
    [...widths.map((width, column) => pad(row[column]!, width)), row[4]!].join('  '),
  );
  return [`tableside conformance: ${report.link}: ${head}`, ...lines, report.verdict, ''].join(
    '\n',
  );
}

export function renderJson(report: ConformanceReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
