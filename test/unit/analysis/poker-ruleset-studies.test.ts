/**
 * The exact studies of the poker rulesets (issue 4 § 3): the strategy-free
 * side bets from the five-card category counts, the showdown enumerations
 * checked against brute force, and every settlement the analysis assumes
 * checked against the engines that settle real rounds (the engines are the
 * source of truth for how a bet is paid).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StandardCard } from '../../../device-protocol/cards.ts';
import { choose, Fraction } from '../../../firmware-host/analysis/exact.ts';
import {
  FULL_DECK,
  fullDeckSuitPatterns,
  suitPatternKey,
  suitPatterns,
} from '../../../firmware-host/analysis/suit-patterns.ts';
import type {
  CaribbeanStudRuleset,
  CasinoHoldemRuleset,
  RussianPokerRuleset,
  SevenCardStudRuleset,
} from '../../../firmware-host/engine/rulesets/poker.ts';
import type { Decision, NextStep, Outcome } from '../../../firmware-host/engine/types.ts';
import {
  caribbeanRaiseResult,
  studyCaribbeanStud,
} from '../../../firmware-host/games/cards/poker/analysis/caribbean-stud.ts';
import {
  settleCasinoHoldemAlwaysCall,
  studyCasinoHoldem,
} from '../../../firmware-host/games/cards/poker/analysis/casino-holdem.ts';
import { fiveCardShowdown } from '../../../firmware-host/games/cards/poker/analysis/five-card-showdown.ts';
import {
  BoardScratch,
  countHoldemBoard,
} from '../../../firmware-host/games/cards/poker/analysis/holdem-showdown.ts';
import {
  russianDarkBoxResult,
  russianWinMultiple,
  studyRussianPoker,
} from '../../../firmware-host/games/cards/poker/analysis/russian-poker.ts';
import { studySevenCardStud } from '../../../firmware-host/games/cards/poker/analysis/seven-card-stud.ts';
import { classifyShowdown } from '../../../firmware-host/games/cards/poker/analysis/showdown-outcome.ts';
import { qualifierStrength } from '../../../firmware-host/games/cards/poker/analysis/study.ts';
import {
  cardToInt,
  evaluate5Ints,
  evaluate7Ints,
  intToCard,
} from '../../../firmware-host/games/cards/poker/evaluator.ts';
import { strengthTables } from '../../../firmware-host/games/cards/poker/evaluator-tables.ts';
import { studyRuleset } from '../../../firmware-host/games/cards/studies.ts';
import { createEngine } from '../../../firmware-host/games/engines.ts';
import { getRuleset, listRulesets } from '../../../firmware-host/games/rulesets.ts';

const casino = getRuleset('tdc-casino-holdem') as CasinoHoldemRuleset;
const caribbean = getRuleset('bulgaria-caribbean-stud') as CaribbeanStudRuleset;
const russian = getRuleset('tdc-russian-poker') as RussianPokerRuleset;
const stud = getRuleset('bulgaria-seven-card-stud') as SevenCardStudRuleset;

/** The 5-card category counts, written out (the textbook figures). */
const FIVE_CARD = {
  royal_flush: 4n,
  straight_flush: 36n,
  four_of_a_kind: 624n,
  full_house: 3744n,
  flush: 5108n,
  straight: 10200n,
  three_of_a_kind: 54912n,
  two_pair: 123552n,
  one_pair: 1098240n,
  high_card: 1302540n,
};

function tableReturn(table: Record<keyof typeof FIVE_CARD, number>): Fraction {
  let sum = 0n;
  for (const [category, count] of Object.entries(FIVE_CARD)) {
    sum += BigInt(table[category as keyof typeof FIVE_CARD]) * count;
  }
  return new Fraction(sum, 2_598_960n);
}

function computedEdge(study: ReturnType<typeof studyRuleset>, bet: string): string {
  const found = study.bets.find((b) => b.bet === bet);
  if (found?.status !== 'computed') throw new Error(`${bet} is not computed`);
  return found.houseEdge.toString();
}

