import { describe, expect, it } from 'vitest';
import type { HoldemBonusOutcome } from '../../../../firmware-host/games/cards/poker/holdem-bonus.ts';
import { createEngine } from '../../../../firmware-host/games/engines.ts';
import { getRuleset } from '../../../../firmware-host/games/rulesets.ts';
import { play, playPartly } from './helpers.ts';

const RULESET = 'spain-holdem-bonus';

/** One box: its two cards, the dealer's two, the five board cards; burns are 2D 3D 4D. */
function shoe(box: string, dealer: string, board: string): string {
  const [b1, b2] = box.split(' ');
  const [d1, d2] = dealer.split(' ');
  const [f1, f2, f3, t, r] = board.split(' ');
  return `${b1} ${d1} ${b2} ${d2} 2D ${f1} ${f2} ${f3} 3D ${t} 4D ${r}`;
}

function round(
  box: string,
  dealer: string,
  board: string,
  actions = 'box1:bet box1:check box1:check',
) {
  return play<HoldemBonusOutcome>(RULESET, shoe(box, dealer, board), actions).outcome;
}

describe("Texas Hold'em Bonus (001)", () => {
  it('seats up to seven boxes (001 § 4)', () => {
    const engine = createEngine(getRuleset(RULESET));
    expect(() => engine.start({ boxes: [8] })).toThrow(/box 8 does not exist.*1-7/);
    expect(() => engine.start({ boxes: [1, 2, 3, 4, 5, 6, 7] })).not.toThrow();
  });

  it("deals face down one by one from the dealer's left, the dealer's first card after the boxes, then a second round (001 Desarrollo del juego)", () => {
    const run = playPartly(RULESET, 'AS KS QS JS TS 9S', '', { boxes: [1, 3] });
    expect(run.dealt.map((d) => `${d.to}:${d.face}`)).toEqual([
      'box:1:down',
      'box:3:down',
      'dealer:down',
      'box:1:down',
      'box:3:down',
      'dealer:down',
    ]);
    expect(run.dealt[2]!.purpose).toMatch(/left spot/);
    expect(run.dealt[5]!.purpose).toMatch(/right spot/);
    expect(run.stoppedAt).toMatchObject({
      kind: 'decision',
      seat: 'box:1',
      options: ['bet', 'fold'],
    });
  });

  it('burns one card face down before the flop, the turn and the river, as burn steps (001 Desarrollo del juego)', () => {
    const { dealt } = play(
      RULESET,
      shoe('AS KS', 'QH JH', '2C 7C 9D TH 3S'),
      'box1:bet box1:check box1:check',
    );
    const burns = dealt.filter((d) => d.to === 'burn');
    expect(burns.map((d) => [d.card, d.face, d.purpose])).toEqual([
      ['2D', 'down', 'burn before the flop'],
      ['3D', 'down', 'burn before the turn'],
      ['4D', 'down', 'burn before the river'],
    ]);
    expect(dealt.filter((d) => d.to === 'board').map((d) => d.card)).toEqual([
      '2C',
      '7C',
      '9D',
      'TH',
      '3S',
    ]);
  });

  it('asks for the Flop bet (2 Antes) or a fold, then Turn and River bet or check, box by box (001 El juego 2)', () => {
    const run = playPartly(RULESET, shoe('AS KS', 'QH JH', '2C 7C 9D TH 3S'), 'box1:bet');
    expect(run.stoppedAt).toMatchObject({
      kind: 'decision',
      seat: 'box:1',
      options: ['bet', 'check'],
    });
    expect(run.stoppedAt.kind === 'decision' && run.stoppedAt.onCard).toBeFalsy();
  });

  it('a fold loses the Ante; when every box folds no board is dealt (001 Desarrollo del juego; 001 § 10)', () => {
    const { outcome, dealt } = play<HoldemBonusOutcome>(RULESET, 'AS 7H KS 2C', 'box1:fold');
    expect(dealt).toHaveLength(4);
    expect(outcome.bets['box:1.ante']).toBe(-1);
    expect(outcome.bets['box:1.flop']).toBeUndefined();
    expect(outcome.boxes[0]!.result).toBe('fold');
  });

  it('lets a box bet the River without having bet the Turn (001 El juego 2, 4ª Apuesta)', () => {
    const outcome = round('AS AD', '7H 2C', 'AH 9C 5D KS QD', 'box1:bet box1:check box1:bet');
    expect(outcome.bets['box:1.turn']).toBeUndefined();
    expect(outcome.bets['box:1.river']).toBe(1);
  });

  it('pays Flop, Turn and River 1:1 and the Ante 1:1 with a straight or better when the box wins (001 § 7)', () => {
    // Box 9-T with 6-7-8 on the board: a straight; dealer a pair of kings.
    const outcome = round('9S TS', 'KH KC', '6D 7C 8H 2S 3C', 'box1:bet box1:bet box1:bet');
    expect(outcome.boxes[0]!.hand!.category).toBe('straight');
    expect(outcome.bets).toMatchObject({
      'box:1.ante': 1,
      'box:1.flop': 2,
      'box:1.turn': 1,
      'box:1.river': 1,
    });
    expect(outcome.winners).toEqual([1]);
  });

  it('does not pay the Ante on a win below a straight: it stays (001 § 7)', () => {
    const outcome = round('AS AD', 'KH QC', '2C 7H 9D 4S JC');
    expect(outcome.boxes[0]!.result).toBe('win');
    expect(outcome.bets['box:1.ante']).toBe(0);
    expect(outcome.bets['box:1.flop']).toBe(2);
  });

  it('pushes every bet on equal hands, suits being equal (001 § 9)', () => {
    // The board plays for both: a broadway straight.
    const outcome = round('2S 3S', '2H 3H', 'TD JC QH KS AC', 'box1:bet box1:bet box1:bet');
    expect(outcome.boxes[0]!.result).toBe('tie');
    expect(outcome.bets).toMatchObject({
      'box:1.ante': 0,
      'box:1.flop': 0,
      'box:1.turn': 0,
      'box:1.river': 0,
    });
  });

  it("takes every bet when the dealer's hand is higher (001 Desarrollo del juego)", () => {
    const outcome = round('2S 7D', 'AH AC', '3C 9H JD 4S KC', 'box1:bet box1:bet box1:check');
    expect(outcome.bets).toMatchObject({ 'box:1.ante': -1, 'box:1.flop': -2, 'box:1.turn': -1 });
  });

  it('shows the dealer first, then box 7 down to box 1 (001 § 5)', () => {
    const { outcome } = play<HoldemBonusOutcome>(
      RULESET,
      'AS KS 7H 2C QS JS 3C 8D',
      'box1:fold box4:fold box7:fold',
      { boxes: [1, 4, 7] },
    );
    expect(outcome.showdownOrder).toEqual(['dealer', 'box:7', 'box:4', 'box:1']);
  });

  describe('the two-card Bonus table (001 Apuesta Especial o Bonus)', () => {
    const cases: [string, string, number][] = [
      ['AS AD', 'AH AC', 1000],
      ['AS AD', 'KH KC', 30],
      ['AS KS', '7H 2C', 25],
      ['AH QH', '7H 2C', 20],
      ['JD AD', '7H 2C', 20],
      ['AS KD', '7H 2C', 15],
      ['KS KD', '7H 2C', 10],
      ['QS QD', '7H 2C', 10],
      ['JS JD', '7H 2C', 10],
      ['AS QD', '7H 2C', 5],
      ['AS JD', '7H 2C', 5],
      ['TS TD', '7H 2C', 3],
      ['2S 2D', '7H 4C', 3],
      ['KS QS', '7H 2C', -1],
      ['AS TS', '7H 2C', -1],
    ];
    for (const [box, dealer, pays] of cases) {
      it(`${box} against a dealer holding ${dealer} settles the Bonus at ${pays}`, () => {
        const { outcome } = play<HoldemBonusOutcome>(
          RULESET,
          `${box.split(' ')[0]} ${dealer.split(' ')[0]} ${box.split(' ')[1]} ${dealer.split(' ')[1]}`,
          'box1:fold',
        );
        expect(outcome.bets['box:1.bonus']).toBe(pays);
      });
    }

    it('settles the Bonus even when the box folds (001: not conditioned on the other bets)', () => {
      const { outcome } = play<HoldemBonusOutcome>(RULESET, 'AS AH AD AC', 'box1:fold');
      expect(outcome.bets['box:1.ante']).toBe(-1);
      expect(outcome.bets['box:1.bonus']).toBe(1000);
    });
  });

  it('carries the two-colour shuffler decks, the burns and the misdeal policy of 001 as ruleset data', () => {
    const ruleset = getRuleset(RULESET);
    expect(ruleset.backs).toMatchObject({ kind: 'alternating', colours: ['red', 'blue'] });
    expect(ruleset.backs.source).toMatch(/Barajador Automatico/);
    expect(ruleset.misdeal.faceUpInShoe).toMatchObject({
      one: 'discard',
      moreThanOne: 'void_all',
      reshuffle: true,
    });
    expect(ruleset.misdeal.unexposedCardInError.action).toBe('use_as_next');
    expect(ruleset.misdeal.wrongCardCount).toMatchObject({
      box: 'void_box',
      dealer: 'void_all_unless_correctable',
    });
    expect(ruleset.misdeal.dealerCardExposedEarly.action).toBe('void_all');
  });

  it('refuses a card while a box decides, and a decision out of turn, naming what is awaited', () => {
    const engine = createEngine(getRuleset(RULESET));
    let state = engine.start({ boxes: [1, 2] });
    for (const card of ['AS', 'KS', 'QS', 'JS', 'TS', '9S'] as const)
      state = engine.deal(state, card);
    expect(() => engine.deal(state, '8S')).toThrow(/box:1 must decide first \(bet, fold\)/);
    expect(() => engine.decide(state, { seat: 'box:2', action: 'bet' })).toThrow(/box:1's turn/);
    expect(() => engine.decide(state, { seat: 'box:1', action: 'check' })).toThrow(
      /not legal now; box:1 may bet, fold/,
    );
    expect(() => engine.outcome(state)).toThrow(/not complete/);
  });
});
