/**
 * A roulette table run by the real daemon (a simulated wheel, the embedded
 * broker) journals its spins; `tableside analyze wheel` reads that journal
 * folder, hash chain checked, and reports on exactly the spins the table
 * recorded: every number counted, the rotor split as the croupier
 * alternated it, and no alarm on a fair wheel.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, waitForPort } from '../helpers/ports.ts';
import { CliProcess, runCli, tempDir, writeConfig } from './helpers/daemon.ts';
import { until } from './helpers/environment.ts';

/** The spin records in the journal folder, read as the journal holds them. */
function journalledSpins(dir: string): { number: number; rotor?: string }[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((name) => /^journal-\d+\.jsonl$/.test(name));
  } catch {
    return [];
  }
  const spins: { number: number; rotor?: string }[] = [];
  for (const file of files.sort()) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (!line.includes('"t":"spin"')) continue;
      const record = JSON.parse(line) as {
        kind: string;
        data: { t: string; number: number; rotor?: string };
      };
      if (record.kind === 'input' && record.data.t === 'spin') spins.push(record.data);
    }
  }
  return spins;
}

describe('a wheel spun through the daemon is watched for bias from its journal', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });

  it('reports every journalled spin, split by rotor, with no alarm on the fair simulated wheel', async () => {
    const cwd = tempDir('wheel-bias');
    cleanups.push(async () => rmSync(cwd, { recursive: true, force: true }));
    const port = await freePort();
    const journal = join(cwd, 'journal');
    const config = writeConfig(cwd, {
      table: 'wheel-1',
      ruleset: 'bulgaria-roulette',
      mqtt: { url: 'embedded', port },
      journal: { dir: journal },
      simulation: { cardIntervalMs: 2, roundIntervalMs: 4, seed: 9 },
    });
    const daemon = new CliProcess(['run', '--config', config, '--no-view'], {
      cwd,
      env: { TABLESIDE_LOG_LEVEL: 'warn' },
    });
    cleanups.push(() => daemon.kill('SIGKILL'));
    await Promise.race([
      waitForPort(port, 30_000),
      daemon.exited.then(() => {
        throw new Error(`tableside run exited\n${daemon.describe()}`);
      }),
    ]);
    await until(
      () => journalledSpins(journal).length >= 200,
      '200 journalled spins',
      60_000,
      () => daemon.describe(),
    );
    daemon.child.kill('SIGINT');
    expect(await daemon.exited, daemon.describe()).toEqual({ code: 0, signal: null });

    const spins = journalledSpins(journal);
    const report = await runCli([
      'analyze',
      'wheel',
      journal,
      '--ruleset',
      'bulgaria-roulette',
      '--json',
      '--false-alarm',
      '1e-6',
    ]);
    expect(report.code, report.stderr).toBe(0);
    const out = JSON.parse(report.stdout);
    expect(out.spins).toBe(spins.length);
    const counts = new Array<number>(37).fill(0);
    for (const spin of spins) counts[spin.number]! += 1;
    expect(out.counts).toEqual(counts);
    const cw = spins.filter((s) => s.rotor === 'cw').length;
    expect(out.byRotor.cw.reduce((a: number, b: number) => a + b, 0)).toBe(cw);
    // The croupier alternates the rotor (003 § 11(4)): the two directions differ by at most one.
    expect(Math.abs(spins.length - 2 * cw)).toBeLessThanOrEqual(1);
    expect(out.tests.find((t: { test: string }) => t.test === 'frequencies').ran).toBe(true);
    expect(out.alarms).toBe(0);
  });
});