describe('strategy-free side bets from the five-card category counts', () => {
  it("Caribbean stud's Bonus on the first five cards (003 § 26(1)) has a house edge of exactly 25097/49980", () => {
    const expected = tableReturn(caribbean.bonus.table).negate();
    expect(expected.toString()).toBe('25097/49980'); // 1,305,044 / 2,598,960 = 50.21 %
    expect(computedEdge(studyCaribbeanStud(caribbean), 'bonus')).toBe(expected.toString());
  });

  it("Casino hold'em's Bonus on two cards and the flop (004) has a house edge of exactly 456727/649740", () => {
    const expected = tableReturn(casino.bonus.table).negate();
    expect(expected.toString()).toBe('456727/649740'); // 1,826,908 / 2,598,960 = 70.29 %
    expect(computedEdge(studyCasinoHoldem(casino, { quick: true }), 'bonus')).toBe(
      expected.toString(),
    );
  });

  it('the Caribbean Bonus is labelled with its fold assumption, since a folded box forfeits it', () => {
    const bonus = studyCaribbeanStud(caribbean).bets.find((b) => b.bet === 'bonus');
    expect(bonus?.status === 'computed' && bonus.assumes).toMatch(/does not fold/);
  });
});

describe('suit patterns', () => {
  it('the generated patterns of 0-3 cards equal those found by grouping every subset', () => {
    for (let k = 0; k <= 3; k++) {
      const keyed = (patterns: ReturnType<typeof suitPatterns>) =>
        new Map(patterns.map((p) => [suitPatternKey(p.representative), p.multiplicity]));
      expect(keyed(fullDeckSuitPatterns(k))).toEqual(keyed(suitPatterns(FULL_DECK, k)));
    }
  });

  it('five-card boards fall into 134,459 patterns standing for all 2,598,960 boards', () => {
    const patterns = fullDeckSuitPatterns(5);
    expect(patterns.length).toBe(134_459);
    expect(patterns.reduce((sum, p) => sum + p.multiplicity, 0)).toBe(2_598_960);
  });
});

describe('five cards against five (Caribbean stud, Russian poker)', () => {
  it('on the full deck the dealer misses ace-king in 1,135,260 of its 2,598,960 hands, against each player hand', () => {
    // AK-high hands: 164 rank sets (AKQJT is a straight) x 1,020 non-flush suitings.
    const aceKingHigh = 164n * 1020n;
    const counts = fiveCardShowdown(qualifierStrength(caribbean.dealerQualifier));
    const sum = (values: readonly bigint[]) => values.reduce((a, b) => a + b, 0n);
    expect(sum(counts.dealerNotQualified)).toBe((1_302_540n - aceKingHigh) * choose(47, 5));
    expect(sum(counts.hands)).toBe(2_598_960n);
    expect(counts.total).toBe(2_598_960n * 1_533_939n);
  });
});

describe("hold'em against the dealer, one board", () => {
  it('the sorted sweep counts every pairing of box and dealer hands as a brute force does', () => {
    const q = qualifierStrength(casino.dealerQualifier);
    const categoryOf = strengthTables().categoryOfStrength;
    fc.assert(
      fc.property(
        fc.shuffledSubarray(FULL_DECK as number[], { minLength: 5, maxLength: 5 }),
        (board) => {
          const swept = new Float64Array(40);
          countHoldemBoard(board, q, swept, 1, new BoardScratch());
          const brute = new Float64Array(40);
          const rest = FULL_DECK.filter((card) => !board.includes(card));
          const [f1, f2, f3, t, r] = board as [number, number, number, number, number];
          const pairs: [number, number, number][] = [];
          for (let i = 0; i < rest.length; i++)
            for (let j = i + 1; j < rest.length; j++)
              pairs.push([rest[i]!, rest[j]!, evaluate7Ints(rest[i]!, rest[j]!, f1, f2, f3, t, r)]);
          const slot = { dealer_not_qualified: 0, win: 1, tie: 2, lose: 3 };
          for (const [a, b, mine] of pairs)
            for (const [c, d, theirs] of pairs) {
              if (a === c || a === d || b === c || b === d) continue;
              brute[categoryOf[mine]! * 4 + slot[classifyShowdown(mine, theirs, q)]]! += 1;
            }
          expect([...swept]).toEqual([...brute]);
        },
      ),
      { numRuns: 4, seed: 4 },
    );
  });
});

// -------------------------------------------------- against the engines

