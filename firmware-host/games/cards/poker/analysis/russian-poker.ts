/**
 * Russian poker at TDC (004), settled as games/cards/poker/draw-stud.ts settles it.
 *
 * Every bet of the main game depends on the player's decisions: exchange two
 * to five cards or buy a sixth (a fee of one Ante), play on (the Bet, two
 * Antes) or fold, insure a hand of three of a kind or better, buy the dealer
 * a game when it has none. 004's optional Bonus has no table and is not in
 * the ruleset. Nothing of the game is strategy-free.
 *
 * One strategy is fixed by the rules themselves: a dark box (004: Ante and
 * Bet placed before the deal, no exchange, no purchase) plays its five cards
 * as dealt. With insurance and buying a game declined, its return is
 * enumerated exactly, every box hand against every dealer hand
 * (five-card-showdown.ts), the Bet paying the main combination plus a second
 * one (on five cards, ace-king with a card outside the main one). Insurance
 * taken by such a box whenever offered is enumerated the same way.
 */

import { AnalysisError } from '../../../../analysis/errors.ts';
import { Fraction } from '../../../../analysis/exact.ts';
import type { RussianPokerRuleset } from '../../../../engine/rulesets/poker.ts';
import {
  categoryIndexTable,
  evaluate5Ints,
  POKER_CATEGORIES,
  type PokerCategory,
  strengthCategory,
} from '../evaluator.ts';
import { type FiveCardShowdownCounts, fiveCardShowdown } from './five-card-showdown.ts';
import {
  fiveCardShowdownJson,
  fiveCardShowdownTable,
  type ShowdownOutcome,
  showdownExpectation,
} from './showdown-outcome.ts';
import {
  anteAndSecondBet,
  type BetStudy,
  figures,
  payoutLimitNotes,
  qualifierStrength,
  type RulesetStudy,
  rulesetStudy,
  type StudyOptions,
} from './study.ts';

export const DARK_BOX =
  'a dark box (004): Ante and Bet before the deal, the five cards as dealt; insurance and buying the dealer a game declined; no payout limit';
export const DARK_BOX_INSURING =
  'a dark box that takes insurance whenever it is offered (its five cards hold the qualifying combination or better)';

const ACE = 12;
const KING = 11;
const WHOLE_HAND: readonly PokerCategory[] = [
  'straight',
  'flush',
  'full_house',
  'straight_flush',
  'royal_flush',
];
const GROUP_SIZE: Partial<Record<PokerCategory, number>> = {
  one_pair: 2,
  two_pair: 2,
  three_of_a_kind: 3,
  four_of_a_kind: 4,
};

/**
 * The Bet's multiple (to one, per Bet) of five cards that beat a qualifying
 * dealer (004): the main combination's pay, plus ace-king as the second
 * combination when the hand holds an ace and a king not both inside the
 * main combination (on five cards only ace-king may be second).
 */
export function russianWinMultiple(ruleset: RussianPokerRuleset, cards: readonly number[]): number {
  const [a, b, c, d, e] = cards as [number, number, number, number, number];
  const category = strengthCategory(evaluate5Ints(a, b, c, d, e));
  const pays = ruleset.betPays.table;
  const rankCount = new Array<number>(13).fill(0);
  for (const card of cards) rankCount[card >> 2]!++;
  const hasAceAndKing = rankCount[ACE]! > 0 && rankCount[KING]! > 0;
  if (WHOLE_HAND.includes(category)) return pays[category];
  if (category === 'high_card') return hasAceAndKing ? pays.ace_king : pays.high_card;
  const size = GROUP_SIZE[category]!;
  const inMain = (rank: number) => rankCount[rank] === size;
  const second =
    ruleset.secondCombination.offered &&
    ruleset.secondCombination.onFiveCards.includes('ace_king') &&
    hasAceAndKing &&
    !(inMain(ACE) && inMain(KING));
  return pays[category] + (second ? pays.ace_king : 0);
}

/** The Bet's multiple by strength: five-card strengths fix the ranks, so the multiple follows. */
export function russianMultipleByStrength(ruleset: RussianPokerRuleset): Float64Array {
  const byStrength = new Float64Array(7463).fill(Number.NaN);
  for (let a = 0; a < 48; a++)
    for (let b = a + 1; b < 49; b++)
      for (let c = b + 1; c < 50; c++)
        for (let d = c + 1; d < 51; d++)
          for (let e = d + 1; e < 52; e++) {
            const strength = evaluate5Ints(a, b, c, d, e);
            if (!Number.isNaN(byStrength[strength]!)) continue;
            byStrength[strength] = russianWinMultiple(ruleset, [a, b, c, d, e]);
          }
  return byStrength;
}

