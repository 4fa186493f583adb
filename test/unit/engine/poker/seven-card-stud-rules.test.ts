import { describe, expect, it } from 'vitest';
import { dealInferred } from '../../../../firmware-host/engine/round.ts';
import type { SevenCardStudRuleset } from '../../../../firmware-host/engine/rulesets/poker.ts';
import type { SevenCardStudOutcome } from '../../../../firmware-host/games/cards/poker/seven-card-stud.ts';
import { createEngine } from '../../../../firmware-host/games/engines.ts';
import { getRuleset } from '../../../../firmware-host/games/rulesets.ts';
import { cards, play, playPartly, variantOf } from './helpers.ts';

const STUD = 'bulgaria-seven-card-stud';

// Player 1: A A down, 9 9 2 3 up, K down (two pair); player 2: K K down, 4 5 7 8 up, J down (a pair of kings).
const SHOWDOWN = 'AS KS AH KH 9S 4C 9H 5D 2C 7C 3D 8D KC JC';
// Round 1 opened by player 2 (4C, the lowest up card); later rounds by player 1 (the nines).
const CHECKED_THROUGH =
  'box2:bet box1:bet box1:check box2:check box1:check box2:check box1:check box2:check box1:check box2:check';

describe('Seven-card stud (003 § 27-28)', () => {
  it('needs at least two players, who play each other, and seats at most seven (003 § 27)', () => {
    const engine = createEngine(getRuleset(STUD));
    expect(() => engine.start({ boxes: [1] })).toThrow(/at least 2/);
    expect(() => engine.start({ boxes: [1, 8] })).toThrow(/player 8 does not exist/);
    expect(engine.start({})).toMatchObject({ players: [{ box: 1 }, { box: 2 }] });
  });

  it("deals two down and one up from the dealer's left, then four up and the last down (003 § 28(1), (2), (9))", () => {
    const { dealt } = play(STUD, SHOWDOWN, CHECKED_THROUGH, { boxes: [1, 2] });
    expect(dealt.slice(0, 6).map((d) => `${d.to}:${d.face}`)).toEqual([
      'box:1:down',
      'box:2:down',
      'box:1:down',
      'box:2:down',
      'box:1:up',
      'box:2:up',
    ]);
    const faces = dealt.filter((d) => d.to === 'box:1').map((d) => d.face);
    expect(faces).toEqual(['down', 'down', 'up', 'up', 'up', 'up', 'down']);
  });

  it('the lowest up card opens the first round, which it must open with a bet (003 § 28(3))', () => {
    const run = playPartly(STUD, 'AS KS AH KH 9S 4C', '', { boxes: [1, 2] });
    expect(run.stoppedAt).toMatchObject({ kind: 'decision', seat: 'box:2', options: ['bet'] });
  });

  it('the best up cards open the later rounds, where checking is allowed (003 § 28(7), (8))', () => {
    const run = playPartly(STUD, 'AS KS AH KH 9S 4C 9H 5D', 'box2:bet box1:bet', { boxes: [1, 2] });
    expect(run.stoppedAt).toMatchObject({
      kind: 'decision',
      seat: 'box:1',
      options: ['check', 'bet', 'fold'],
    });
  });

  it('five betting rounds, then the best five of seven takes the pot (003 § 28(9), (10), (12))', () => {
    const { outcome } = play<SevenCardStudOutcome>(STUD, SHOWDOWN, CHECKED_THROUGH, {
      boxes: [1, 2],
    });
    expect(outcome.rounds).toBe(5);
    expect(outcome.showdown).toBe(true);
    expect(outcome.players[0]!.hand!.category).toBe('two_pair');
    expect(outcome.players[0]!.hand!.best).toHaveLength(5);
    expect(outcome.winners).toEqual([1]);
    expect(outcome.bets).toEqual({ 'box:1.pot': 1, 'box:2.pot': 0 });
  });

  it('equal hands share the pot (003 § 28(13))', () => {
    const shoe = 'AS AH KS KH QS QH JD JC 9C 9D 7H 7S 5D 5C';
    const actions = `box1:bet box2:bet ${'box1:check box2:check '.repeat(4)}`;
    const { outcome } = play<SevenCardStudOutcome>(STUD, shoe, actions, { boxes: [1, 2] });
    expect(outcome.winners).toEqual([1, 2]);
    expect(outcome.bets).toEqual({ 'box:1.pot': 0.5, 'box:2.pot': 0.5 });
  });

  it('a raise re-opens the round; a fold takes the player out, and the last player takes the pot at once (003 § 28(5), (6), (11))', () => {
    const raised = playPartly(STUD, 'AS KS AH KH 9S 4C', 'box2:bet box1:raise', { boxes: [1, 2] });
    expect(raised.stoppedAt).toMatchObject({
      kind: 'decision',
      seat: 'box:2',
      options: ['fold', 'bet', 'raise'],
    });
    const { outcome, dealt } = play<SevenCardStudOutcome>(
      STUD,
      'AS KS AH KH 9S 4C',
      'box2:bet box1:raise box2:fold',
      {
        boxes: [1, 2],
      },
    );
    expect(dealt).toHaveLength(6);
    expect(outcome).toMatchObject({ showdown: false, winners: [1] });
    expect(outcome.players[1]!.folded).toBe(true);
  });

  it('deals later streets only to players still in (003 § 28(5) item 1)', () => {
    const run = playPartly(
      STUD,
      'AS KS 2S AH KH 2H 9S 4C 3D 9H 5D',
      'box3:bet box1:bet box2:fold',
      { boxes: [1, 2, 3] },
    );
    expect(run.dealt.slice(9).map((d) => d.to)).toEqual(['box:1', 'box:3']);
  });

  it('bounds the raises in a round by the ruleset (practice)', () => {
    const run = playPartly(STUD, 'AS KS AH KH 9S 4C', 'box2:bet box1:raise box2:raise box1:raise', {
      boxes: [1, 2],
    });
    expect(run.stoppedAt).toMatchObject({
      kind: 'decision',
      seat: 'box:2',
      options: ['fold', 'bet'],
    });
  });

  it('a card drawn while players are to act stands for their checks or calls', () => {
    const engine = createEngine(getRuleset(STUD));
    let state = engine.start({ boxes: [1, 2] });
    for (const card of cards('AS KS AH KH 9S 4C')) state = engine.deal(state, card);
    state = engine.decide(state, { seat: 'box:2', action: 'bet' });
    expect(engine.next(state)).toMatchObject({ seat: 'box:1', onCard: 'bet' });
    state = dealInferred(engine, state, '9H');
    expect(engine.next(state)).toMatchObject({ kind: 'card', to: 'box:2' });
  });

  it('takes a commission of 3-5 % of each pot under pot limit (003 § 28(17) item 2, (19))', () => {
    const { outcome } = play<SevenCardStudOutcome>(STUD, SHOWDOWN, CHECKED_THROUGH, {
      boxes: [1, 2],
      stakes: { pot: 1000 },
    });
    expect(outcome.commission).toMatchObject({
      kind: 'percentage',
      percent: 5,
      amount: 50,
      payouts: { 'box:1': 950 },
    });
    expect(() =>
      variantOf(STUD, {
        commission: { ...(getRuleset(STUD) as SevenCardStudRuleset).commission, percent: 7 },
      }),
    ).toThrow(/allowed band/);
  });

  it('takes the minimum bet per hand under split maximum (003 § 28(17) item 1, (18))', () => {
    const ruleset = variantOf(STUD, {
      commission: {
        kind: 'fixed',
        variant: 'split_maximum',
        amount: 'minimum_bet',
        source: '003 § 28(18)',
      },
    });
    const { outcome } = play<SevenCardStudOutcome>(ruleset, SHOWDOWN, CHECKED_THROUGH, {
      boxes: [1, 2],
      stakes: { pot: 1000, minimum_bet: 10 },
    });
    expect(outcome.commission).toMatchObject({
      kind: 'fixed',
      amount: 10,
      payouts: { 'box:1': 990 },
    });
  });
});
