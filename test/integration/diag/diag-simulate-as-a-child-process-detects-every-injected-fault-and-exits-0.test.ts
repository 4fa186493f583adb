import { describe, expect, it } from 'vitest';
import type { DiagReport } from '../../../firmware-host/diag/report.ts';
import { runCli } from '../../helpers/cli.ts';

describe('tableside diag --simulate --json', () => {
  it('runs a faulty session through the daemon, detects every fault, loses nothing, exits 0', async () => {
    const { code, stdout, stderr } = await runCli(['diag', '--simulate', '--json'], {
      env: { TABLESIDE_CONFIG: '' },
    }).done;
    const report = JSON.parse(stdout) as DiagReport;
    const failed = report.checks.filter((check) => check.status === 'fail');
    expect(failed, `${JSON.stringify(failed, null, 2)}\n${stderr}`).toEqual([]);
    expect(code).toBe(0);
    const status = (name: string) => report.checks.find((check) => check.name === name)?.status;
    for (const name of [
      'simulate: session',
      'simulate: face-up card',
      'simulate: wrong-colour card',
      'simulate: foreign card',
      'simulate: corrupted frames',
      'simulate: unplugged line',
      'simulate: nothing lost',
      'simulate: journal',
    ]) {
      expect(status(name), name).toBe('pass');
    }
    const lost = report.checks.find((check) => check.name === 'simulate: nothing lost')!;
    expect(lost.data!.published).toBe(lost.data!.dealt);
  }, 60_000);
});
