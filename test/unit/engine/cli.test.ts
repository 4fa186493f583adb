/**
 * `tableside rulesets` and `tableside hand`, run as child processes the way
 * a pit supervisor runs them.
 */
import { describe, expect, it } from 'vitest';
import { runCliSync } from '../../helpers/cli.ts';

const cli = (...args: string[]) => runCliSync(args, { timeout: 20_000 });

describe('tableside rulesets', () => {
  it('lists names, game and jurisdiction', () => {
    const { status, stdout } = cli('rulesets');
    expect(status).toBe(0);
    expect(stdout).toMatch(/^NAME\s+GAME\s+JURISDICTION/);
    expect(stdout).toMatch(/tdc-blackjack\s+blackjack\s+Tigre de Cristal/);
    expect(stdout).toMatch(/peru-triple-shot\s+triple-shot\s+Peru/);
  });

  it('shows one ruleset as JSON with its policies and sources', () => {
    const { status, stdout } = cli('rulesets', 'show', 'bulgaria-punto-banco', '--json');
    expect(status).toBe(0);
    const ruleset = JSON.parse(stdout);
    expect(ruleset).toMatchObject({
      name: 'bulgaria-punto-banco',
      game: 'punto-banco',
      shoeEnd: { kind: 'last_hand_marker', marker: 'joker', coupsAfter: 1 },
      payouts: { banker: { win: 0.95 } },
    });
    expect(ruleset.sources.maxCardsPerCoup).toBe('003 § 24 item 5');
  });

  it('shows one ruleset as text', () => {
    const { status, stdout } = cli('rulesets', 'show', 'peru-triple-shot');
    expect(status).toBe(0);
    expect(stdout).toContain('name: peru-triple-shot');
    expect(stdout).toContain('000 § 14.a');
  });

  it('names the known rulesets for an unknown one, exit 1', () => {
    const { status, stderr } = cli('rulesets', 'show', 'nope');
    expect(status).toBe(1);
    expect(stderr).toContain('unknown ruleset "nope"');
    expect(stderr).toContain('tdc-baccarat-no-commission');
  });
});

describe('tableside hand', () => {
  it('settles a baccarat coup as JSON in the documented shape', () => {
    const { status, stdout } = cli(
      'hand',
      '--ruleset',
      'tdc-baccarat-no-commission',
      '--cards',
      '9H 2C TD 7S',
      '--json',
    );
    expect(status).toBe(0);
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({
      winner: 'tie',
      player: { cards: ['9H', 'TD'], total: 9, natural: true },
      banker: { cards: ['2C', '7S'], total: 9, natural: true },
      bets: {
        player: 0,
        banker: 0,
        tie: 8,
        dragon_player: 0,
        dragon_banker: 0,
        player_pair: -1,
        banker_pair: -1,
      },
    });
  });

  it('prints who got which card, totals, the winner and every bet as text', () => {
    const { status, stdout } = cli(
      'hand',
      '--ruleset',
      'monaco-punto-2000',
      '--cards',
      '3S 6H KD KC 2D',
    );
    expect(status).toBe(0);
    expect(stdout).toMatch(/5\s+2D\s+player\s+player third card/);
    expect(stdout).toMatch(/banker\s+6H KC\s+total 6/);
    expect(stdout).toMatch(/winner\s+banker/);
    expect(stdout).toMatch(/banker\s+\+0\.5/);
  });

  it('says what the next card is for when the cards run out', () => {
    const { status, stderr } = cli(
      'hand',
      '--ruleset',
      'bulgaria-punto-banco',
      '--cards',
      '3H 2C TD 4S',
    );
    expect(status).toBe(1);
    expect(stderr).toContain('the next card is for player (player third card (player 3 draws))');
  });

  it('names a card the rules give to nobody', () => {
    const { status, stderr } = cli(
      'hand',
      '--ruleset',
      'bulgaria-punto-banco',
      '--cards',
      '9H 2C TD 4S 5S',
    );
    expect(status).toBe(1);
    expect(stderr).toContain('card 5S (number 5): the rules give it to nobody');
  });

  it('plays blackjack boxes with decisions, inferring hits from cards', () => {
    const { status, stdout } = cli(
      'hand',
      '--ruleset',
      'tdc-blackjack',
      '--boxes',
      '1,2',
      '--cards',
      'TS 5H 6D 5C 7S 9H 3H TC',
      '--actions',
      'box1:stand box2:double',
      '--json',
    );
    expect(status).toBe(0);
    const result = JSON.parse(stdout);
    // Box 2: 5 7 doubles, gets 9 -> 21; dealer 6 3 T -> 19.
    expect(result.bets).toEqual({ 'box:1.main': -1, 'box:2.main': 2 });
    expect(result.dealt[5]).toMatchObject({
      card: '9H',
      to: 'box:2',
      purpose: 'box 2 double card',
    });
  });

  it('asks for the decision awaited, naming the options', () => {
    const { status, stderr } = cli('hand', '--ruleset', 'tdc-blackjack', '--cards', 'TS 6D 9C');
    expect(status).toBe(1);
    expect(stderr).toContain('box:1 hand 1 must decide: hit, stand, double, surrender');
  });

  it('rejects a bad card code and an illegal decision with a clear message', () => {
    const bad = cli('hand', '--ruleset', 'tdc-blackjack', '--cards', 'TS 6X');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('bad card code "6X"');
    const illegal = cli(
      'hand',
      '--ruleset',
      'tdc-blackjack',
      '--cards',
      'TS 6D 9C',
      '--actions',
      'box1:split',
    );
    expect(illegal.status).toBe(1);
    expect(illegal.stderr).toContain('box:1 split: not legal now');
  });

  it('applies the Triple Shot payout limit from --stakes', () => {
    const { status, stdout } = cli(
      'hand',
      '--ruleset',
      'peru-triple-shot',
      '--cards',
      'KH 7D 9H TC 2H 5H 3H 8C 4C 6S JD 2S',
      '--actions',
      'box1:stand',
      '--stakes',
      'box:1.war=10 box:1.poker=10',
      '--json',
    );
    expect(status).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.bets).toMatchObject({ 'box:1.war': 1, 'box:1.poker': 5, 'box:1.bonus': 7 });
    expect(result.positions[0].poker.category).toBe('flush');
  });
});
