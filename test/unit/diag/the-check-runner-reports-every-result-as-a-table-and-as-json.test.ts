import { describe, expect, it } from 'vitest';
import {
  type Check,
  exitCodeOf,
  formatReportTable,
  runChecks,
} from '../../../firmware-host/diag/report.ts';

const checks: Check[] = [
  { name: 'config', run: async () => ({ status: 'pass', detail: 'loaded' }) },
  {
    name: 'device shoe',
    run: async () => [
      { name: 'device shoe: open', status: 'pass', detail: 'opened' },
      {
        name: 'device shoe: firmware',
        status: 'warn',
        detail: 'any firmware accepted',
        advice: 'list the approved hashes',
      },
    ],
  },
  { name: 'clock: NTP', run: async () => ({ status: 'skip', detail: 'no timedatectl' }) },
];

describe('the diag check runner', () => {
  it('passes with warnings and skips, and says that warnings do not fail the run', async () => {
    const report = await runChecks(checks);
    expect(report.ok).toBe(true);
    expect(exitCodeOf(report)).toBe(0);
    expect(report.summary).toEqual({ pass: 2, warn: 1, fail: 0, skip: 1 });
    expect(report.checks.map((check) => check.name)).toEqual([
      'config',
      'device shoe: open',
      'device shoe: firmware',
      'clock: NTP',
    ]);
    const table = formatReportTable(report);
    expect(table).toMatch(/^STATUS\s+CHECK\s+DETAIL/);
    expect(table).toMatch(/WARN\s+device shoe: firmware\s+any firmware accepted/);
    expect(table).toContain('→ list the approved hashes');
    expect(table).toContain('PASSED: 2 passed, 1 warnings, 0 failed, 1 skipped');
    expect(table).toContain('(warnings do not fail the run)');
  });

  it('fails when one check fails, and prints what to do under it', async () => {
    const report = await runChecks([
      ...checks,
      {
        name: 'broker: connect',
        run: async () => ({
          status: 'fail',
          detail: 'cannot connect to mqtt://10.0.0.1:1883: ECONNREFUSED',
          advice: 'check mqtt.url',
        }),
      },
    ]);
    expect(report.ok).toBe(false);
    expect(exitCodeOf(report)).toBe(1);
    const table = formatReportTable(report);
    expect(table).toMatch(/FAIL\s+broker: connect\s+cannot connect/);
    expect(table).toContain('→ check mqtt.url');
    expect(table).toContain('FAILED: 2 passed, 1 warnings, 1 failed, 1 skipped');
  });

  it('turns a check that throws into a failure instead of stopping the run', async () => {
    const seen: string[] = [];
    const report = await runChecks(
      [
        {
          name: 'journal',
          run: async () => {
            throw new Error('EIO: input/output error');
          },
        },
        ...checks,
      ],
      { onDone: (check) => seen.push(check.name) },
    );
    expect(seen).toEqual(['journal', 'config', 'device shoe', 'clock: NTP']);
    expect(report.checks[0]).toMatchObject({ name: 'journal', status: 'fail' });
    expect(report.checks[0]!.detail).toContain('EIO: input/output error');
    expect(report.checks[0]!.advice).toBeTruthy();
  });

  it('serialises the report as one JSON object with every row, its status and advice', async () => {
    const report = await runChecks(checks);
    const parsed = JSON.parse(JSON.stringify(report)) as typeof report;
    expect(parsed.ok).toBe(true);
    expect(parsed.checks[2]).toMatchObject({
      name: 'device shoe: firmware',
      status: 'warn',
      advice: 'list the approved hashes',
    });
    for (const check of parsed.checks) expect(typeof check.durationMs).toBe('number');
  });
});
