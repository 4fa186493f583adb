/**
 * `tableside hand --ruleset <roulette> --number N --bets "..."`, run as a
 * child process as a pit supervisor runs it: the issue's slip as JSON and
 * as text, and every kind of bad input refused with exit 2 and its name.
 */
import { describe, expect, it } from 'vitest';
import { runCliSync } from '../../../helpers/cli.ts';

const cli = (...args: string[]) => runCliSync(args, { timeout: 20_000 });
const ISSUE_SLIP =
  'straight:17=10 split:17-20=5 street:16=5 corner:13-17=4 sixline:13-18=6 dozen:2=10 column:2=10 red=10 black=10 even=10 odd=10 low=10 high=10 neighbours:17=5 voisins=9 tiers=6 orphelins=5 zero-spiel=4';

describe('tableside hand on a roulette ruleset', () => {
  it("settles the issue's slip on 17 as JSON, keyed by each bet as written", () => {
    const { status, stdout, stderr } = cli(
      'hand',
      '--ruleset',
      'tdc-roulette',
      '--number',
      '17',
      '--bets',
      ISSUE_SLIP,
      '--json',
    );
    expect(stderr).toBe('');
    expect(status).toBe(0);
    const out = JSON.parse(stdout);
    expect(out.number).toBe(17);
    expect(out.colour).toBe('black');
    expect(out.bets['straight:17']).toEqual({ stake: 10, net: 350 });
    expect(out.bets['sixline:13-18']).toEqual({ stake: 6, net: 30 });
    expect(out.bets.red).toEqual({ stake: 10, net: -10 });
    expect(out.bets.orphelins).toEqual({ stake: 5, net: 31 });
    expect(Object.keys(out.bets)).toHaveLength(18);
    expect(out.net).toBe(635);
  });

  it('prints the settlement as text, a call bet with its parts', () => {
    const { status, stdout } = cli(
      'hand',
      '--ruleset',
      'bulgaria-roulette',
      '--number',
      '0',
      '--bets',
      'straight:0=1 red=4 voisins=9',
    );
    expect(status).toBe(0);
    expect(stdout).toContain('number 0 green');
    expect(stdout).toMatch(/straight:0\s+stake\s+1\s+net\s+\+35/);
    expect(stdout).toMatch(/street:0-2-3\s+2\s+\+22/);
    expect(stdout).toMatch(/net \+46\n$/);
  });

  it('reports a stake over the maximum played to it with the rest returned (004)', () => {
    const { status, stdout } = cli(
      'hand',
      '--ruleset',
      'tdc-roulette',
      '--number',
      '17',
      '--bets',
      'straight:17=120',
      '--json',
    );
    expect(status).toBe(0);
    expect(JSON.parse(stdout).bets['straight:17']).toEqual({ stake: 120, net: 3500, returned: 20 });
  });

  it.each([
    [['--bets', 'split:17-19=5'], /bet "split:17-19" is not on the layout/],
    [['--bets', 'straight:17=101'], /over the maximum of 100/],
    [['--bets', 'tiers=6'], /"tiers" is not offered at bulgaria-roulette/],
    [['--bets', 'voisins=10'], /voisins takes 9 chips a unit/],
    [['--bets', 'red=abc'], /whole number of chips/],
    [['--number', '37', '--bets', 'red=1'], /--number "37": no such pocket/],
    [[], /--bets is required/],
  ])('refuses %j with exit 2, naming it, and prints no settlement', (args, message) => {
    const withNumber = args.includes('--number') ? args : ['--number', '17', ...args];
    const { status, stdout, stderr } = cli('hand', '--ruleset', 'bulgaria-roulette', ...withNumber);
    expect(status).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(message);
  });

  it('still asks a card game for its cards, and keeps the two kinds of options apart', () => {
    const { status, stderr } = cli('hand', '--ruleset', 'tdc-blackjack');
    expect(status).toBe(1);
    expect(stderr).toMatch(/--cards is required for tdc-blackjack/);
    const bets = cli('hand', '--ruleset', 'tdc-blackjack', '--cards', 'TS 5H', '--bets', 'red=1');
    expect(bets.status).toBe(1);
    expect(bets.stderr).toMatch(/--number and --bets are for roulette; tdc-blackjack deals cards/);
    const cards = cli(
      'hand',
      '--ruleset',
      'tdc-roulette',
      '--number',
      '3',
      '--bets',
      'red=1',
      '--cards',
      'TS',
    );
    expect(cards.status).toBe(2);
    expect(cards.stderr).toMatch(/--cards: tdc-roulette is roulette/);
  });
});

describe('tableside rulesets with roulette', () => {
  it('lists the roulette rulesets and shows one with its cited rules', () => {
    const list = cli('rulesets', '--json');
    expect(list.status).toBe(0);
    const rows = JSON.parse(list.stdout) as { name: string; game: string }[];
    expect(rows.filter((r) => r.game === 'roulette').map((r) => r.name)).toEqual([
      'bulgaria-roulette',
      'tdc-roulette',
    ]);
    const show = cli('rulesets', 'show', 'bulgaria-roulette', '--json');
    expect(show.status).toBe(0);
    expect(JSON.parse(show.stdout).spin.alternateRotor).toEqual({
      value: true,
      source: '003 § 11(4) (each game the wheel is spun the other way from the previous one)',
    });
  });
});
