/**
 * Issue 25, item 8: `npx tableside` said "not found" after `npm ci` (even
 * after `npm run build`): the package's "bin" pointed into dist/, absent on
 * a fresh clone. It now points at firmware-host/bin/tableside.js, which runs
 * dist/ when built and the TypeScript through tsx otherwise.
 *
 * The README's first CLI instruction is taken from the README itself and run
 * for real with npx, in the repository, with an npm cache of its own (no
 * earlier npx run helps it) and offline (nothing is fetched).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp.ts';

/** The lines of the README's shell blocks, comments cut, in order. */
function readmeShellLines(): string[] {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const lines: string[] = [];
  for (const block of readme.matchAll(/```sh\n([\s\S]*?)```/g)) {
    for (const line of block[1]!.split('\n')) {
      const command = line.replace(/\s+#.*$/, '').trim();
      if (command) lines.push(command);
    }
  }
  return lines;
}

describe('npx tableside works right after npm ci, as the README says', () => {
  it("runs the README's first CLI instruction and prints the CLI's help", () => {
    const first = readmeShellLines().find((line) => /(^|\s)tableside\s/.test(line));
    expect(first).toBe('npx tableside --help');
    const [npx, ...args] = first!.split(/\s+/);
    const run = spawnSync(npx!, args, {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      env: {
        ...process.env,
        npm_config_cache: tempDir('tableside-npx-cache-'),
        npm_config_offline: 'true',
        npm_config_update_notifier: 'false',
      },
      timeout: 120_000,
    });
    expect(run.stderr).not.toMatch(/not found/);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^Usage: tableside \[options\] \[command\]/);
    for (const command of ['run', 'config', 'deck', 'journal']) {
      expect(run.stdout).toMatch(new RegExp(`\\n  ${command}\\b`));
    }
  });
});
