import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { cliEntryArgs } from '../../../helpers/built-cli.ts';
import { REPO_ROOT } from '../../../helpers/cli.ts';

const run = promisify(execFile);

/** `tableside hand ... --json` as a child process; resolves its parsed output. */
async function hand(
  args: string[],
): Promise<{ complete: boolean; bets: Record<string, number> } & Record<string, unknown>> {
  const { stdout } = await run(process.execPath, [...cliEntryArgs(), 'hand', ...args, '--json'], {
    cwd: REPO_ROOT,
    env: { ...process.env, NO_COLOR: '1' },
  });
  return JSON.parse(stdout);
}

describe('tableside hand, for every poker ruleset (child process)', () => {
  it("settles a Texas Hold'em Bonus round (001)", async () => {
    const out = await hand([
      '--ruleset',
      'spain-holdem-bonus',
      '--cards',
      '9S KH TS KC 2D 6D 7C 8H 3D 2S 4D 3C',
      '--actions',
      'box1:bet box1:bet box1:bet',
    ]);
    expect(out.complete).toBe(true);
    expect(out.bets).toMatchObject({
      'box:1.ante': 1,
      'box:1.flop': 2,
      'box:1.turn': 1,
      'box:1.river': 1,
    });
  });

  it("settles a Casino Hold'em round with two boxes (004)", async () => {
    const out = await hand([
      '--ruleset',
      'tdc-casino-holdem',
      '--boxes',
      '1,2',
      '--cards',
      'AH 2C 4S AD 3C 4C 2H 7H 9H 5S JC',
      '--actions',
      'box1:bet box2:fold',
    ]);
    expect(out.complete).toBe(true);
    expect(out.bets['box:2.ante']).toBe(-1);
    expect(out.bets['box:1.call']).toBeDefined();
  });

  it('settles a Caribbean stud round with a replaced card (003 § 24)', async () => {
    const out = await hand([
      '--ruleset',
      'bulgaria-caribbean-stud',
      '--cards',
      '2S AC 5S KD 8S 7H JS 4S KH 2D KS',
      '--actions',
      'box1:exchange:4 box1:raise',
    ]);
    expect(out.bets).toEqual({
      'box:1.draw': -1,
      'box:1.ante': 1,
      'box:1.raise': 10,
      'box:1.bonus': -1,
    });
  });

  it('settles a Russian poker round with a bought dealer game (004)', async () => {
    const out = await hand([
      '--ruleset',
      'tdc-russian-poker',
      '--cards',
      'QS JC QH 9D 8S 7H 6D 4S 3H 2D 9S',
      '--actions',
      'box1:bet box1:buy_dealer_game',
    ]);
    expect(out.bets).toEqual({ 'box:1.ante': 0, 'box:1.bet': 2, 'box:1.buy_game': -1 });
  });

  it('settles a seven-card stud pot (003 § 28)', async () => {
    const out = await hand([
      '--ruleset',
      'bulgaria-seven-card-stud',
      '--boxes',
      '1,2',
      '--cards',
      'AS KS AH KH 9S 4C 9H 5D 2C 7C 3D 8D KC JC',
      '--actions',
      'box2:bet box1:bet box1:check box2:check box1:check box2:check box1:check box2:check box1:check box2:check',
    ]);
    expect(out.bets).toEqual({ 'box:1.pot': 1, 'box:2.pot': 0 });
    expect(out.winners).toEqual([1]);
  });

  it('says what is awaited when the decisions run out', async () => {
    const failed = run(
      process.execPath,
      [
        ...cliEntryArgs(),
        'hand',
        '--ruleset',
        'tdc-russian-poker',
        '--cards',
        'QS JC QH 9D 8S 7H 6D 4S 3H 2D',
      ],
      { cwd: REPO_ROOT },
    );
    await expect(failed).rejects.toMatchObject({
      stderr: expect.stringMatching(/box:1 must decide: exchange, buy, bet, fold/),
    });
  });
});
