import { describe, expect, it } from 'vitest';
import type { DrawStudOutcome } from '../../../../firmware-host/games/cards/poker/draw-stud.ts';
import { createEngine } from '../../../../firmware-host/games/engines.ts';
import { getRuleset } from '../../../../firmware-host/games/rulesets.ts';
import { play, playPartly, variantOf } from './helpers.ts';

const CARIBBEAN = 'bulgaria-caribbean-stud';
const RUSSIAN = 'tdc-russian-poker';

/** One box: five rounds of a card to the box then one to the dealer, then any drawn cards. */
function shoe(box: string, dealer: string, drawn = ''): string {
  const b = box.split(' ');
  const d = dealer.split(' ');
  return [...b.flatMap((card, i) => [card, d[i]!]), drawn].join(' ').trim();
}

// A dealer with ace-king (qualifies) and one without (jack high).
const DEALER_AK = 'AC KD 7H 4S 2D';
const DEALER_NO_GAME = 'JC 9D 7H 4S 2D';

describe('Caribbean stud (003 § 24-26, Caribbean stud)', () => {
  it('deals five cards down to each box, the dealer four down and the fifth up (003 § 24(3))', () => {
    const run = playPartly(CARIBBEAN, shoe('2S 5S 8S JS KS', DEALER_AK));
    const dealer = run.dealt.filter((d) => d.to === 'dealer').map((d) => d.face);
    expect(dealer).toEqual(['down', 'down', 'down', 'down', 'up']);
    expect(run.dealt.filter((d) => d.to === 'box:1').every((d) => d.face === 'down')).toBe(true);
    expect(run.stoppedAt).toMatchObject({
      kind: 'decision',
      options: ['exchange', 'buy', 'raise', 'fold'],
    });
  });

  it('replaces exactly one card for a fee of one Ante (003 § 24(4) item 1)', () => {
    const { outcome } = play<DrawStudOutcome>(
      CARIBBEAN,
      shoe('2S 5S 8S JS KH', DEALER_AK, 'KS'),
      'box1:exchange:4 box1:raise',
    );
    expect(outcome.boxes[0]!.cards).toEqual(['2S', '5S', '8S', 'JS', 'KS']);
    expect(outcome.boxes[0]!.discarded).toEqual(['KH']);
    expect(outcome.bets['box:1.draw']).toBe(-1);
    // Flush against ace-king: Ante 1:1, Raise 5:1 on two Antes.
    expect(outcome.bets).toMatchObject({ 'box:1.ante': 1, 'box:1.raise': 10 });
    const run = () =>
      playPartly(CARIBBEAN, shoe('2S 5S 8S JS KH', DEALER_AK, 'KS'), 'box1:exchange:3,4');
    expect(run).toThrow(/name 1 card position/);
  });

  it('buys a sixth card for one Ante and plays the best five of six (003 § 24(4) item 2)', () => {
    const { outcome } = play<DrawStudOutcome>(
      CARIBBEAN,
      shoe('9S 9H 3C 3D 7S', DEALER_AK, '9D'),
      'box1:buy box1:raise',
    );
    expect(outcome.boxes[0]!.hand.category).toBe('full_house');
    expect(outcome.bets).toMatchObject({ 'box:1.draw': -1, 'box:1.ante': 1, 'box:1.raise': 14 });
  });

  it('a fold loses the Ante (003 § 24(5) item 1)', () => {
    const { outcome } = play<DrawStudOutcome>(
      CARIBBEAN,
      shoe('2S 5H 8S JD KH', DEALER_AK),
      'box1:fold',
    );
    expect(outcome.bets['box:1.ante']).toBe(-1);
    expect(outcome.bets['box:1.raise']).toBeUndefined();
  });

  it('a dealer below ace-king pays the Ante 1:1 and returns the Raise (003 § 24(7)-(8))', () => {
    const { outcome } = play<DrawStudOutcome>(
      CARIBBEAN,
      shoe('2S 2H 8S JD KH', DEALER_NO_GAME),
      'box1:raise',
    );
    expect(outcome.qualifier.dealerQualifies).toBe(false);
    expect(outcome.bets).toMatchObject({ 'box:1.ante': 1, 'box:1.raise': 0 });
  });

  it('pays the Raise by the scheme against a qualifying dealer: two pair 2:1 (003 § 24(7), (9))', () => {
    const { outcome } = play<DrawStudOutcome>(
      CARIBBEAN,
      shoe('2S 2H 8S 8D KH', DEALER_AK),
      'box1:raise',
    );
    expect(outcome.bets).toMatchObject({ 'box:1.ante': 1, 'box:1.raise': 4 });
  });

  it("the dealer's higher hand takes Ante and Raise (003 § 24(10))", () => {
    const { outcome } = play<DrawStudOutcome>(
      CARIBBEAN,
      shoe('QS JH 8S 6D 3H', DEALER_AK),
      'box1:raise',
    );
    expect(outcome.bets).toMatchObject({ 'box:1.ante': -1, 'box:1.raise': -2 });
  });

  it('pays the Bonus on the first five cards, before any replacement (003 § 26(1))', () => {
    const flush = play<DrawStudOutcome>(
      CARIBBEAN,
      shoe('2S 5S 8S JS KS', DEALER_AK, 'AS'),
      'box1:exchange:0 box1:raise',
    );
    expect(flush.outcome.bets['box:1.bonus']).toBe(100);
    const royal = play<DrawStudOutcome>(CARIBBEAN, shoe('TS JS QS KS AS', DEALER_AK), 'box1:raise');
    expect(royal.outcome.bets['box:1.bonus']).toBe(5000);
    const nothing = play<DrawStudOutcome>(
      CARIBBEAN,
      shoe('2S 2H 8S 8D KH', DEALER_AK),
      'box1:raise',
    );
    expect(nothing.outcome.bets['box:1.bonus']).toBe(-1);
  });
});

