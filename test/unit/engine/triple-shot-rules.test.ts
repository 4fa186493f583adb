import { describe, expect, it } from 'vitest';
import type { StandardCard } from '../../../device-protocol/cards.ts';
import { parseDecisions, playRound } from '../../../firmware-host/engine/round.ts';
import type { TripleShotRuleset } from '../../../firmware-host/engine/rulesets/schema.ts';
import { createTripleShotEngine } from '../../../firmware-host/games/cards/triple-shot/engine.ts';
import { getRuleset, parseRuleset } from '../../../firmware-host/games/rulesets.ts';

const PERU = getRuleset('peru-triple-shot') as TripleShotRuleset;

function round(
  cards: string,
  actions = '',
  options: { boxes?: number[]; ruleset?: TripleShotRuleset; stakes?: Record<string, number> } = {},
) {
  const engine = createTripleShotEngine(options.ruleset ?? PERU);
  const run = playRound(
    engine,
    { boxes: options.boxes ?? [1], ...(options.stakes ? { stakes: options.stakes } : {}) },
    cards.split(' ') as StandardCard[],
    parseDecisions(actions),
  );
  expect(run.stoppedAt).toEqual({ kind: 'complete' });
  return { outcome: engine.outcome(run.state), dealt: run.dealt };
}

// Position 1: War KH v 7D; blackjack KH 9H = 19 stands, dealer 7D TC = 17;
// poker KH 9H + 2H 5H 3H 8C (flush) v dealer 7D TC 4C 6S JD 2S (jack high).
const FLUSH_ROUND = 'KH 7D 9H TC 2H 5H 3H 8C 4C 6S JD 2S';

