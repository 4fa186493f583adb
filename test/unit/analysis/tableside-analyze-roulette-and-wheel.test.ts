/**
 * `tableside analyze roulette` (exact edges as fractions) and `tableside
 * analyze wheel JOURNAL_DIR` over spins a real journal holds, run as child
 * processes: the report, its JSON, the SVG file, and bad input.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRouletteRuleset } from '../../../firmware-host/games/rulesets.ts';
import { Journal } from '../../../firmware-host/journal/journal.ts';
import type { JournalEntry } from '../../../firmware-host/journal/record.ts';
import { runCliSync } from '../../helpers/cli.ts';

const cli = (...args: string[]) => runCliSync(args, { timeout: 30_000 });
const order = getRouletteRuleset('tdc-roulette').wheel.order;

let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tableside-wheel-'));
  const journal = await Journal.open({ dir: join(dir, 'journal'), clock: () => 1_764_000_000_000 });
  // 3,000 spins with a 9-pocket sector favoured; rotor alternating, ball against it.
  let seed = 12345;
  const next = () => {
    seed = (seed * 48271) % 2147483647;
    return seed / 2147483647;
  };
  const entries: JournalEntry[] = [];
  for (let i = 0; i < 3000; i++) {
    const number = next() < 0.08 ? order[5 + Math.floor(next() * 9)]! : Math.floor(next() * 37);
    const rotor = i % 2 === 0 ? 'cw' : 'ccw';
    entries.push({
      kind: 'input',
      data: {
        t: 'spin',
        rotor,
        ball: rotor === 'cw' ? 'ccw' : 'cw',
        number,
        revolutions: 12,
      } as unknown as JournalEntry['data'],
    } as JournalEntry);
  }
  entries.push({ kind: 'meta', data: { type: 'note' } });
  await journal.append(entries);
  await journal.close();
  writeFileSync(
    join(dir, 'table.log'),
    '{"t":"spin","rotor":"cw","ball":"ccw","number":5,"revolutions":9}\nnot json\n{"t":"spin","number":40}\n{"t":"spin","ball":"cw","number":7}\n',
  );
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('tableside analyze roulette', () => {
  it('gives every bet type its exact house edge as a fraction, call bets included', () => {
    const { status, stdout } = cli('analyze', 'roulette', '--ruleset', 'tdc-roulette', '--json');
    expect(status).toBe(0);
    const out = JSON.parse(stdout);
    expect(out.ruleset).toBe('tdc-roulette');
    expect(out.bets.straight).toMatchObject({
      house_edge_exact: '1/37',
      pays: 35,
      win_probability_exact: '1/37',
    });
    expect(out.bets.voisins).toMatchObject({ house_edge_exact: '1/37', chips: 9 });
    expect(out.bets.complete).toMatchObject({ house_edge_exact: '1/37', chips: [17, 40] });
    expect(Object.keys(out.bets)).toHaveLength(21);
  });

  it('is what analyze ruleset gives for a roulette ruleset', () => {
    const { status, stdout } = cli('analyze', 'ruleset', 'bulgaria-roulette', '--json');
    expect(status).toBe(0);
    expect(Object.keys(JSON.parse(stdout).bets)).not.toContain('tiers');
  });

  it('names an unknown roulette ruleset', () => {
    const { status, stderr } = cli('analyze', 'roulette', '--ruleset', 'tdc-blackjack');
    expect(status).toBe(1);
    expect(stderr).toMatch(/unknown roulette ruleset "tdc-blackjack"/);
  });
});

describe('tableside analyze wheel', () => {
  it('reads the spins from a journal folder and flags the favoured sector, with a chart', () => {
    const svg = join(dir, 'wheel.svg');
    const { status, stdout } = cli('analyze', 'wheel', join(dir, 'journal'), '--svg', svg);
    expect(status).toBe(0);
    expect(stdout).toMatch(/3000 spins/);
    expect(stdout).toMatch(/sector\s+ALARM\s+the \d+-pocket sector/);
    expect(stdout).toMatch(/◀ flagged/);
    expect(stdout).toMatch(/ALARM\(S\) over 3000 spins/);
    expect(existsSync(svg)).toBe(true);
    expect(readFileSync(svg, 'utf8')).toMatch(/^<svg /);
  });

  it('prints the report as JSON, the last n spins only when asked', () => {
    const { status, stdout } = cli(
      'analyze',
      'wheel',
      join(dir, 'journal'),
      '--json',
      '--last',
      '500',
    );
    expect(status).toBe(0);
    const out = JSON.parse(stdout);
    expect(out.spins).toBe(500);
    expect(out.counts).toHaveLength(37);
    expect(out.counts.reduce((a: number, b: number) => a + b, 0)).toBe(500);
    expect(out.byRotor.cw.reduce((a: number, b: number) => a + b, 0)).toBe(250);
    expect(out.tests.map((t: { test: string }) => t.test)).toEqual([
      'frequencies',
      'hot_number',
      'cold_number',
      'sector',
      'direction_split',
      'repeat',
    ]);
  });

  it('reads a table log file, counting the records it cannot use and the void results apart', () => {
    const { status, stdout } = cli('analyze', 'wheel', join(dir, 'table.log'), '--json');
    expect(status).toBe(0);
    const out = JSON.parse(stdout);
    expect(out.spins).toBe(1);
    expect(out.counts[5]).toBe(1);
    expect(out.skipped).toBe(2);
    // A result with no rotor spin before it: the ball dropped unspun, a void game (003 § 11(5)).
    expect(out.voided).toBe(1);
    expect(out.counts[7]).toBe(0);
  });

  it('refuses a bad false-alarm rate and a folder with no spins', () => {
    expect(cli('analyze', 'wheel', join(dir, 'journal'), '--false-alarm', '2').stderr).toMatch(
      /--false-alarm must be a probability/,
    );
    const empty = cli('analyze', 'wheel', join(dir, 'nothing-here'));
    expect(empty.status).toBe(1);
    expect(empty.stderr).toMatch(/tableside analyze wheel: /);
  });
});
