import { describe, expect, it } from 'vitest';
import type { StandardCard } from '../../../device-protocol/cards.ts';
import { isEngineError } from '../../../firmware-host/engine/errors.ts';
import { dealInferred, parseDecisions, playRound } from '../../../firmware-host/engine/round.ts';
import type { BlackjackRuleset } from '../../../firmware-host/engine/rulesets/schema.ts';
import {
  type BlackjackOutcome,
  type BlackjackState,
  createBlackjackEngine,
} from '../../../firmware-host/games/cards/blackjack/engine.ts';
import {
  blackjackTotal,
  dealerMustDraw,
} from '../../../firmware-host/games/cards/blackjack/hand.ts';
import { getRuleset, parseRuleset } from '../../../firmware-host/games/rulesets.ts';

const TDC = getRuleset('tdc-blackjack') as BlackjackRuleset;
const BULGARIA = getRuleset('bulgaria-blackjack') as BlackjackRuleset;

function variant(base: BlackjackRuleset, change: Partial<BlackjackRuleset>): BlackjackRuleset {
  return parseRuleset({ ...base, name: `${base.name}-variant`, ...change }) as BlackjackRuleset;
}

function play(
  ruleset: BlackjackRuleset,
  boxes: number[],
  cards: string,
  actions = '',
): { outcome: BlackjackOutcome; dealt: ReturnType<typeof playRound<BlackjackState>>['dealt'] } {
  const engine = createBlackjackEngine(ruleset);
  const run = playRound(
    engine,
    { boxes },
    cards.split(' ') as StandardCard[],
    parseDecisions(actions),
  );
  expect(run.stoppedAt).toEqual({ kind: 'complete' });
  return { outcome: engine.outcome(run.state), dealt: run.dealt };
}

function partial(ruleset: BlackjackRuleset, boxes: number[], cards: string, actions = '') {
  const engine = createBlackjackEngine(ruleset);
  return playRound(engine, { boxes }, cards.split(' ') as StandardCard[], parseDecisions(actions));
}