describe('Russian poker (004 Russian poker)', () => {
  it('plays one to four boxes (004)', () => {
    const engine = createEngine(getRuleset(RUSSIAN));
    expect(() => engine.start({ boxes: [5] })).toThrow(/box 5 does not exist.*1-4/);
  });

  it('exchanges two to five cards for one Ante, never one (004 Exchange and purchase)', () => {
    expect(() => playPartly(RUSSIAN, shoe('2S 5H 8S JD KH', DEALER_AK), 'box1:exchange:0')).toThrow(
      /name 2-5 card positions/,
    );
    const { outcome } = play<DrawStudOutcome>(
      RUSSIAN,
      shoe('2S 5H 8S JD KH', DEALER_AK, 'KS KC'),
      'box1:exchange:0,1 box1:bet box1:no_insurance',
    );
    expect(outcome.boxes[0]!.cards).toEqual(['KS', 'KC', '8S', 'JD', 'KH']);
    expect(outcome.bets['box:1.draw']).toBe(-1);
  });

  it('buys a sixth card for one Ante (004 Exchange and purchase)', () => {
    const { outcome } = play<DrawStudOutcome>(
      RUSSIAN,
      shoe('2S 5H 8S JD KH', DEALER_AK, '2C'),
      'box1:buy box1:bet',
    );
    expect(outcome.boxes[0]!.cards).toHaveLength(6);
    expect(outcome.boxes[0]!.hand.category).toBe('one_pair');
  });

  it('a dark box neither exchanges nor decides; its Bet is in (004)', () => {
    const run = playPartly(RUSSIAN, shoe('QS QH 8S 6D 3H', DEALER_AK), '', { dark: [1] });
    expect(run.stoppedAt).toEqual({ kind: 'complete' });
    const { outcome } = play<DrawStudOutcome>(RUSSIAN, shoe('QS QH 8S 6D 3H', DEALER_AK), '', {
      dark: [1],
    });
    expect(outcome.boxes[0]).toMatchObject({ dark: true, draw: 'none', play: 'play' });
    expect(outcome.bets).toMatchObject({ 'box:1.ante': 0, 'box:1.bet': 2 });
  });

  it('pays the Ante only when the dealer has no game, returning the Bet (004)', () => {
    const { outcome } = play<DrawStudOutcome>(
      RUSSIAN,
      shoe('QS QH 8S 6D 3H', DEALER_NO_GAME),
      'box1:bet box1:check',
    );
    expect(outcome.bets).toMatchObject({ 'box:1.ante': 1, 'box:1.bet': 0 });
  });

  it('the dealer qualifies with ace-king; a higher box wins the Bet by the table and the Ante stays (004)', () => {
    const { outcome } = play<DrawStudOutcome>(
      RUSSIAN,
      shoe('QS QH 8S 6D 3H', DEALER_AK),
      'box1:bet',
    );
    expect(outcome.qualifier.dealerQualifies).toBe(true);
    expect(outcome.bets).toMatchObject({ 'box:1.ante': 0, 'box:1.bet': 2 });
  });

  it('equal hands are a stand off; a lower hand loses Ante and Bet (004)', () => {
    const tie = play<DrawStudOutcome>(
      RUSSIAN,
      shoe('AS KC 7D 4H 2C', DEALER_AK),
      'box1:bet',
    ).outcome;
    expect(tie.bets).toMatchObject({ 'box:1.ante': 0, 'box:1.bet': 0 });
    const lower = play<DrawStudOutcome>(
      RUSSIAN,
      shoe('AS QC 7D 4H 2C', DEALER_AK),
      'box1:bet',
    ).outcome;
    expect(lower.bets).toMatchObject({ 'box:1.ante': -1, 'box:1.bet': -2 });
  });

  it('on five cards pays ace-king as a second combination beside a pair (004)', () => {
    const { outcome } = play<DrawStudOutcome>(
      RUSSIAN,
      shoe('9S 9H AS KD 3H', DEALER_AK),
      'box1:bet',
    );
    expect(outcome.boxes[0]!.combinations.map((c) => c.combination)).toEqual([
      'one_pair',
      'ace_king',
    ]);
    expect(outcome.bets['box:1.bet']).toBe(4);
  });

  it('on six cards pays a second combination with a card outside the first (004)', () => {
    // A flush of hearts and, with the sixth card, a pair of kings.
    const flush = play<DrawStudOutcome>(
      RUSSIAN,
      shoe('2H 5H 8H JH KH', DEALER_AK, 'KS'),
      'box1:buy box1:bet box1:no_insurance',
    );
    expect(flush.outcome.boxes[0]!.combinations.map((c) => c.combination)).toEqual([
      'flush',
      'one_pair',
    ]);
    expect(flush.outcome.bets['box:1.bet']).toBe(2 * (6 + 1));
    // Read literally, a second straight through the other nine holds a card outside the first.
    const straight = play<DrawStudOutcome>(
      RUSSIAN,
      shoe('5S 6H 7D 8C 9H', DEALER_AK, '9S'),
      'box1:buy box1:bet box1:no_insurance',
    );
    expect(straight.outcome.boxes[0]!.combinations.map((c) => c.combination)).toEqual([
      'straight',
      'straight',
    ]);
  });

  it('offers insurance only to a box holding three of a kind or better; it wins when the dealer has no game (004)', () => {
    const pair = playPartly(RUSSIAN, shoe('QS QH 8S 6D 3H', DEALER_AK), 'box1:bet');
    expect(pair.stoppedAt).toEqual({ kind: 'complete' });
    const trips = playPartly(RUSSIAN, shoe('QS QH QD 6D 3H', DEALER_AK), 'box1:bet');
    expect(trips.stoppedAt).toMatchObject({
      kind: 'decision',
      options: ['insurance', 'no_insurance'],
    });
    const lost = play<DrawStudOutcome>(
      RUSSIAN,
      shoe('QS QH QD 6D 3H', DEALER_AK),
      'box1:bet box1:insurance',
    ).outcome;
    expect(lost.bets['box:1.insurance']).toBe(-1);
    const won = play<DrawStudOutcome>(
      RUSSIAN,
      shoe('QS QH QD 6D 3H', DEALER_NO_GAME),
      'box1:bet box1:insurance box1:check',
    ).outcome;
    expect(won.bets['box:1.insurance']).toBe(1);
  });

  it('buying the dealer a game replaces its highest card; the box is settled against the new hand (004)', () => {
    // Dealer J-9-7-4-2 gives back the jack and draws the 9S: a pair of nines, a game.
    const { outcome } = play<DrawStudOutcome>(
      RUSSIAN,
      shoe('QS QH 8S 6D 3H', DEALER_NO_GAME, '9S'),
      'box1:bet box1:buy_dealer_game',
    );
    expect(outcome.dealer.purchase).toMatchObject({
      discarded: ['JC'],
      drawn: ['9S'],
      qualifies: true,
    });
    expect(outcome.boxes[0]!.against).toBe('dealer_after_purchase');
    expect(outcome.bets).toMatchObject({ 'box:1.buy_game': -1, 'box:1.ante': 0, 'box:1.bet': 2 });
  });

  it('redraws once, free, when a card of the same rank comes back without a combination (004)', () => {
    const run = playPartly(
      RUSSIAN,
      shoe('QS QH 8S 6D 3H', DEALER_NO_GAME, 'JH'),
      'box1:bet box1:buy_dealer_game',
    );
    expect(run.stoppedAt).toMatchObject({
      kind: 'card',
      to: 'dealer',
      purpose: expect.stringMatching(/once more, free/),
    });
    const { outcome } = play<DrawStudOutcome>(
      RUSSIAN,
      shoe('QS QH 8S 6D 3H', DEALER_NO_GAME, 'JH 3S'),
      'box1:bet box1:buy_dealer_game',
    );
    expect(outcome.dealer.purchase).toMatchObject({ discarded: ['JC', 'JH'], drawn: ['JH', '3S'] });
    // A different rank coming back is not replaced again.
    const once = play<DrawStudOutcome>(
      RUSSIAN,
      shoe('QS QH 8S 6D 3H', DEALER_NO_GAME, '8H'),
      'box1:bet box1:buy_dealer_game',
    );
    expect(once.outcome.dealer.purchase!.drawn).toEqual(['8H']);
  });

  it('a box declining to buy is settled against the dealer without a game (004)', () => {
    const { outcome } = play<DrawStudOutcome>(
      RUSSIAN,
      'QS 2C JC QH 2S 9D 8S 5H 7H 6D 3C 4S 3H 4D 2D 9S',
      'box1:bet box2:bet box1:check box2:buy_dealer_game',
      { boxes: [1, 2] },
    );
    expect(outcome.boxes[0]).toMatchObject({ against: 'dealer', result: 'dealer_not_qualified' });
    expect(outcome.bets).toMatchObject({ 'box:1.ante': 1, 'box:1.bet': 0 });
    expect(outcome.boxes[1]!.against).toBe('dealer_after_purchase');
  });

  it("caps a box's combinations and insurance at the table maximum payout (004)", () => {
    const ruleset = variantOf(RUSSIAN, {
      payoutLimit: { amount: 500, source: '004 (Russian poker)' },
    });
    // Four queens against ace-king: Bet 2 x 20 = 40 Antes of 100 = 4000, capped to 500.
    const { outcome } = play<DrawStudOutcome>(
      ruleset,
      shoe('QS QH QD QC 3H', DEALER_AK),
      'box1:bet box1:no_insurance',
      {
        stakes: { 'box:1.ante': 100 },
      },
    );
    expect(outcome.boxes[0]!.payoutLimit).toMatchObject({ applied: true, won: 4000 });
    expect(outcome.bets['box:1.bet']! * 100).toBeCloseTo(500, 9);
  });
});
