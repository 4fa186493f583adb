/**
 * `tableside analyze`, run as child processes.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cliEntryArgs } from '../../helpers/built-cli.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [...cliEntryArgs(), ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('tableside analyze', () => {
  it('poker --cards 5 --json prints exact counts as strings and a run time', () => {
    const { status, stdout } = cli('analyze', 'poker', '--cards', '5', '--json');
    expect(status).toBe(0);
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({
      cards: 5,
      total: '2598960',
      categories: { royal_flush: '4', straight_flush: '36', high_card: '1302540' },
    });
    expect(result.run_time_s).toBeTypeOf('number');
    expect(result.hands_per_second).toBeGreaterThan(0);
  });

  it('poker prints a table with the hands per second, and no progress bar off a terminal', () => {
    const { status, stdout, stderr } = cli('analyze', 'poker', '--cards', '5');
    expect(status).toBe(0);
    expect(stdout).toMatch(/four_of_a_kind\s+624\s/);
    expect(stdout).toMatch(/total\s+2,598,960/);
    expect(stdout).toMatch(/hands per second/);
    expect(stderr).not.toMatch(/%/);
  });

  it('baccarat --decks 8 --json gives the outcome counts and every bet', () => {
    const { status, stdout } = cli('analyze', 'baccarat', '--decks', '8', '--json');
    expect(status).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.decks).toBe(8);
    expect(result.total).toBe('4998398275503360');
    // The default ruleset, bulgaria-punto-banco, deals 003 § 24's scheme (Banker 5 stands on a Player 7).
    expect(result.outcomes.banker.count).toBe('2292731055415296');
    expect(result.outcomes.tie.probability).toBeCloseTo(0.094807, 6);
    expect(Object.keys(result.bets).sort()).toEqual([
      'banker',
      'banker_pair',
      'dragon_banker',
      'dragon_player',
      'player',
      'player_pair',
      'tie',
    ]);
    expect(result.bets.banker.house_edge).toBeCloseTo(0.010741, 6);
    // The universal tableau (004) gives the published counts.
    const universal = JSON.parse(
      cli(
        'analyze',
        'baccarat',
        '--decks',
        '8',
        '--ruleset',
        'tdc-baccarat-no-commission',
        '--json',
      ).stdout,
    );
    expect(universal.outcomes.banker.count).toBe('2292252566437888');
    expect(universal.outcomes.tie.probability).toBeCloseTo(0.095156, 6);
  });

  it('blackjack-dealer, holdem-bonus and triple-shot print JSON', () => {
    const dealer = cli('analyze', 'blackjack-dealer', '--decks', '6', '--json');
    expect(dealer.status).toBe(0);
    expect(JSON.parse(dealer.stdout).outcomes.bust.probability).toBeCloseTo(0.2819, 4);
    const bonus = cli('analyze', 'holdem-bonus', '--json');
    expect(bonus.status).toBe(0);
    const bonusResult = JSON.parse(bonus.stdout);
    expect(bonusResult.house_edge_exact).toBe('13873/162435');
    expect(bonusResult.hands[0]).toMatchObject({
      hand: 'AA with dealer AA',
      pays: 1000,
      count: '6',
    });
    const triple = cli('analyze', 'triple-shot', '--no-poker-bet', '--json');
    expect(triple.status).toBe(0);
    const result = JSON.parse(triple.stdout);
    expect(result.war.house_edge_exact).toBe('1/34');
    expect(result.poker.total).toBe('20358520');
    expect(result.not_computed.map((entry: { bet: string }) => entry.bet)).toEqual([
      'blackjack',
      'bonus',
      'poker',
    ]);
  });

  it('bad options fail with exit code 1 and a message naming the problem', () => {
    const cards = cli('analyze', 'poker', '--cards', '4');
    expect(cards.status).toBe(1);
    expect(cards.stderr).toMatch(/5, 6 or 7 cards, got 4/);
    const decks = cli('analyze', 'baccarat', '--decks', 'eight');
    expect(decks.status).toBe(1);
    expect(decks.stderr).toMatch(/--decks must be a whole number/);
    const wrongGame = cli('analyze', 'baccarat', '--decks', '8', '--ruleset', 'peru-triple-shot');
    expect(wrongGame.status).toBe(1);
    expect(wrongGame.stderr).toMatch(/not punto-banco/);
  });
});
