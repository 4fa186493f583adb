/**
 * Issue 25, item 12: raw JSON log lines appeared above the terminal view of
 * `tableside run` and above the `diag` table. With the live view on (a
 * terminal), the logs go to `tableside.log` beside the journal, named in the
 * view's footer; `diag` logs only errors (its findings are in its report).
 *
 * `tableside run` is started on a real pty (`script`), so its stdout is a
 * terminal as a person's would be; the default bench logs a warning at start
 * (MQTT requests unsigned), which used to land on the screen.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliEntryArgs } from '../helpers/built-cli.ts';
import { freePort } from '../helpers/ports.ts';
import { fileMissing } from '../helpers/tools.ts';
import { REPO_ROOT, runCli, tempDir, writeConfig } from './helpers/daemon.ts';
import { until } from './helpers/environment.ts';

const SCRIPT = '/usr/bin/script';
const JSON_LOG_LINE = /^\s*\{"level":/m;
const TSX_LOADER = join(REPO_ROOT, 'node_modules/tsx/dist/loader.mjs');

const missing = fileMissing(
  SCRIPT,
  `${SCRIPT} is not installed (util-linux): the terminal test needs a pty to run in`,
);

describe.skipIf(missing !== undefined)('a person at the terminal sees no JSON log lines', () => {
  const groups: number[] = [];
  afterEach(() => {
    for (const pid of groups.splice(0)) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  });

  it('tableside run on a terminal draws its view and writes the logs to tableside.log', async () => {
    const dir = tempDir('log-file');
    const journal = join(dir, 'state/journal');
    const config = writeConfig(dir, {
      mqtt: { port: await freePort() },
      journal: { dir: journal },
      simulation: { cardIntervalMs: 50, roundIntervalMs: 50, seed: 5 },
    });
    const command = [process.execPath, ...cliEntryArgs(TSX_LOADER), 'run']
      .concat(['--config', config])
      .join(' ');
    const env: Record<string, string | undefined> = { ...process.env, TERM: 'xterm' };
    delete env.TABLESIDE_LOG_LEVEL;
    // script gives the command a pty for stdin, stdout and stderr, and copies what it shows.
    const child = spawn(SCRIPT, ['-qfec', command, '/dev/null'], {
      cwd: REPO_ROOT,
      env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    groups.push(child.pid!);
    let screen = '';
    child.stdout.on('data', (chunk: Buffer) => {
      screen += chunk.toString();
    });
    const logFile = join(dir, 'state/tableside.log');
    await until(
      () =>
        screen.includes('results') &&
        existsSync(logFile) &&
        /"level":40/.test(readFileSync(logFile, 'utf8')),
      'the view drawn and a warning in the log file',
      60_000,
      () => screen.slice(-3000),
    );
    await until(
      () => /round \d+:/.test(screen),
      'a result on the view',
      60_000,
      () => screen.slice(-3000),
    );
    expect(screen).not.toMatch(JSON_LOG_LINE);
    expect(screen).toContain(`logs: ${logFile}`);
    expect(readFileSync(logFile, 'utf8')).toMatch(/requests\.supervisors names no one/);
  }, 180_000);

  it('tableside diag prints its table with no JSON log line', async () => {
    const dir = tempDir('diag-logs');
    const config = writeConfig(dir, {
      mqtt: { port: await freePort() },
      journal: { dir: join(dir, 'journal') },
    });
    const run = await runCli(['diag', '--simulate', '--config', config], {
      env: { TABLESIDE_LOG_LEVEL: undefined },
    });
    expect(run.stdout).toMatch(/^STATUS\s+CHECK/m);
    expect(run.stderr).not.toMatch(JSON_LOG_LINE);
    expect(run.stdout).not.toMatch(JSON_LOG_LINE);
  }, 180_000);
});
