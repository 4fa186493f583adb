import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { cliEntryArgs } from '../../helpers/built-cli.ts';

const run = promisify(execFile);
const CLI = [...cliEntryArgs(), 'replay'];
const FIXTURES = 'test/fixtures/table-logs';

async function replay(...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [...CLI, ...args], {
      cwd: process.cwd(),
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('tableside replay', () => {
  it('prints every event of a legal shoe as JSON lines and raises no alarm', async () => {
    const { code, stdout } = await replay(
      `${FIXTURES}/bulgaria-punto-banco-legal-shoe.jsonl`,
      '--ruleset',
      'bulgaria-punto-banco',
      '--json',
    );
    expect(code).toBe(0);
    const events = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(events[0]).toMatchObject({ type: 'shoe_start', line: 1 });
    expect(events.filter((e) => e.type === 'alarm')).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: 'shoe_end' });
  });

  it('reports malformed lines by number on stderr, skips them, and still exits 0', async () => {
    const { code, stdout, stderr } = await replay(
      `${FIXTURES}/peru-triple-shot-faults.jsonl`,
      '--ruleset',
      'peru-triple-shot',
    );
    expect(code).toBe(0);
    expect(stderr).toMatch(/line 7: not JSON/);
    expect(stderr).toMatch(/line 8: bad table-log record/);
    expect(stdout).toMatch(/ALARM face_up_card/);
    expect(stdout).toMatch(/ALARM wrong_back_colour/);
    expect(stdout).toMatch(/ALARM deck_not_alternated/);
    expect(stdout).toMatch(/hand_voided/);
    expect(stdout).toMatch(/reshuffle_required/);
  });

  it('replays a blackjack shoe to its cut card', async () => {
    const { code, stdout } = await replay(
      `${FIXTURES}/tdc-blackjack-legal-shoe.jsonl`,
      '--ruleset',
      'tdc-blackjack',
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(/last_hand\s+cut card out/);
    expect(stdout).toMatch(/shoe_end\s+cut card reached/);
    expect(stdout).not.toMatch(/ALARM/);
  });

  it('fails with a clear message for an unknown ruleset or a missing file', async () => {
    const unknown = await replay(`${FIXTURES}/peru-triple-shot-faults.jsonl`, '--ruleset', 'nope');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/unknown ruleset "nope"/);
    const missing = await replay(`${FIXTURES}/absent.jsonl`, '--ruleset', 'peru-triple-shot');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/cannot read/);
  });
});