const cards = (ints: readonly number[]) => ints.map(intToCard);

/** Plays one round on the engine: cards from `shoe` in order, decisions by `decide`. */
function playRound(
  rulesetName: string,
  setup: { boxes: number[]; dark?: number[] },
  shoe: readonly StandardCard[],
  decide: (step: Extract<NextStep, { kind: 'decision' }>) => Decision,
): Outcome {
  const engine = createEngine(getRuleset(rulesetName));
  let state = engine.start(setup);
  let dealt = 0;
  for (let guard = 0; guard < 200; guard++) {
    const step = engine.next(state);
    if (step.kind === 'complete') return engine.outcome(state);
    if (step.kind === 'card') state = engine.deal(state, shoe[dealt++]!);
    else state = engine.decide(state, decide(step));
  }
  throw new Error('the round did not complete');
}

const deals = fc.shuffledSubarray(FULL_DECK as number[], { minLength: 12, maxLength: 12 });

describe("the settlements the analysis assumes are the engines' settlements", () => {
  it("casino hold'em: a dark box (always Call) is paid Ante, Call and Bonus as settleCasinoHoldemAlwaysCall says (004)", () => {
    fc.assert(
      fc.property(deals, (deal) => {
        // Deal order: box, dealer, box, dealer, then the board.
        const [b1, d1, b2, d2, f1, f2, f3, t, r] = deal as number[] as [
          number,
          number,
          number,
          number,
          number,
          number,
          number,
          number,
          number,
        ];
        const outcome = playRound(
          'tdc-casino-holdem',
          { boxes: [1], dark: [1] },
          cards([b1, d1, b2, d2, f1, f2, f3, t, r]),
          () => {
            throw new Error('a dark box makes no decision');
          },
        );
        const expected = settleCasinoHoldemAlwaysCall(
          casino,
          [b1, b2],
          [d1, d2],
          [f1, f2, f3, t, r],
        );
        expect(outcome.bets).toEqual({
          'box:1.ante': expected.ante,
          'box:1.call': expected.call,
          'box:1.bonus': expected.bonus,
        });
      }),
      { numRuns: 300, seed: 1 },
    );
  });

  it('Caribbean stud: a box that raises its five cards is paid as caribbeanRaiseResult says (003 § 24(7)-(10)), the Bonus by its first five (§ 26(1))', () => {
    const q = qualifierStrength(caribbean.dealerQualifier);
    fc.assert(
      fc.property(deals, (deal) => {
        const box = [deal[0]!, deal[2]!, deal[4]!, deal[6]!, deal[8]!];
        const dealer = [deal[1]!, deal[3]!, deal[5]!, deal[7]!, deal[9]!];
        const shoe = cards(deal.slice(0, 10));
        const outcome = playRound('bulgaria-caribbean-stud', { boxes: [1] }, shoe, (step) => ({
          seat: step.seat,
          action: 'raise',
        }));
        const mine = evaluate5Ints(...(box as [number, number, number, number, number]));
        const theirs = evaluate5Ints(...(dealer as [number, number, number, number, number]));
        const expected = caribbeanRaiseResult(caribbean, mine, classifyShowdown(mine, theirs, q));
        const category = strengthTables().categoryOfStrength[mine]!;
        const bonus = Object.values(caribbean.bonus.table)[category]!;
        expect(outcome.bets).toEqual({
          'box:1.ante': expected.ante,
          'box:1.raise': expected.raise,
          'box:1.bonus': bonus,
        });
      }),
      { numRuns: 300, seed: 2 },
    );
  });

  it('Russian poker: a dark box declining insurance and the dealer game is paid as russianDarkBoxResult says (004), second combinations included', () => {
    const q = qualifierStrength(russian.dealerQualifier);
    // Pairs, trips and quads with an ace and a king around, where the second combination matters.
    const handPicked = [
      ['KS', 'KH', 'AD', '7C', '3S'],
      ['AS', 'AH', 'KD', '7C', '3S'],
      ['AS', 'AH', 'KD', 'KC', '3S'],
      ['AS', 'AH', 'QD', 'QC', 'KS'],
      ['9S', '9H', '9D', 'AC', 'KS'],
      ['KS', 'KH', 'KD', 'KC', 'AS'],
    ].map((hand) => hand.map((card) => cardToInt(card as StandardCard)));
    expect(handPicked.map((hand) => russianWinMultiple(russian, hand))).toEqual([
      2, 2, 2, 3, 4, 21,
    ]);
    const handPickedDeals = handPicked.map((box) => {
      const rest = FULL_DECK.filter((card) => !box.includes(card));
      // Dealer: a qualifying low pair that each hand beats.
      const dealer = [
        cardToInt('2S'),
        cardToInt('2H'),
        cardToInt('5D'),
        cardToInt('6C'),
        cardToInt('8D'),
      ];
      return [...box, ...dealer.filter((card) => rest.includes(card))];
    });
    const check = (box: number[], dealer: number[], takeInsurance: boolean) => {
      const shoe = cards(box.flatMap((card, i) => [card, dealer[i]!]));
      const outcome = playRound('tdc-russian-poker', { boxes: [1], dark: [1] }, shoe, (step) => ({
        seat: step.seat,
        action: step.options.includes('insurance')
          ? takeInsurance
            ? 'insurance'
            : 'no_insurance'
          : 'check',
      }));
      const mine = evaluate5Ints(...(box as [number, number, number, number, number]));
      const theirs = evaluate5Ints(...(dealer as [number, number, number, number, number]));
      const result = classifyShowdown(mine, theirs, q);
      const expected = russianDarkBoxResult(russian, russianWinMultiple(russian, box), result);
      const bets: Record<string, number> = {
        'box:1.ante': expected.ante,
        'box:1.bet': expected.bet,
      };
      const offered = strengthTables().categoryOfStrength[mine]! <= 6; // three of a kind or better
      if (takeInsurance && offered)
        bets['box:1.insurance'] = theirs < q ? russian.insurance!.pays : -1;
      expect(outcome.bets).toEqual(bets);
    };
    for (const deal of handPickedDeals) check(deal.slice(0, 5), deal.slice(5, 10), false);
    fc.assert(
      fc.property(deals, fc.boolean(), (deal, insure) =>
        check(deal.slice(0, 5), deal.slice(5, 10), insure),
      ),
      { numRuns: 300, seed: 3 },
    );
  });
});

