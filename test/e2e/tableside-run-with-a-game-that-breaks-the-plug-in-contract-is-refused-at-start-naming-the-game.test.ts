/**
 * `tableside run` with a registry holding a game that breaks the plug-in
 * contract (issue 35 "Bad input") stops at start with exit code 3 and a
 * message naming the game and what it lacks, and journals nothing: never a
 * table that fails at its first round. The registry is the fixture's
 * (test/fixtures/games/high-card/registry.ts), put in by the tests' own
 * entry (tableside-with-fixture-games.ts); no shipped file names it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.ts';
import { freePort } from '../helpers/ports.ts';
import { tempDir } from '../helpers/temp.ts';

const ENTRY = join(REPO_ROOT, 'test/fixtures/games/tableside-with-fixture-games.ts');

async function runWith(
  registry: string,
): Promise<{ status: number | null; stderr: string; dir: string }> {
  const dir = tempDir('fixture-games-run-');
  writeFileSync(
    join(dir, 'table.yaml'),
    `table: fixture\nruleset: tdc-roulette\nmqtt: {url: embedded, port: ${await freePort()}}\njournal: {dir: ./journal}\n`,
  );
  const result = spawnSync(
    process.execPath,
    // tsx by its path: the child runs in a temporary folder, where no node_modules is.
    ['--import', import.meta.resolve('tsx'), ENTRY, 'run', '--config', 'table.yaml', '--no-view'],
    {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, TABLESIDE_FIXTURE_GAMES: registry, TABLESIDE_LOG_LEVEL: 'warn' },
      // A table that starts runs until killed: the refusal is what ends it in time.
      timeout: 120_000,
    },
  );
  return { status: result.status, stderr: result.stderr, dir };
}

describe('tableside run with a game that breaks the plug-in contract', () => {
  it.each([
    ['missing-view', /game high-card has no webView/],
    ['duplicate-ruleset', /game high-card: ruleset id tdc-roulette is game roulette's too/],
    [
      'no-engine',
      /game high-card, ruleset fixture-low-card: no session opens.*no engine serves game low-card/,
    ],
  ])(
    'with the %s registry: refused with exit code 3, naming the game, journaling nothing',
    async (registry, message) => {
      const { status, stderr, dir } = await runWith(registry);
      expect(stderr).toMatch(/^tableside run: the games break the plug-in contract: /m);
      expect(stderr).toMatch(message);
      expect(status, stderr).toBe(3);
      expect(existsSync(join(dir, 'journal'))).toBe(false);
      expect(readdirSync(dir)).toEqual(['table.yaml']);
    },
  );
});
