/**
 * Issue 25, item 9: the README's external-simulator recipe ("No hardware?
 * Link two ptys") flooded the table with alarms: `unexpected_card` on every
 * card (nothing told the shoe-only table of a new shoe), then
 * `wrong_card_count` (nothing started the coups). The recipe now names a
 * config (`session.autoRound: true`) and a scenario that closes the shoe's
 * lid after loading it.
 *
 * The recipe (once in the README, now in docs/technician/simulator-bench.md,
 * which the README links) is taken from that page and run as written, with two
 * changes for a shared machine: /tmp/tableside becomes a temporary folder
 * (in the lines and in a copy of the config) and the embedded broker's port
 * a free one; the journal goes to a temporary folder (TABLESIDE_JOURNAL_DIR).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../firmware-host/table/events.ts';
import { REPO_ROOT } from '../helpers/cli.ts';
import { groupGone, journalEvents } from '../helpers/doc-commands.ts';
import { freePort, waitForPort } from '../helpers/ports.ts';
import { tempDir } from '../helpers/temp.ts';
import { skipReason, socatMissing, until } from './helpers/environment.ts';

/** The shell lines of the simulator bench page's block after `heading` (comments cut). */
function recipe(heading: string): string[] {
  const readme = readFileSync(join(REPO_ROOT, 'docs/technician/simulator-bench.md'), 'utf8');
  const at = readme.indexOf(heading);
  expect(at, `docs/technician/simulator-bench.md has "${heading}"`).toBeGreaterThanOrEqual(0);
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(at))![1]!;
  return block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter(Boolean);
}

const missing = skipReason(socatMissing());

describe.skipIf(missing !== undefined)("the README's pty recipe", () => {
  const groups: ChildProcess[] = [];
  afterEach(async () => {
    // Each line ran in its own process group (npx, npm, sh and node): ended as a group,
    // and waited for until its last process is gone (the daemon closes its journal after
    // npx has exited), so the temp folder is removed from under no one.
    for (const child of groups.splice(0).reverse()) {
      if (groupGone(child.pid!)) continue;
      process.kill(-child.pid!, 'SIGTERM');
      await until(() => groupGone(child.pid!), `the process group of ${child.spawnfile}`, 30_000);
    }
  });

  it('deals a shoe through the daemon with no alarm but the bench notice of its unpaired shoe', async () => {
    const lines = recipe('No hardware? Link two ptys:');
    const dir = tempDir('tableside-pty-recipe-');
    const port = await freePort();
    const here = (line: string) => line.replaceAll('/tmp/tableside', join(dir, 'tableside'));
    const env = {
      ...process.env,
      npm_config_cache: join(dir, 'npm-cache'),
      npm_config_offline: 'true',
      npm_config_update_notifier: 'false',
      TABLESIDE_JOURNAL_DIR: join(dir, 'journal'),
      TABLESIDE_LOG_LEVEL: 'warn',
    };
    const output: string[] = [];
    const detail = () => output.join('').slice(-4000);

    for (const raw of lines) {
      let line = here(raw);
      const config = /--config (\S+)/.exec(line)?.[1];
      if (config) {
        const copy = join(dir, 'config.yaml');
        const text = here(readFileSync(join(REPO_ROOT, config), 'utf8'));
        expect(text).toMatch(/port: 1883\b/);
        writeFileSync(copy, text.replace(/port: 1883\b/, `port: ${port}`));
        line = line.replace(config, copy);
      }
      if (!line.endsWith('&') && !line.includes(' sim ')) {
        const run = spawnSync('sh', ['-c', line], { cwd: REPO_ROOT, env, encoding: 'utf8' });
        expect(run.status, `${line}\n${run.stderr}`).toBe(0);
        continue;
      }
      const child = spawn('sh', ['-c', `exec ${line.replace(/&$/, '').trim()}`], {
        cwd: REPO_ROOT,
        env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      groups.push(child);
      child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
      child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
      if (line.startsWith('socat')) {
        await until(
          () =>
            existsSync(join(dir, 'tableside/host')) && existsSync(join(dir, 'tableside/device')),
          'both ptys',
          20_000,
          detail,
        );
      } else if (line.includes(' run ')) {
        await waitForPort(port, 120_000);
      }
    }

    const journal = join(dir, 'journal');
    await until(
      async () =>
        (await journalEvents(journal)).filter((event) => event.type === 'result').length >= 2,
      'two coups settled',
      180_000,
      detail,
    );
    const events = await journalEvents(journal);
    // A bench of an unpaired simulator: its notice at each connect, nothing else.
    const alarms = events.filter(
      (event): event is Extract<DomainEvent, { type: 'alarm' }> => event.type === 'alarm',
    );
    expect(alarms.filter((alarm) => alarm.kind !== 'device_unpaired')).toEqual([]);
    expect(alarms.every((alarm) => alarm.dealt === true)).toBe(true);
    expect(events.filter((event) => event.type === 'shoe_start')).toHaveLength(1);
    expect(events.filter((event) => event.type === 'card').length).toBeGreaterThan(4);
  }, 300_000);
});