describe('the other poker studies', () => {
  it('Russian poker names every bet strategy-dependent and computes the dark box exactly', () => {
    const study = studyRussianPoker(russian);
    expect(study.bets.map((bet) => [bet.bet, bet.status])).toEqual([
      ['ante_bet', 'strategy_dependent'],
      ['insurance', 'strategy_dependent'],
      ['buy_dealer_game', 'strategy_dependent'],
    ]);
    const ante = study.bets[0]!;
    expect(
      ante.status === 'strategy_dependent' && ante.assumed && 'houseEdge' in ante.assumed
        ? ante.assumed.houseEdge.toString()
        : null,
    ).toBe('42431410421/142380217980');
  });

  it("seven-card stud: the house's take is the commission, 5 % of each pot, and player edges are not computed (003 § 27, § 28(19))", () => {
    const study = studySevenCardStud(stud);
    expect(study.bets.map((bet) => [bet.bet, bet.status])).toEqual([
      ['pot', 'strategy_dependent'],
      ['commission', 'computed'],
    ]);
    expect(computedEdge(study, 'commission')).toBe('1/20');
    const fixed = studySevenCardStud({
      ...stud,
      commission: {
        kind: 'fixed',
        variant: 'split_maximum',
        amount: 'minimum_bet',
        source: '003 § 28(18)',
      },
    });
    expect(fixed.bets[1]?.status).toBe('strategy_dependent');
    expect((fixed.details.seven_card_hands as { total: string }).total).toBe('133784560');
  });

  it('every shipped ruleset has a study whose bets are computed, strategy-dependent or skipped with a reason', () => {
    for (const ruleset of listRulesets()) {
      const study = studyRuleset(ruleset, { quick: true });
      expect(study.game).toBe(ruleset.game);
      expect(study.bets.length).toBeGreaterThan(0);
      for (const bet of study.bets) {
        if (bet.status === 'computed') expect(bet.houseEdge).toBeInstanceOf(Fraction);
        else expect(bet.reason.length).toBeGreaterThan(20);
      }
    }
  }, 30_000);
});
