/**
 * `tableside hand --dark`: boxes played dark (004: Russian poker and casino
 * hold'em at TDC) have their bets in before the deal and make no decision;
 * run as a child process, as a pit supervisor runs it.
 */
import { describe, expect, it } from 'vitest';
import { runCliSync } from '../../helpers/cli.ts';

const cli = (...args: string[]) => runCliSync(args, { timeout: 20_000 });

const HOLDEM_CARDS = 'AS KS 2C 7D QH QD 9S 4C TS 5H 3D';

describe('tableside hand --dark', () => {
  it('settles a casino hold’em round in which the dark box makes no decision', () => {
    const { status, stdout, stderr } = cli(
      'hand',
      '--ruleset',
      'tdc-casino-holdem',
      '--boxes',
      '1,2',
      '--dark',
      '2',
      '--cards',
      HOLDEM_CARDS,
      '--actions',
      'box1:bet',
      '--json',
    );
    expect(stderr).toBe('');
    expect(status).toBe(0);
    const outcome = JSON.parse(stdout);
    expect(outcome.complete).toBe(true);
    expect(outcome.boxes).toMatchObject([
      { box: 1, dark: false, call: 'bet' },
      { box: 2, dark: true, call: 'bet', cards: ['KS', 'QH'] },
    ]);
    expect(Object.keys(outcome.bets)).toEqual(expect.arrayContaining(['box:2.ante', 'box:2.call']));
  });

  it('waits for the same box’s decision when it is not dark', () => {
    const { status, stderr } = cli(
      'hand',
      '--ruleset',
      'tdc-casino-holdem',
      '--boxes',
      '1,2',
      '--cards',
      HOLDEM_CARDS,
      '--actions',
      'box1:bet',
    );
    expect(status).toBe(1);
    expect(stderr).toMatch(/box:2 must decide: bet, fold/);
  });

  it('plays a dark Russian poker box to the end with no exchange, buy or bet asked for', () => {
    const cards = 'AS AH QS KS KH 2H 3H 4H 5H 7C';
    const dark = cli(
      'hand',
      '--ruleset',
      'tdc-russian-poker',
      '--boxes',
      '1',
      '--dark',
      '1',
      '--cards',
      cards,
    );
    expect(dark.status).toBe(0);
    expect(dark.stdout).toMatch(/box 1 card 1 \(dark\)/);
    expect(dark.stdout).toMatch(/box:1\.bet/);
    const open = cli('hand', '--ruleset', 'tdc-russian-poker', '--boxes', '1', '--cards', cards);
    expect(open.status).toBe(1);
    expect(open.stderr).toMatch(/box:1 must decide: exchange, buy, bet, fold/);
  });

  it.each([
    [
      ['--ruleset', 'tdc-casino-holdem', '--boxes', '1', '--dark', '2'],
      /dark box 2 is not in play \(boxes 1\)/,
    ],
    [
      ['--ruleset', 'spain-holdem-bonus', '--boxes', '1', '--dark', '1'],
      /spain-holdem-bonus has no dark boxes/,
    ],
    [
      ['--ruleset', 'tdc-blackjack', '--boxes', '1', '--dark', '1'],
      /tdc-blackjack has no dark boxes/,
    ],
    [
      ['--ruleset', 'tdc-casino-holdem', '--boxes', '1', '--dark', 'one'],
      /bad box "one" in --dark/,
    ],
  ])('refuses %j with a message naming what is wrong, exit 1', (args, pattern) => {
    const { status, stdout, stderr } = cli('hand', ...args, '--cards', HOLDEM_CARDS);
    expect(status).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(pattern);
  });
});