describe('Blackjack rules (003 § 14-23; 004)', () => {
  it('deals a card to each box from box 1, one face up to the dealer, then the second card to each box, with no hole card (004; 003 § 15(4))', () => {
    const run = partial(TDC, [3, 1, 5], 'TS 9H 8D 6C 7S 5H 4D');
    expect(run.dealt.map((d) => `${d.to}:${d.face}`)).toEqual([
      'box:1:up',
      'box:3:up',
      'box:5:up',
      'dealer:up',
      'box:1:up',
      'box:3:up',
      'box:5:up',
    ]);
    expect(run.stoppedAt).toMatchObject({ kind: 'decision', seat: 'box:1', onCard: 'hit' });
  });

  it('gives the dealer a hole card face down in the hole-card variant, and ends the round on a dealer blackjack', () => {
    const holeCard = variant(TDC, {
      dealOrder: 'boxes_dealer_boxes_hole',
      insurance: null,
      evenMoney: null,
    });
    const { outcome, dealt } = play(holeCard, [1], 'TS AD 9C KH');
    expect(dealt.at(-1)).toMatchObject({ to: 'dealer', face: 'down' });
    expect(outcome.dealer.blackjack).toBe(true);
    expect(outcome.bets['box:1.main']).toBe(-1);
  });

  it('keeps the hole card out of the view while the boxes play, and shows it once the dealer plays', () => {
    const holeCard = variant(TDC, {
      dealOrder: 'boxes_dealer_boxes_hole',
      insurance: null,
      evenMoney: null,
    });
    const engine = createBlackjackEngine(holeCard);
    let state = engine.start({ boxes: [1] });
    for (const card of ['TS', '6D', '9C', 'KH'] as StandardCard[]) state = engine.deal(state, card);
    expect(engine.next(state)).toMatchObject({ kind: 'decision', seat: 'box:1' });
    const playing = engine.view(state) as { dealer: { cards: string[]; hidden?: number } };
    expect(playing.dealer.cards).toEqual(['6D']);
    expect(playing.dealer.hidden).toBe(1);
    expect(JSON.stringify(playing)).not.toContain('KH');
    state = engine.decide(state, { seat: 'box:1', action: 'stand' });
    const shown = engine.view(state) as { dealer: { cards: string[]; hidden?: number } };
    expect(shown.dealer.cards).toEqual(['6D', 'KH']);
    expect(shown.dealer.hidden).toBeUndefined();
  });

  it('has the dealer draw to 16 and stand on 17 (003 § 15(6); 004)', () => {
    const { outcome } = play(TDC, [1], 'TS 6D 9C TH 5S', 'box1:stand'); // dealer 6+10=16 draws 5 -> 21
    expect(outcome.dealer.cards).toEqual(['6D', 'TH', '5S']);
    expect(outcome.bets['box:1.main']).toBe(-1);
    const seventeen = play(TDC, [1], 'TS 7D 9C TH', 'box1:stand'); // 17 stands
    expect(seventeen.outcome.dealer.cards).toHaveLength(2);
    expect(seventeen.outcome.bets['box:1.main']).toBe(1);
  });

  it('stands on soft 17 by default and hits it when hitSoft17 is set (003 § 15(6); option)', () => {
    expect(dealerMustDraw(['AS', '6D'], false)).toBe(false);
    expect(dealerMustDraw(['AS', '6D'], true)).toBe(true);
    const hits = variant(TDC, { dealer: { hitSoft17: true, source: 'practice: test' } });
    const { outcome } = play(hits, [1], 'TS AD 9C 6H 3S', 'box1:no_insurance box1:stand'); // soft 17 draws 3 -> 20
    expect(outcome.dealer.total).toBe(20);
  });

  it('pays blackjack 3:2 (003 § 16(1); 004)', () => {
    const { outcome } = play(TDC, [1], 'AS 9D KC'); // dealer 9: paid at once, dealer draws nothing
    expect(outcome.bets['box:1.main']).toBe(1.5);
    expect(outcome.dealer.cards).toEqual(['9D']);
  });

  it("pushes a player's blackjack against the dealer's blackjack (003 § 16(1); 004 even money)", () => {
    const { outcome } = play(TDC, [1], 'AS TD KC AH'); // no even money on a ten at TDC
    expect(outcome.dealer.blackjack).toBe(true);
    expect(outcome.bets['box:1.main']).toBe(0);
  });

  it('pays even money 1:1 on a blackjack against a dealer ace and takes the cards (004)', () => {
    const { outcome } = play(
      TDC,
      [1, 2],
      'AS 9H AD KC 9S TD',
      'box1:even_money box2:no_insurance box2:stand',
    );
    expect(outcome.bets['box:1.main']).toBe(1);
    expect(outcome.boxes[0]!.hands[0]!.evenMoney).toBe(true);
  });

  it('offers even money on a ten at Bulgaria too (003 § 17(1)), not at TDC (004)', () => {
    const bulgaria = partial(BULGARIA, [1], 'AS KD TC');
    expect(bulgaria.stoppedAt).toMatchObject({
      kind: 'decision',
      options: ['even_money', 'no_insurance'],
    });
    const tdc = partial(TDC, [1], 'AS KD TC');
    expect(tdc.stoppedAt.kind).toBe('card'); // dealer's second card: no decision
  });

  it('pays insurance 2:1 when the dealer makes blackjack, and loses it otherwise (004; 003 § 18(1), (4))', () => {
    const won = play(TDC, [1], 'TS AD 9C KH', 'box1:insurance box1:stand');
    expect(won.outcome.bets['box:1.insurance']).toBe(2);
    expect(won.outcome.bets['box:1.main']).toBe(-1);
    const lost = play(TDC, [1], 'TS AD 9C 7H', 'box1:insurance box1:stand'); // dealer soft 18
    expect(lost.outcome.bets['box:1.insurance']).toBe(-1);
    expect(lost.outcome.bets['box:1.main']).toBe(1);
  });

  it('offers insurance only on a dealer ace at TDC (004) but on a ten or picture too in Bulgaria (003 § 18(1))', () => {
    expect(partial(TDC, [1], 'TS KD 9C').stoppedAt).toMatchObject({
      options: ['hit', 'stand', 'double', 'surrender'],
    });
    expect(partial(BULGARIA, [1], 'TS KD 9C').stoppedAt).toMatchObject({
      options: ['insurance', 'no_insurance'],
    });
  });

  it('offers the second Bulgarian insurance form as an option: on a 7 to ace, against a ten-value draw (003 § 18(2))', () => {
    const wide = variant(BULGARIA, {
      insurance: {
        form: 'dealer_ten_value',
        on: ['7', '8', '9', 'T', 'J', 'Q', 'K', 'A'],
        pays: 2,
        source: '003 § 18(2)',
      },
    });
    const { outcome } = play(wide, [1], 'TS 7D 9C QH', 'box1:insurance box1:stand');
    expect(outcome.bets['box:1.insurance']).toBe(2);
    expect(outcome.bets['box:1.main']).toBe(1); // 19 against 17
  });

  it('doubles on any two cards for one card only (003 § 20; 004)', () => {
    const { outcome, dealt } = play(TDC, [1], '5S 6D 4C 9H TS 7D', 'box1:double'); // 9 doubles, gets 9 -> 18
    expect(dealt.filter((d) => d.to === 'box:1')).toHaveLength(3);
    expect(outcome.boxes[0]!.hands[0]).toMatchObject({ doubled: true, total: 18 });
    expect(outcome.bets['box:1.main']).toBe(2); // dealer 6+T+7 = 23
  });

  it('does not double on 21 at TDC, so not on ace and ten after a split (004); Bulgaria doubles any two (003 § 20)', () => {
    const noStand = { standOn21: { value: false, source: 'practice: test' } };
    const tdc = variant(TDC, { ...noStand, split: { ...TDC.split, aceOneCard: false } });
    const tdcRun = partial(tdc, [1], 'AS 6D AC TH', 'box1:split');
    expect(tdcRun.stoppedAt).toMatchObject({ kind: 'decision', options: ['hit', 'stand'] });
    const bulgaria = variant(BULGARIA, noStand);
    const bulgarianRun = partial(bulgaria, [1], 'AS 6D AC TH', 'box1:split');
    expect(bulgarianRun.stoppedAt).toMatchObject({
      kind: 'decision',
      options: expect.arrayContaining(['double']),
    });
    // As shipped, a 21 takes no more cards (004): split aces with a ten stop at once.
    expect(partial(TDC, [1], 'AS 6D AC TH KD', 'box1:split').stoppedAt).toMatchObject({
      to: 'dealer',
    });
  });

  it('counts ace and ten after a split as 21, not blackjack, paid 1:1 (004; 003 § 21(3))', () => {
    const { outcome } = play(TDC, [1], 'AS 9D AC KH 7S TC', 'box1:split'); // dealer 9+T=19
    expect(outcome.boxes[0]!.hands.map((h) => [h.total, h.blackjack])).toEqual([
      [21, false],
      [18, false],
    ]);
    expect(outcome.bets['box:1.main']).toBe(1);
    expect(outcome.bets['box:1.split1']).toBe(-1);
  });

  it('gives split aces one card each at TDC (004)', () => {
    const run = partial(TDC, [1], 'AS 6D AC 5H', 'box1:split');
    expect(run.stoppedAt).toMatchObject({ kind: 'card', to: 'box:1', hand: 1 });
  });

  it('allows up to 3 splits per box at TDC (004)', () => {
    // 8 8, split; first hand 8 8 split again; 8 8 again; the fourth 8 pair cannot split.
    const run = partial(TDC, [1], '8S 6D 8C 8H 8D 8S', 'box1:split box1:split box1:split');
    expect(run.stoppedAt).toMatchObject({ kind: 'decision', seat: 'box:1', hand: 0 });
    if (run.stoppedAt.kind !== 'decision') throw new Error('expected a decision');
    expect(run.stoppedAt.options).not.toContain('split');
    expect(run.stoppedAt.options).toContain('double');
  });

  it('splits by rank at TDC (004) and by value in Bulgaria (003 § 21(1))', () => {
    const tdc = partial(TDC, [1], 'KS 6D QC');
    if (tdc.stoppedAt.kind !== 'decision') throw new Error('expected a decision');
    expect(tdc.stoppedAt.options).not.toContain('split');
    const bulgaria = partial(BULGARIA, [1], 'KS 6D QC');
    if (bulgaria.stoppedAt.kind !== 'decision') throw new Error('expected a decision');
    expect(bulgaria.stoppedAt.options).toContain('split');
  });

  it('re-splits and doubles after a split in Bulgaria, split aces drawing freely (003 § 21(1), (2))', () => {
    const { outcome } = play(
      BULGARIA,
      [1],
      'AS 6D AC AH 2S 5C 9D 3H TC 2D',
      'box1:split box1:split box1:double box1:stand box1:stand',
    );
    // Hands: A A -> split -> [A] [A] ; first gets A -> split again -> [A][A][A].
    expect(outcome.boxes[0]!.hands).toHaveLength(3);
    expect(outcome.boxes[0]!.hands[0]).toMatchObject({
      cards: ['AS', '2S', '5C'],
      doubled: true,
      total: 18,
    });
  });

  it('lets a box surrender its first two cards for half its stake, not against an ace (004)', () => {
    const { outcome } = play(TDC, [1], 'TS TD 6C', 'box1:surrender');
    expect(outcome.bets['box:1.main']).toBe(-0.5);
    const againstAce = partial(TDC, [1], 'TS AD 6C', 'box1:no_insurance');
    if (againstAce.stoppedAt.kind !== 'decision') throw new Error('expected a decision');
    expect(againstAce.stoppedAt.options).not.toContain('surrender');
    expect(partial(BULGARIA, [1], 'TS 9D 6C').stoppedAt).toMatchObject({
      options: ['hit', 'stand', 'double'],
    });
  });

  it("takes no more cards on a player's 21 (004)", () => {
    const run = partial(TDC, [1, 2], '5S 9H 6D 6C 7S KD');
    // Box 1: 5 6 takes a hit via the card (K -> 21) and then stops: box 2 decides.
    const engine = createBlackjackEngine(TDC);
    let state = engine.start({ boxes: [1, 2] });
    for (const card of ['5S', '9H', '6D', '6C', '7S'] as StandardCard[])
      state = engine.deal(state, card);
    state = dealInferred(engine, state, 'KD');
    expect(blackjackTotal(state.boxes[0]!.hands[0]!.cards).total).toBe(21);
    expect(engine.next(state)).toMatchObject({ kind: 'decision', seat: 'box:2' });
    expect(run.dealt.at(-1)).toMatchObject({ card: 'KD', to: 'box:1', implied: 'hit' });
  });

  it('pays every standing box when the dealer busts (003 § 19(3))', () => {
    const { outcome } = play(TDC, [1, 2], 'TS 9H 6D 2C 7S TH 8C', 'box1:stand box2:stand');
    expect(outcome.dealer.bust).toBe(true);
    expect(outcome.bets).toMatchObject({ 'box:1.main': 1, 'box:2.main': 1 });
  });

  it('declares a stand-off on equal totals (003 § 19(2); 004)', () => {
    const { outcome } = play(TDC, [1], 'TS 8D 8C TH', 'box1:stand');
    expect(outcome.bets['box:1.main']).toBe(0);
  });

  it('loses a busted box even when the dealer busts later (003 § 19(2))', () => {
    const { outcome } = play(TDC, [1, 2], 'TS 9H 6D 6C 7S TH TC 8D', 'box2:stand');
    expect(outcome.boxes[0]!.hands[0]!.bust).toBe(true);
    expect(outcome.bets['box:1.main']).toBe(-1);
    expect(outcome.bets['box:2.main']).toBe(1);
  });

  it('lets the dealer take no card when every box has bust (practice)', () => {
    const { outcome } = play(TDC, [1], 'TS 6D 6C TH');
    expect(outcome.dealer.cards).toEqual(['6D']);
    expect(outcome.bets['box:1.main']).toBe(-1);
  });

  it('takes doubles too on a dealer blackjack without a hole card, or only the original stake when configured', () => {
    const all = play(TDC, [1], '5S TD 6C 9H AS', 'box1:double');
    expect(all.outcome.bets['box:1.main']).toBe(-2);
    const obo = variant(TDC, {
      dealerBlackjackTakes: { value: 'original_only', source: 'practice: test' },
    });
    expect(play(obo, [1], '5S TD 6C 9H AS', 'box1:double').outcome.bets['box:1.main']).toBe(-1);
  });

  it('has 1 to 7 boxes (004) and 1, 4, 5 or 6 decks in Bulgaria (003 § 14(1))', () => {
    const engine = createBlackjackEngine(TDC);
    expect(() => engine.start({ boxes: [8] })).toThrow(/box 8 does not exist.*1-7/);
    expect(() => engine.start({ boxes: [] })).toThrow(/at least one box/);
    expect(() => engine.start({ boxes: [2, 2] })).toThrow(/twice/);
    expect(engine.start({ boxes: [1, 2, 3, 4, 5, 6, 7] }).boxes).toHaveLength(7);
    expect(BULGARIA.decks.allowed).toEqual([1, 4, 5, 6]);
    expect(TDC.decks).toMatchObject({ allowed: [6], default: 6 });
  });

  it('rejects an illegal decision naming what is legal', () => {
    try {
      partial(TDC, [1], 'TS 6D 9C', 'box1:split');
      expect.unreachable();
    } catch (error) {
      expect(isEngineError(error) && error.code).toBe('illegal_decision');
      expect((error as Error).message).toMatch(
        /box:1 split: not legal now; box:1 may hit, stand, double, surrender/,
      );
    }
    expect(() => partial(TDC, [1, 2], 'TS 9H 6D 9C 8S', 'box2:stand')).toThrow(
      /box:1 hand 1 is deciding/,
    );
  });

  it('takes a card drawn during the insurance round as everyone declining and box 1 hitting', () => {
    const engine = createBlackjackEngine(TDC);
    let state = engine.start({ boxes: [1] });
    for (const card of ['5S', 'AD', '6C'] as StandardCard[]) state = engine.deal(state, card);
    expect(engine.next(state)).toMatchObject({ kind: 'decision', onCard: 'no_insurance' });
    expect(() => engine.deal(state, '2H')).toThrow(/must decide first/);
    state = dealInferred(engine, state, '2H');
    expect(state.boxes[0]!.hands[0]!.cards).toEqual(['5S', '6C', '2H']);
    expect(state.boxes[0]!.insurance).toBe('declined');
  });

  it('closes the insurance round for every box on dealer:next', () => {
    const run = partial(TDC, [1, 2], 'TS 9H AD 6C 8S', 'dealer:next');
    expect(run.stoppedAt).toMatchObject({
      kind: 'decision',
      seat: 'box:1',
      options: ['hit', 'stand', 'double'],
    });
  });
});