describe('Triple Shot rules (000)', () => {
  it('seats at most six positions (000 § 8)', () => {
    const engine = createTripleShotEngine(PERU);
    expect(() => engine.start({ boxes: [7] })).toThrow(/box 7 does not exist.*1-6/);
    expect(engine.start({ boxes: [1, 2, 3, 4, 5, 6] }).positions).toHaveLength(6);
  });

  it("deals War from the dealer's extreme right then the dealer, second cards from the dealer's left, the dealer's face down (000 § 9.a, b)", () => {
    const engine = createTripleShotEngine(PERU);
    const run = playRound(engine, { boxes: [1, 3, 6] }, [
      '2S',
      '3S',
      '4S',
      '5S',
      '6S',
      '7S',
      '8S',
      '9S',
    ] as StandardCard[]);
    expect(run.dealt.map((d) => `${d.to}:${d.face}`)).toEqual([
      'box:6:up',
      'box:3:up',
      'box:1:up',
      'dealer:up',
      'box:1:up',
      'box:3:up',
      'box:6:up',
      'dealer:down',
    ]);
  });

  it('pays the higher War card 1:1, the ace high (000 § 3; § 9.a; § 11)', () => {
    const { outcome } = round(FLUSH_ROUND, 'box1:stand');
    expect(outcome.bets['box:1.war']).toBe(1);
    expect(outcome.positions[0]!.war).toBe('win');
  });

  it('loses half the War bet on a tie (000 § 9.a; § 11)', () => {
    // KH v KD; blackjack KH 9H 19 v KD 7C 17; poker cards follow.
    const { outcome } = round('KH KD 9H 7C 2H 5H 3H 8C 4C 6S JD 2S', 'box1:stand');
    expect(outcome.positions[0]!.war).toBe('tie');
    expect(outcome.bets['box:1.war']).toBe(-0.5);
  });

  it('plays Blackjack on the War card and pays the hand 1:1 (000 § 9.b; § 11)', () => {
    const { outcome } = round(FLUSH_ROUND, 'box1:stand');
    expect(outcome.positions[0]!.blackjack[0]).toMatchObject({ cards: ['KH', '9H'], total: 19 });
    expect(outcome.dealer.blackjack).toMatchObject({ cards: ['7D', 'TC'], total: 17 });
    expect(outcome.bets['box:1.blackjack']).toBe(1);
  });

  it('pays a blackjack 3:2 (000 § 11)', () => {
    // AH v 7D; AH KC blackjack; dealer 7D TC 17.
    const { outcome } = round('AH 7D KC TC 2H 5H 3H 8C 4C 6S JD 2S');
    expect(outcome.bets['box:1.blackjack']).toBe(1.5);
  });

  it("pays insurance 2:1 on the dealer's ace when the dealer makes blackjack (000 § 11)", () => {
    // TH v AS; TH 9C 19; dealer AS KD blackjack.
    const { outcome } = round('TH AS 9C KD 2H 5H 3S 8C 4C 6S JD 2S', 'box1:insurance box1:stand');
    expect(outcome.bets['box:1.insurance']).toBe(2);
    expect(outcome.bets['box:1.blackjack']).toBe(-1);
    expect(outcome.bets['box:1.war']).toBe(-1); // ace high
  });

  it('splits only a pair of aces, once, one card to each (000 § 9.b)', () => {
    // AH v 5D; AH AS split: KH -> 21 (not blackjack), 9S -> 20; dealer 5D TC 3C = 18.
    const { outcome, dealt } = round('AH 5D AS TC KH 9S 3C 2C 7D 4H 8H 6D', 'box1:split');
    const hands = outcome.positions[0]!.blackjack;
    expect(hands.map((h) => [h.total, h.blackjack])).toEqual([
      [21, false],
      [20, false],
    ]);
    expect(outcome.bets['box:1.blackjack']).toBe(1);
    expect(outcome.bets['box:1.blackjack_split']).toBe(1);
    expect(outcome.positions[0]!.cards).toHaveLength(6);
    expect(dealt.filter((d) => d.to === 'box:1')).toHaveLength(6);
    // A pair of eights does not split.
    const engine = createTripleShotEngine(PERU);
    const eights = playRound(engine, { boxes: [1] }, ['8H', '5D', '8S', 'TC'] as StandardCard[]);
    expect(eights.stoppedAt).toMatchObject({
      kind: 'decision',
      options: ['hit', 'stand', 'double'],
    });
  });

  it('pays six cards without busting 1:1 at once, whatever the dealer holds (000 § 9.b; § 11)', () => {
    // 2H v 9D; 2H 3C then hits AC 2D AD 3S = 12 with six cards; dealer 9D 8S = 17.
    const { outcome } = round('2H 9D 3C 8S AC 2D AD 3S KD QD JD TD');
    expect(outcome.positions[0]!.blackjack[0]).toMatchObject({ total: 12, sixCards: true });
    expect(outcome.bets['box:1.blackjack']).toBe(1);
    // The dealer's straight flush 9-K beats the position's poker.
    expect(outcome.dealer.poker.category).toBe('straight_flush');
    expect(outcome.bets['box:1.poker']).toBe(-1);
  });

  it("completes every hand to six cards face up from the dealer's left, then the dealer (000 § 9.c; § 1.i)", () => {
    const { outcome, dealt } = round(FLUSH_ROUND, 'box1:stand');
    expect(outcome.positions[0]!.cards).toHaveLength(6);
    expect(outcome.dealer.cards).toHaveLength(6);
    expect(dealt.slice(4).map((d) => d.to)).toEqual([
      'box:1',
      'box:1',
      'box:1',
      'box:1',
      'dealer',
      'dealer',
      'dealer',
      'dealer',
    ]);
    expect(dealt.slice(4).every((d) => d.face === 'up')).toBe(true);
  });

  it('pays the best five of six by the posted table when it beats the dealer: a flush 5:1 (000 § 9.c; § 11)', () => {
    const { outcome } = round(FLUSH_ROUND, 'box1:stand');
    expect(outcome.positions[0]!.poker).toMatchObject({ category: 'flush', versusDealer: 'win' });
    expect(outcome.positions[0]!.poker.best).toHaveLength(5);
    expect(outcome.bets['box:1.poker']).toBe(5);
  });

  it('counts A-2-3-4-5 as a straight, the ace low (000 § 3; § 4.f)', () => {
    // AH v KD; AH 2C soft 13 stands; dealer KD 7S 17; poker 3D 4S 5H 9C; dealer 8C 8D 6H JS (pair).
    const { outcome } = round('AH KD 2C 7S 3D 4S 5H 9C 8C 8D 6H JS', 'box1:stand');
    expect(outcome.positions[0]!.poker.category).toBe('straight');
    expect(outcome.bets['box:1.poker']).toBe(4);
  });

  it('does not count Q-K-A-2-3 as a straight, and loses a hand lower than the dealer (000 § 4.f; § 10)', () => {
    // QH v 4D; QH KS 20; dealer 4D 9C TD bust; poker AC 2D 3S 7H; dealer 4S 6S 8H (pair of fours).
    const { outcome } = round('QH 4D KS 9C TD AC 2D 3S 7H 4S 6S 8H', 'box1:stand');
    expect(outcome.positions[0]!.poker.category).toBe('high_card');
    expect(outcome.bets['box:1.poker']).toBe(-1);
    expect(outcome.bets['box:1.blackjack']).toBe(1);
  });

  it('pays the Bonus 7:1 when War and Blackjack are won or tied and Poker is won (000 § 9.d; § 11)', () => {
    expect(round(FLUSH_ROUND, 'box1:stand').outcome.bets['box:1.bonus']).toBe(7);
    // War tied, Blackjack and Poker won: still paid.
    const tied = round('KH KD 9H 7C 2H 5H 3H 8C 4C 6S JD 2S', 'box1:stand');
    expect(tied.outcome.bets['box:1.bonus']).toBe(7);
  });

  it('loses the Bonus when any of the three is lost (000 § 9.a-c)', () => {
    const pokerLost = round('QH 4D KS 9C TD AC 2D 3S 7H 4S 6S 8H', 'box1:stand');
    expect(pokerLost.outcome.bets['box:1.bonus']).toBe(-1);
    const warLost = round('2H 9D 3C 8S AC 2D AD 3S KD QD JD TD');
    expect(warLost.outcome.bets['box:1.bonus']).toBe(-1);
  });

  it('pays LIMIT / SUM of every winning when the round exceeds the table maximum (000 § 12; § 13)', () => {
    const limited = parseRuleset({
      ...PERU,
      name: 'peru-limited',
      payoutLimit: { amount: 100, source: '000 § 13' },
    }) as TripleShotRuleset;
    const stakes = { 'box:1.war': 10, 'box:1.blackjack': 10, 'box:1.poker': 10, 'box:1.bonus': 10 };
    const { outcome } = round(FLUSH_ROUND, 'box1:stand', { ruleset: limited, stakes });
    // Unlimited: War 10 + Blackjack 10 + Poker 50 + Bonus 70 = 140 > 100.
    expect(outcome.payoutLimit).toMatchObject({ limit: 100, sum: 140 });
    expect(outcome.payoutLimit!.factor).toBeCloseTo(100 / 140, 12);
    expect(outcome.bets['box:1.poker']).toBeCloseTo(5 * (100 / 140), 12);
    const paid = Object.entries(stakes).reduce(
      (sum, [bet, stake]) => sum + stake * outcome.bets[bet]!,
      0,
    );
    expect(paid).toBeCloseTo(100, 9);
    // Under the limit nothing changes.
    const small = round(FLUSH_ROUND, 'box1:stand', {
      ruleset: limited,
      stakes: { 'box:1.war': 1 },
    });
    expect(small.outcome.bets['box:1.war']).toBe(1);
    expect(small.outcome.payoutLimit).toMatchObject({ sum: 1, factor: 1 });
  });

  it('uses one deck per round, the two back colours alternating between rounds (000 § 2.c.1-c.3)', () => {
    expect(PERU.decks).toMatchObject({ allowed: [1], default: 1 });
    expect(PERU.backs).toMatchObject({
      kind: 'alternating',
      colours: ['red', 'blue'],
      every: 'round',
    });
    expect(PERU.shoeEnd.kind).toBe('reshuffle_every_round');
  });

  it('carries the misdeal procedures of 000 § 14 as data', () => {
    expect(PERU.misdeal.faceUpInShoe).toMatchObject({
      one: 'discard',
      moreThanOne: 'void_all',
      reshuffle: true,
    });
    expect(PERU.misdeal.unexposedCardInError.action).toBe('use_as_next');
    expect(PERU.misdeal.wrongCardCount).toMatchObject({
      box: 'void_all',
      dealer: 'void_all',
      paymentsStand: true,
    });
    expect(PERU.misdeal.dealerCardExposedEarly.action).toBe('void_all');
  });

  it("keeps the dealer's second card hidden in the view until the dealer plays (000 § 9.b)", () => {
    const engine = createTripleShotEngine(PERU);
    const run = playRound(engine, { boxes: [1] }, ['KH', '7D', '9H', 'TC'] as StandardCard[]);
    expect(engine.view(run.state)).toMatchObject({ dealer: { cards: ['7D'], hidden: 1 } });
  });
});
