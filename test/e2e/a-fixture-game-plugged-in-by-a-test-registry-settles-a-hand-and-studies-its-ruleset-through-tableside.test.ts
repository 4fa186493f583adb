/**
 * High card, a fixture game no shipped file names, brings its own CLI verbs
 * (issue 35 item 1): through the tests' entry that installs its registry,
 * `tableside hand` settles a round by the game's own reducer, `analyze
 * ruleset` and its own `analyze high-card` verb count every deal, and bad
 * input exits 1 naming what was wrong. The CLI asks the plug-in: nothing in
 * firmware-host/ knows the game.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.ts';

const ENTRY = join(REPO_ROOT, 'test/fixtures/games/tableside-with-fixture-games.ts');

function tableside(...args: string[]) {
  return spawnSync(process.execPath, ['--import', import.meta.resolve('tsx'), ENTRY, ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, TABLESIDE_FIXTURE_GAMES: 'high-card', TABLESIDE_LOG_LEVEL: 'warn' },
    timeout: 120_000,
  });
}

describe("a fixture game's own verbs through tableside", () => {
  it('settles a hand from its two cards in its own words and as JSON', () => {
    const text = tableside('hand', '--ruleset', 'fixture-high-card', '--cards', '4D JH');
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toBe(
      'ruleset fixture-high-card (high-card)\nplayer 4D, banker JH: the banker wins\nbets (result × stake)\n  player  -1\n  banker  +1\n',
    );
    const json = tableside('hand', '--ruleset', 'fixture-high-card', '--cards', 'QS QH', '--json');
    expect(json.status, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      ruleset: 'fixture-high-card',
      game: 'high-card',
      player: 'QS',
      banker: 'QH',
      winner: 'tie',
      bets: { player: 0, banker: 0 },
    });
  });

  it('refuses a hand it cannot settle with exit 1, naming what was wrong', () => {
    const one = tableside('hand', '--ruleset', 'fixture-high-card', '--cards', 'KS');
    expect(one.status).toBe(1);
    expect(one.stderr).toContain('--cards needs two cards for fixture-high-card');
    const roulette = tableside('hand', '--ruleset', 'fixture-high-card', '--number', '17');
    expect(roulette.status).toBe(1);
    expect(roulette.stderr).toContain('--number: fixture-high-card deals two cards');
  });

  it('studies its ruleset by analyze ruleset and by its own analyze verb', () => {
    const study = tableside('analyze', 'ruleset', 'fixture-high-card', '--json');
    expect(study.status, study.stderr).toBe(0);
    // 52 × 51 ordered deals; a tie is one of the 3 other cards of the player's rank.
    expect(JSON.parse(study.stdout)).toEqual({
      ruleset: 'fixture-high-card',
      game: 'high-card',
      deals: 2652,
      outcomes: { player: 1248, banker: 1248, tie: 156 },
      house_edge: { player: 0, banker: 0 },
    });
    const verb = tableside('analyze', 'high-card');
    expect(verb.status, verb.stderr).toBe(0);
    expect(verb.stdout).toContain('2652 ordered deals from one deck');
    expect(tableside('analyze', '--help').stdout).toMatch(/high-card \[options\]/);
  });
});
