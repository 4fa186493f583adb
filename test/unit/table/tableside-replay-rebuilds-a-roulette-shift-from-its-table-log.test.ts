import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { cliEntryArgs } from '../../helpers/built-cli.ts';

const run = promisify(execFile);
const LOG = 'test/fixtures/table-logs/bulgaria-roulette-a-shift-with-faults.jsonl';

async function replay(...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [...cliEntryArgs(), 'replay', ...args], {
      cwd: process.cwd(),
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('tableside replay of a roulette table log', () => {
  it('rebuilds every game, alarm, void and the closing countdown, skipping bad lines by number', async () => {
    const { code, stdout, stderr } = await replay(LOG, '--ruleset', 'bulgaria-roulette', '--json');
    expect(code).toBe(0);
    expect(stderr).toMatch(/line 10: not JSON/);
    expect(stderr).toMatch(/line 11: bad table-log record: .*no pocket above 36/);
    const events = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events.filter((e) => e.type === 'spin').map((e) => e.number)).toEqual([
      17, 0, 32, 5, 26, 3, 14,
    ]);
    expect(events.filter((e) => e.type === 'alarm').map((e) => [e.line, e.kind])).toEqual([
      [6, 'rotor_same_direction'],
      [8, 'no_spin'],
      [9, 'spin_without_close'],
      [9, 'ball_with_rotor'],
      [9, 'few_revolutions'],
      [18, 'rotor_same_direction'],
    ]);
    expect(events.find((e) => e.type === 'game_voided')).toMatchObject({ game: 4, line: 8 });
    expect(events.filter((e) => e.type === 'games_left').map((e) => e.left)).toEqual([2, 1]);
    expect(events.at(-1)).toMatchObject({ type: 'table_closed', games: 7 });
    for (const alarm of events.filter((e) => e.type === 'alarm')) {
      expect(alarm.rule).toMatch(/^003 § 11|^practice: /);
    }
  });

  it('refuses a ruleset it does not know, naming the known ones', async () => {
    const { code, stderr } = await replay(LOG, '--ruleset', 'monaco-roulette');
    expect(code).toBe(2);
    expect(stderr).toMatch(/unknown ruleset "monaco-roulette"/);
  });
});
