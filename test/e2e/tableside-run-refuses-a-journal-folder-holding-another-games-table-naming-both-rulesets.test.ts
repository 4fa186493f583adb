import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/ports.ts';
import { CliProcess, runCli, tempDir } from './helpers/daemon.ts';
import { until } from './helpers/environment.ts';

/** Every record the table's journal folder holds (the default `.tableside/journal`). */
function journaled(cwd: string): Array<{ kind: string; data: { t?: string } }> {
  const dir = join(cwd, '.tableside/journal');
  let files: string[];
  try {
    files = readdirSync(dir).filter((name) => name.endsWith('.jsonl'));
  } catch {
    return []; // not created yet
  }
  return files.flatMap((name) =>
    readFileSync(join(dir, name), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line)),
  );
}

function inputTypes(cwd: string): Set<string> {
  return new Set(
    journaled(cwd)
      .filter((record) => record.kind === 'input')
      .map((record) => String(record.data.t)),
  );
}

describe("tableside run refuses a journal folder holding another game's table, naming both rulesets", () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    // A cleanup that fails (a process already gone) must not hide the test's own result.
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });

  /** Runs `npm start`'s table in `cwd` with `ruleset` until its journal holds an input of `type`, then stops it. */
  async function playUntil(cwd: string, ruleset: string | undefined, type: string): Promise<void> {
    const overrides = join(cwd, 'overrides.json');
    writeFileSync(
      overrides,
      JSON.stringify({
        mqtt: { port: await freePort() },
        simulation: { cardIntervalMs: 5, roundIntervalMs: 10, seed: 7 },
      }),
    );
    const table = new CliProcess(['run', '--no-view'], {
      cwd,
      env: {
        TABLESIDE_CONFIG: overrides,
        TABLESIDE_LOG_LEVEL: 'warn',
        ...(ruleset ? { TABLESIDE_RULESET: ruleset } : {}),
      },
    });
    cleanups.push(() => table.kill('SIGKILL'));
    await until(
      () => inputTypes(cwd).has(type),
      `a ${type} in the journal`,
      60_000,
      () => table.describe(),
    );
    const exit = await table.kill('SIGINT');
    expect(exit.code, table.describe()).toBe(0);
  }

  async function startWith(cwd: string, ruleset: string | undefined) {
    return runCli(['run', '--no-view'], {
      cwd,
      env: {
        TABLESIDE_CONFIG: join(cwd, 'overrides.json'),
        TABLESIDE_LOG_LEVEL: 'warn',
        ...(ruleset ? { TABLESIDE_RULESET: ruleset } : {}),
      },
    });
  }

  it('a baccarat table folder started with TABLESIDE_RULESET=tdc-roulette', async () => {
    const cwd = tempDir('other-game-baccarat');
    cleanups.push(async () => rmSync(cwd, { recursive: true, force: true }));
    await playUntil(cwd, undefined, 'card');
    const before = journaled(cwd).length;

    const refused = await startWith(cwd, 'tdc-roulette');
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).toMatch(/holds a card table playing tdc-baccarat-no-commission/);
    expect(refused.stderr).toMatch(/config names tdc-roulette \(a roulette table\)/);
    expect(refused.stderr).toMatch(/new journal folder \(journal\.dir\)/);
    // Nothing of the roulette table was journaled: not a spin, not a record.
    expect(inputTypes(cwd).has('spin')).toBe(false);
    expect(journaled(cwd).length).toBe(before);
  });

  it('a baccarat table folder started with TABLESIDE_RULESET=tdc-blackjack (cards too, another game)', async () => {
    // Issue 35 item 4: it started baccarat and dealt it, with no refusal or notice.
    const cwd = tempDir('other-game-blackjack');
    cleanups.push(async () => rmSync(cwd, { recursive: true, force: true }));
    await playUntil(cwd, undefined, 'card');
    const before = journaled(cwd).length;

    const refused = await startWith(cwd, 'tdc-blackjack');
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).toMatch(
      /holds a card table playing tdc-baccarat-no-commission \(punto-banco\), but the config names tdc-blackjack \(blackjack\)/,
    );
    expect(refused.stderr).toContain(join(cwd, '.tableside/journal'));
    expect(refused.stderr).toMatch(/new journal folder \(journal\.dir\)/);
    expect(journaled(cwd).length).toBe(before);
  });

  it('a roulette table folder started with the default (baccarat) ruleset', async () => {
    const cwd = tempDir('other-game-roulette');
    cleanups.push(async () => rmSync(cwd, { recursive: true, force: true }));
    await playUntil(cwd, 'tdc-roulette', 'spin');
    const before = journaled(cwd).length;

    const refused = await startWith(cwd, undefined);
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).toMatch(/holds a roulette table playing tdc-roulette/);
    expect(refused.stderr).toMatch(/config names tdc-baccarat-no-commission \(a card table\)/);
    expect(refused.stderr).toMatch(/new journal folder \(journal\.dir\)/);
    expect(inputTypes(cwd).has('card')).toBe(false);
    expect(journaled(cwd).length).toBe(before);
  });

  it('a config naming a ruleset no game has is refused with the known ones, exit 2', async () => {
    const cwd = tempDir('unknown-ruleset');
    cleanups.push(async () => rmSync(cwd, { recursive: true, force: true }));
    writeFileSync(join(cwd, 'overrides.json'), '{}');
    const refused = await startWith(cwd, 'tdc-craps');
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(/ruleset: expected one of the known rulesets: .*tdc-roulette/);
    expect(refused.stderr).toContain('tdc-baccarat-no-commission');
    expect(refused.stderr).toContain('(got "tdc-craps")');
    expect(readdirSync(cwd)).toEqual(['overrides.json']);
  });
});
