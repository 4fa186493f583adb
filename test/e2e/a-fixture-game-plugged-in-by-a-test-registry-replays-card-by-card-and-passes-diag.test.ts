/**
 * High card, a fixture game no shipped file names, through the real
 * commands (issue 35 item 1): the tests' entry
 * (test/fixtures/games/tableside-with-fixture-games.ts) installs the
 * registry that plugs it in, and `tableside replay` plays its table log card
 * by card in its own rules while `tableside diag` takes a config of its
 * table. Nothing outside the fixture and that registry knows the game.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.ts';
import { freePort } from '../helpers/ports.ts';
import { tempDir } from '../helpers/temp.ts';

const ENTRY = join(REPO_ROOT, 'test/fixtures/games/tableside-with-fixture-games.ts');

function tableside(args: readonly string[], cwd: string) {
  return spawnSync(process.execPath, ['--import', import.meta.resolve('tsx'), ENTRY, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, TABLESIDE_FIXTURE_GAMES: 'high-card', TABLESIDE_LOG_LEVEL: 'warn' },
    timeout: 120_000,
  });
}

const LOG = [
  { t: 'shuffle', decks: 1, backs: ['green'] },
  { t: 'round' },
  { t: 'card', card: 'KS', back: 'green', face: 'up' },
  { t: 'card', card: '9H', back: 'green', face: 'up' },
  { t: 'round' },
  { t: 'card', card: '4D', back: 'green', face: 'up' },
  { t: 'card', card: 'JH', back: 'green', face: 'up' },
  // A card from another deck: the game's own alarm, naming it.
  { t: 'round' },
  { t: 'card', card: '2C', back: 'red', face: 'up' },
];

describe('a fixture game through tableside replay and diag', () => {
  it('replays its table log card by card in its own rules', () => {
    const dir = tempDir('fixture-replay-');
    writeFileSync(join(dir, 'shift.log'), LOG.map((record) => JSON.stringify(record)).join('\n'));
    const result = tableside(
      ['replay', 'shift.log', '--ruleset', 'fixture-high-card', '--json'],
      dir,
    );
    expect(result.status, result.stderr).toBe(0);
    const events = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(
      events.filter((event) => event.type === 'card').map((event) => [event.card, event.to]),
    ).toEqual([
      ['KS', 'player'],
      ['9H', 'banker'],
      ['4D', 'player'],
      ['JH', 'banker'],
    ]);
    expect(
      events
        .filter((event) => event.type === 'result')
        .map((event) => [event.line, (event.outcome as { winner: string }).winner]),
    ).toEqual([
      [4, 'player'],
      [7, 'banker'],
    ]);
    expect(events.filter((event) => event.type === 'alarm')).toMatchObject([
      { kind: 'wrong_back_colour', line: 9, message: "2C has a red back; this deck's are green" },
    ]);
    expect(result.stderr).toContain('9 records, 11 events, 1 alarm(s)');
  });

  it("passes diag's config check of its table", async () => {
    const dir = tempDir('fixture-diag-');
    writeFileSync(
      join(dir, 'table.yaml'),
      `table: high-1\nruleset: fixture-high-card\nmqtt: {url: embedded, port: ${await freePort()}}\njournal: {dir: ./journal}\n`,
    );
    const result = tableside(['diag', '--config', 'table.yaml', '--json'], dir);
    expect(result.status, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as {
      checks: { name: string; status: string; detail: string }[];
    };
    expect(report.checks.find((check) => check.name === 'config')).toMatchObject({
      status: 'pass',
      detail: expect.stringContaining('ruleset fixture-high-card'),
    });
  });
});
