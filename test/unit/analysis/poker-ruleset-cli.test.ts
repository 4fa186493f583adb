/**
 * `tableside analyze casino-holdem | caribbean-stud | russian-poker |
 * seven-card-stud | ruleset NAME`, run as child processes. The full runs of
 * every ruleset (nothing skipped) are in test/slow/poker-ruleset-studies.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cliEntryArgs } from '../../helpers/built-cli.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));

function cli(
  ...args: string[]
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...cliEntryArgs(), ...args], {
      cwd: root,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('tableside analyze, poker rulesets', () => {
  it('casino-holdem --quick --json: the Bonus computed exactly, Ante/Call strategy-dependent with its strategy named', async () => {
    const { status, stdout } = await cli('analyze', 'casino-holdem', '--quick', '--json');
    expect(status).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.ruleset).toBe('tdc-casino-holdem');
    expect(result.bets.bonus).toMatchObject({
      status: 'computed',
      house_edge_exact: '456727/649740',
    });
    expect(result.bets.ante_call.status).toBe('strategy_dependent');
    expect(result.bets.ante_call.assumed_strategy.strategy).toMatch(/always Call/);
    expect(result.details.bonus.categories.three_of_a_kind).toMatchObject({
      pays: 7,
      count: '54912',
    });
    expect(result.run_time_s).toBeTypeOf('number');
  });

  it('caribbean-stud prints a table with the Bonus edge and the always-raise strategy', async () => {
    const { status, stdout } = await cli('analyze', 'caribbean-stud');
    expect(status).toBe(0);
    expect(stdout).toMatch(/bonus\s+computed\s+50\.2141 % per Bonus stake/);
    expect(stdout).toMatch(/ante_raise\s+strategy dependent\s+16\.6072 % per Ante/);
    expect(stdout).toMatch(/always Raise/);
    expect(stdout).toMatch(/run time/);
  });

  it('russian-poker --json says no bet is strategy-free and gives the dark box exactly', async () => {
    const { status, stdout } = await cli('analyze', 'russian-poker', '--json');
    expect(status).toBe(0);
    const result = JSON.parse(stdout);
    for (const bet of Object.values(result.bets) as { status: string }[]) {
      expect(bet.status).toBe('strategy_dependent');
    }
    expect(result.bets.ante_bet.assumed_strategy.house_edge_exact).toBe('42431410421/142380217980');
    expect(result.notes.join(' ')).toMatch(/Strategy-free bets: none/);
  });

  it('seven-card-stud --json gives the commission as a share of the pot and the seven-card hands', async () => {
    const { status, stdout } = await cli('analyze', 'seven-card-stud', '--json');
    expect(status).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.bets.commission).toMatchObject({ status: 'computed', house_edge_exact: '1/20' });
    expect(result.bets.pot.status).toBe('strategy_dependent');
    expect(result.details.seven_card_hands.categories.four_of_a_kind.count).toBe('224848');
  });

  it('ruleset NAME dispatches by game: baccarat, blackjack and Triple Shot rulesets too', async () => {
    const [baccarat, blackjack, triple] = await Promise.all([
      cli('analyze', 'ruleset', 'bulgaria-punto-banco', '--json'),
      cli('analyze', 'ruleset', 'tdc-blackjack', '--json'),
      cli('analyze', 'ruleset', 'peru-triple-shot', '--quick', '--json'),
    ]);
    expect(JSON.parse(baccarat.stdout).bets.banker).toMatchObject({ status: 'computed' });
    // 003 § 24's own scheme (Banker 5 stands on a Player 7), not the universal 1.0579 %.
    expect(JSON.parse(baccarat.stdout).bets.banker.house_edge).toBeCloseTo(0.010741, 6);
    expect(JSON.parse(blackjack.stdout).bets.main.status).toBe('strategy_dependent');
    const tripleShot = JSON.parse(triple.stdout);
    expect(tripleShot.bets.war).toMatchObject({ status: 'computed', house_edge_exact: '1/34' });
    expect(tripleShot.bets.poker.status).toBe('skipped');
  });

  it('a wrong game or an unknown ruleset fails with exit code 1 and a message naming it', async () => {
    const wrong = await cli('analyze', 'caribbean-stud', '--ruleset', 'tdc-russian-poker');
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toMatch(/russian-poker ruleset, not caribbean-stud/);
    const unknown = await cli('analyze', 'ruleset', 'nowhere-poker');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/unknown ruleset "nowhere-poker"/);
  });
});
