import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DiagReport } from '../../../firmware-host/diag/report.ts';
import { runCli } from '../../helpers/cli.ts';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tableside-diag-bad-url-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const diag = (args: string[]) => runCli(['diag', ...args]).done;

describe('tableside diag with a device that cannot be opened', () => {
  it('fails the device check, says what to do, and exits 1', async () => {
    const config = join(dir, 'bad-device.yaml');
    await writeFile(
      config,
      [
        'table: diag-test',
        'devices:',
        '  shoe:',
        '    kind: shoe',
        '    transport: /dev/tableside-no-such-shoe',
        '  shuffler:',
        '    kind: shuffler',
        '    transport: tcp://127.0.0.1:1',
        'mqtt:',
        '  url: mqtt://127.0.0.1:1',
        `journal:`,
        `  dir: ${join(dir, 'journal')}`,
        '',
      ].join('\n'),
    );
    const { code, stdout } = await diag(['--config', config, '--json']);
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as DiagReport;
    expect(report.ok).toBe(false);
    const shoe = report.checks.find((check) => check.name === 'device shoe: open')!;
    expect(shoe.status).toBe('fail');
    expect(shoe.detail).toContain('/dev/tableside-no-such-shoe');
    expect(shoe.advice).toMatch(/cable|udev|tableside devices/);
    const shuffler = report.checks.find((check) => check.name === 'device shuffler: open')!;
    expect(shuffler.status).toBe('fail');
    expect(shuffler.advice).toMatch(/nothing listens/);
    const broker = report.checks.find((check) => check.name === 'broker: connect')!;
    expect(broker.status).toBe('fail');
    expect(broker.advice).toMatch(/mqtt\.url/);
    // The checks that do not depend on the broken parts still ran.
    expect(report.checks.find((check) => check.name === 'journal: writable')?.status).toBe('pass');
  });

  it('prints the same as a table, with the advice under the failure', async () => {
    const config = join(dir, 'bad-device.yaml');
    const { code, stdout } = await diag(['--config', config]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/FAIL\s+device shoe: open\s+cannot open \/dev\/tableside-no-such-shoe/);
    expect(stdout).toContain('→ nothing at /dev/tableside-no-such-shoe');
    expect(stdout).toMatch(/^FAILED: /m);
  });

  it('fails the config check, and skips the rest, for a transport URL that cannot be parsed', async () => {
    const config = join(dir, 'unparsable.yaml');
    await writeFile(config, 'devices:\n  shoe:\n    kind: shoe\n    transport: ftp://shoe\n');
    const { code, stdout } = await diag(['--config', config, '--json']);
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as DiagReport;
    expect(report.checks[0]).toMatchObject({ name: 'config', status: 'fail' });
    expect(report.checks[0]!.detail).toContain('devices.shoe.transport');
    expect(report.checks[0]!.advice).toContain('tableside config check');
    expect(report.checks.slice(1).every((check) => check.status === 'skip')).toBe(true);
  });
});