export function russianDarkBoxResult(
  ruleset: RussianPokerRuleset,
  multiple: number,
  outcome: ShowdownOutcome,
): { ante: number; bet: number } {
  switch (outcome) {
    case 'dealer_not_qualified':
      return { ante: ruleset.ante.noGame, bet: 0 }; // 004: Ante 1:1, the Bet returned
    case 'win':
      return { ante: ruleset.ante.playerWins, bet: ruleset.bet.antes * multiple };
    case 'tie':
      return { ante: ruleset.tie.result, bet: ruleset.tie.result * ruleset.bet.antes };
    case 'lose':
      return { ante: -1, bet: -ruleset.bet.antes };
  }
}

export function darkBoxReturn(
  ruleset: RussianPokerRuleset,
  counts: FiveCardShowdownCounts,
): Fraction {
  const multiples = russianMultipleByStrength(ruleset);
  return showdownExpectation(counts, (strength, outcome) => {
    const { ante, bet } = russianDarkBoxResult(ruleset, multiples[strength]!, outcome);
    return Fraction.ofDecimal(ante).plus(Fraction.ofDecimal(bet));
  });
}

/** Insurance per unit of its stake, taken whenever offered, with the deals where it is offered. */
export function darkBoxInsurance(
  ruleset: RussianPokerRuleset,
  counts: FiveCardShowdownCounts,
): { expectedReturn: Fraction; offered: bigint } | null {
  const insurance = ruleset.insurance;
  if (insurance === null) return null;
  const categoryOf = categoryIndexTable();
  const least = POKER_CATEGORIES.indexOf(insurance.from);
  let wins = 0n;
  let offered = 0n;
  const dealerHands = counts.total / counts.hands.reduce((a, b) => a + b, 0n);
  for (let v = 1; v < counts.hands.length; v++) {
    if (categoryOf[v]! > least) continue; // index 0 royal .. 9 high card
    wins += counts.dealerNotQualified[v]!;
    offered += counts.hands[v]! * dealerHands;
  }
  if (offered === 0n) throw new AnalysisError('bad_parameter', 'insurance is never offered');
  const expectedReturn = Fraction.ofDecimal(insurance.pays)
    .times(Fraction.of(wins))
    .plus(Fraction.of(wins - offered))
    .times(new Fraction(1n, offered));
  return { expectedReturn, offered };
}

export function studyRussianPoker(
  ruleset: RussianPokerRuleset,
  options: StudyOptions = {},
): RulesetStudy {
  const counts = fiveCardShowdown(qualifierStrength(ruleset.dealerQualifier), undefined, (d, t) =>
    options.onProgress?.('hands', d, t),
  );
  const stake = anteAndSecondBet(ruleset.bet.antes);
  const insurance = darkBoxInsurance(ruleset, counts);
  const bets: BetStudy[] = [
    {
      bet: 'ante_bet',
      status: 'strategy_dependent',
      reason:
        'the box chooses to exchange 2-5 cards or buy a sixth (a fee of one Ante), to Bet or fold, and whether to buy the dealer a game (004); the return depends on those decisions',
      source: ruleset.bet.source,
      assumed: ruleset.darkBoxes.offered
        ? { strategy: DARK_BOX, ...figures(darkBoxReturn(ruleset, counts), 'Ante', stake) }
        : {
            strategy: DARK_BOX,
            notComputed: 'the ruleset offers no dark boxes',
          },
    },
  ];
  if (ruleset.insurance && insurance) {
    bets.push({
      bet: 'insurance',
      status: 'strategy_dependent',
      reason: `offered to a box holding ${ruleset.insurance.from} or better after its draw; whether it is offered, and its value, depend on the box's exchanges and on whether it takes it`,
      source: ruleset.insurance.source,
      assumed: {
        strategy: DARK_BOX_INSURING,
        ...figures(insurance.expectedReturn, 'insurance stake'),
      },
    });
  }
  if (ruleset.buyDealerGame) {
    bets.push({
      bet: 'buy_dealer_game',
      status: 'strategy_dependent',
      reason:
        "a fee of one Ante the box may pay when the dealer has no game; its value depends on the box's hand and on the other boxes' choices (004)",
      source: ruleset.buyDealerGame.source,
      assumed: {
        strategy: 'never bought',
        notComputed: 'no strategy for buying is assumed',
      },
    });
  }
  return rulesetStudy(ruleset, {
    bets,
    tables: [
      fiveCardShowdownTable(
        `Dark box: every box hand against every dealer hand (${ruleset.dealerQualifier.description} qualifies the dealer)`,
        counts,
      ),
    ],
    details: {
      dark_box: { strategy: DARK_BOX, ...fiveCardShowdownJson(counts) },
      ...(insurance
        ? {
            insurance_when_offered: {
              strategy: DARK_BOX_INSURING,
              deals_offered: insurance.offered.toString(),
            },
          }
        : {}),
    },
    notes: [
      'Strategy-free bets: none. Every bet of Russian poker follows a decision of the box (004).',
      "004's optional Bonus bet has no table in the text and is not part of the ruleset.",
      ...payoutLimitNotes(ruleset.payoutLimit),
    ],
  });
}
