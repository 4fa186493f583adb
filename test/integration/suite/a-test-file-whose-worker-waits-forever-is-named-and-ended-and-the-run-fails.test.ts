/**
 * A worker that waits forever on something that never comes (a lost message
 * between it and the run's main process, a module that never loads) used to
 * hang the whole run with no name: no timeout of the file's own fires before
 * its first test. The stuck-file watchdog names the file and what it was
 * doing, has its worker write what it waits for, and ends it, so the run
 * ends, failed, and the other files still pass.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/cli.ts';
import { tempDir } from '../../helpers/temp.ts';

interface Ended {
  code: number | null;
  output: string;
}

function runFixtureSuite(tmp: string): Promise<Ended> {
  return new Promise((resolve) => {
    execFile(
      join(REPO_ROOT, 'node_modules/.bin/vitest'),
      ['run', '--config', 'test/fixtures/stuck-file/vitest.config.ts'],
      {
        cwd: REPO_ROOT,
        env: {
          ...process.env,
          TABLESIDE_STUCK_MARGIN_S: '5',
          TMPDIR: tmp,
          CI: '1',
          NO_COLOR: '1',
          FORCE_COLOR: '0',
        },
        // A hang guard, not a measure: the run ends within seconds when the watchdog works.
        timeout: 80_000,
        killSignal: 'SIGKILL',
      },
      (error, stdout, stderr) => {
        const code = error ? ((error as { code?: number }).code ?? null) : 0;
        resolve({ code: typeof code === 'number' ? code : null, output: `${stdout}\n${stderr}` });
      },
    );
  });
}

it('names the stuck file and what it was doing, ends its worker, and the run fails while the other file passes', async () => {
  const tmp = tempDir('stuck-file-');
  const { code, output } = await runFixtureSuite(tmp);
  expect(output).toMatch(
    /stuck-file watchdog: a test file is stuck: an-import-that-never-ends\.fixture\.ts: silent for \d+ s while importing its modules \(no test started\)/,
  );
  // The worker's own account: which file, and its last messages with the main process.
  expect(output).toMatch(/--- worker \d+, running .*an-import-that-never-ends\.fixture\.ts ---/);
  expect(output).toMatch(/last IPC messages \(\d+\):/);
  // What each of its threads waits in, from /proc (a worker blocked in a synchronous call cannot dump).
  expect(output).toMatch(
    /worker \d+'s threads \(name, state, waits in, system call\):\n {4}\d+ node S /,
  );
  // Ended, the worker fails the run through vitest's own report; the other file still runs.
  expect(output).toMatch(/Worker exited unexpectedly/);
  expect(output).toMatch(/✓ a-file-that-passes\.fixture\.ts/);
  expect(code).toBe(1);
}, 90_000);
