import { describe, expect, it } from 'vitest';
import type { CasinoHoldemRuleset } from '../../../../firmware-host/engine/rulesets/poker.ts';
import type { CasinoHoldemOutcome } from '../../../../firmware-host/games/cards/poker/casino-holdem.ts';
import { createEngine } from '../../../../firmware-host/games/engines.ts';
import { getRuleset } from '../../../../firmware-host/games/rulesets.ts';
import { play, playPartly, variantOf } from './helpers.ts';

const RULESET = 'tdc-casino-holdem';

/** One box: its two cards, the dealer's two, the flop, then turn and river. */
function shoe(box: string, dealer: string, board: string): string {
  const [b1, b2] = box.split(' ');
  const [d1, d2] = dealer.split(' ');
  return `${b1} ${d1} ${b2} ${d2} ${board}`;
}

function round(box: string, dealer: string, board: string, actions = 'box1:bet') {
  return play<CasinoHoldemOutcome>(RULESET, shoe(box, dealer, board), actions).outcome;
}

describe("Casino Texas Hold'em (004 Texas Hold'em)", () => {
  it('plays one to seven boxes (004)', () => {
    const engine = createEngine(getRuleset(RULESET));
    expect(() => engine.start({ boxes: [8] })).toThrow(/box 8 does not exist.*1-7/);
    expect(() => engine.start({ boxes: [] })).toThrow(/at least 1/);
  });

  it('deals two cards face down to each box and the dealer and the flop face up before the Call decision (004)', () => {
    const run = playPartly(RULESET, 'AS KS QS JS TS 9S 8S', '');
    expect(run.dealt.map((d) => `${d.to}:${d.face}`)).toEqual([
      'box:1:down',
      'dealer:down',
      'box:1:down',
      'dealer:down',
      'board:up',
      'board:up',
      'board:up',
    ]);
    expect(run.stoppedAt).toMatchObject({
      kind: 'decision',
      seat: 'box:1',
      options: ['bet', 'fold'],
    });
  });

  it('a fold loses the Ante and ends the round when every box folds (004)', () => {
    const { outcome, dealt } = play<CasinoHoldemOutcome>(
      RULESET,
      'AS 7H KS 2C 3D 8C 9S',
      'box1:fold',
    );
    expect(dealt).toHaveLength(7);
    expect(outcome.bets['box:1.ante']).toBe(-1);
    expect(outcome.bets['box:1.call']).toBeUndefined();
  });

  it('the dealer qualifies with a pair of fours: a pair of threes does not (004)', () => {
    // Dealer 3-3: the Call is returned, the Ante paid by the table (pair 1:1).
    const outcome = round('AS AD', '3H 3C', '2C 7H 9D 5S JC');
    expect(outcome.qualifier).toEqual({
      description: 'a pair of fours or better',
      dealerQualifies: false,
    });
    expect(outcome.boxes[0]!.result).toBe('dealer_not_qualified');
    expect(outcome.bets).toMatchObject({ 'box:1.ante': 1, 'box:1.call': 0 });
  });

  it('a pair of fours qualifies; a higher box wins the Call 1:1 (2 Antes) and the Ante by the table (004)', () => {
    // Box flush (Ante 2:1 on the practice table) against the dealer's fours.
    const outcome = round('AH KH', '4S 4C', '2H 7H 9H 5S JC');
    expect(outcome.qualifier.dealerQualifies).toBe(true);
    expect(outcome.boxes[0]!.hand!.category).toBe('flush');
    expect(outcome.bets).toMatchObject({ 'box:1.ante': 2, 'box:1.call': 2 });
  });

  it('equal hands are a stand off (004)', () => {
    const outcome = round('2S 3S', '2H 3H', 'TD JC QH KS AC');
    expect(outcome.bets).toMatchObject({ 'box:1.ante': 0, 'box:1.call': 0 });
  });

  it("a hand lower than the qualifying dealer's loses Ante and Call (004)", () => {
    const outcome = round('2S 7D', 'AH AC', '3C 9H JD 4S KC');
    expect(outcome.bets).toMatchObject({ 'box:1.ante': -1, 'box:1.call': -2 });
  });

  it("pays the Bonus on the box's two cards and the flop from three of a kind (004)", () => {
    expect(round('7S 7D', 'AH AC', '7C 9H JD 4S KC').bets['box:1.bonus']).toBe(7);
    // Two pair on the first five cards loses the Bonus, whatever the turn and river bring.
    expect(round('7S 9D', 'AH AC', '7C 9H 2D 7H KC').bets['box:1.bonus']).toBe(-1);
    // The Bonus is a separate bet: paid on a fold too.
    const folded = play<CasinoHoldemOutcome>(
      RULESET,
      shoe('7S 7D', 'AH AC', '7C 9H 7H'),
      'box1:fold',
    ).outcome;
    expect(folded.bets['box:1.bonus']).toBe(40);
  });

  it('pays the Ante by a configurable table (004: Таблица Выплат)', () => {
    const base = getRuleset(RULESET) as CasinoHoldemRuleset;
    const ruleset = variantOf(RULESET, {
      ante: { ...base.ante, table: { ...base.ante.table, flush: 3 } },
    });
    const { outcome } = play<CasinoHoldemOutcome>(
      ruleset,
      shoe('AH KH', '4S 4C', '2H 7H 9H 5S JC'),
      'box1:bet',
    );
    expect(outcome.bets['box:1.ante']).toBe(3);
  });

  it('a dark box has its Call in before the deal and makes no decision (004)', () => {
    const { outcome } = play<CasinoHoldemOutcome>(
      RULESET,
      shoe('AH KH', '4S 4C', '2H 7H 9H 5S JC'),
      '',
      { dark: [1] },
    );
    expect(outcome.boxes[0]).toMatchObject({ dark: true, call: 'bet' });
    expect(outcome.bets['box:1.call']).toBe(2);
    const engine = createEngine(getRuleset(RULESET));
    expect(() => engine.start({ boxes: [1], dark: [2] })).toThrow(/dark box 2 is not in play/);
  });

  it("caps a box's winnings at the table maximum payout when the stakes are given (004)", () => {
    const ruleset = variantOf(RULESET, {
      payoutLimit: { amount: 150, source: "004 (Texas Hold'em)" },
    });
    // Royal flush: Ante 100:1 and Call 2: 102 Antes of 10 = 1020, capped to 150.
    const { outcome } = play<CasinoHoldemOutcome>(
      ruleset,
      shoe('AH KH', '4S 4C', 'QH JH TH 5S 2C'),
      'box1:bet',
      {
        stakes: { 'box:1.ante': 10 },
      },
    );
    expect(outcome.boxes[0]!.payoutLimit).toMatchObject({ applied: true, won: 1020 });
    const paid = (outcome.bets['box:1.ante']! + outcome.bets['box:1.call']!) * 10;
    expect(paid).toBeCloseTo(150, 9);
  });
});
