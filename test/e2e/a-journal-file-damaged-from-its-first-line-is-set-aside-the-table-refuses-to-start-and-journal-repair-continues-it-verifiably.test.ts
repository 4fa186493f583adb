import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/ports.ts';
import { CliProcess, runCli, tempDir } from './helpers/daemon.ts';
import { until } from './helpers/environment.ts';

/** The card inputs of the table's journal files (set-aside files are not journal files). */
function journaledCards(journalDir: string): number {
  let names: string[];
  try {
    names = readdirSync(journalDir);
  } catch {
    return 0; // not created yet
  }
  return names
    .filter((name) => /^journal-\d{6}\.jsonl$/.test(name))
    .flatMap((name) => readFileSync(join(journalDir, name), 'utf8').split('\n'))
    .filter((line) => line.includes('"kind":"input"') && line.includes('"t":"card"')).length;
}

function newestJournalFile(journalDir: string): string {
  return readdirSync(journalDir)
    .filter((name) => /^journal-\d{6}\.jsonl$/.test(name))
    .sort()
    .at(-1)!;
}

/** Lines none of which is a record: a disk that gave back other blocks. */
const GARBAGE = Array.from({ length: 500 }, (_, line) => `\u0000\u0000 block ${line} ~~~`).join(
  '\n',
);

describe('a journal file damaged from its first line is set aside, the table refuses to start, and journal repair continues it verifiably', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });

  it('sets the file aside whole, names it and the two choices at every start, and after the repair deals again with verify --key naming the repair', async () => {
    const cwd = tempDir('damaged-journal');
    cleanups.push(async () => rmSync(cwd, { recursive: true, force: true }));
    const journalDir = join(cwd, '.tableside/journal');
    const generated = await runCli(['key', 'generate', '--out', join(cwd, 'table.pem')], { cwd });
    expect(generated.code, generated.stderr).toBe(0);
    const publicKey = /public key:\s+(\S+)/.exec(generated.stdout)![1]!;
    writeFileSync(
      join(cwd, 'overrides.json'),
      JSON.stringify({
        mqtt: { port: await freePort() },
        simulation: { cardIntervalMs: 5, roundIntervalMs: 10, seed: 7 },
        journal: { signingKey: 'table.pem' },
      }),
    );
    const env = { TABLESIDE_CONFIG: join(cwd, 'overrides.json'), TABLESIDE_LOG_LEVEL: 'warn' };

    /** Runs the table until its journal holds more than `cards` card inputs, then stops it cleanly. */
    async function dealPast(cards: number): Promise<void> {
      const table = new CliProcess(['run', '--no-view'], { cwd, env });
      cleanups.push(() => table.kill('SIGKILL'));
      await until(
        () => journaledCards(journalDir) > cards,
        `more than ${cards} cards journaled`,
        60_000,
        () => table.describe(),
      );
      const exit = await table.kill('SIGINT');
      expect(exit.code, table.describe()).toBe(0);
    }

    await dealPast(0);
    const damaged = newestJournalFile(journalDir);
    writeFileSync(join(journalDir, damaged), GARBAGE);
    const setAside = `${damaged}.unreadable-from-line-1`;

    const refused = await runCli(['run', '--no-view'], { cwd, env });
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).toContain(`${damaged} cannot be read from line 1 on`);
    expect(refused.stderr).toContain(`set aside whole as ${join(journalDir, setAside)}`);
    expect(refused.stderr).toContain(`put a good copy of ${damaged}`);
    expect(refused.stderr).toContain(`tableside journal repair ${journalDir}`);
    expect(readFileSync(join(journalDir, setAside), 'utf8')).toBe(GARBAGE);
    expect(readdirSync(journalDir)).not.toContain(damaged);

    // Refused again until someone decides; the set-aside file is untouched.
    const again = await runCli(['run', '--no-view'], { cwd, env });
    expect(again.code, again.stderr).toBe(1);
    expect(again.stderr).toContain('was set aside whole');
    expect(readFileSync(join(journalDir, setAside), 'utf8')).toBe(GARBAGE);

    const repaired = await runCli(['journal', 'repair', journalDir], { cwd });
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(repaired.stdout).toContain(`repaired: ${damaged} continues the journal at seq`);

    const before = journaledCards(journalDir);
    await dealPast(before);
    expect(readFileSync(join(journalDir, setAside), 'utf8')).toBe(GARBAGE);

    const verified = await runCli(['journal', 'verify', journalDir, '--key', publicKey], { cwd });
    expect(verified.code, verified.stdout + verified.stderr).toBe(1);
    expect(verified.stdout).not.toMatch(/^OK/);
    expect(verified.stdout).toMatch(
      new RegExp(
        `repaired .*journal repair: ${setAside.replaceAll('.', '\\.')} \\(${GARBAGE.length} bytes`,
      ),
    );
  });
});
