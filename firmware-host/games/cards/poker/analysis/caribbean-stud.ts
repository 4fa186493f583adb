/**
 * Caribbean stud poker (003 § 24-26), settled as games/cards/poker/draw-stud.ts
 * settles it.
 *
 * - Bonus (003 § 26(1)): paid on the box's first five cards as dealt, before
 *   any replacement, by the ruleset's table; the C(52,5) category counts
 *   give its return exactly. Strategy-free, except that a box that folds
 *   forfeits it when the ruleset says so (`paidOnFold: false`): the figure
 *   holds for every strategy that plays on with a Bonus-winning hand.
 * - Ante and Raise: the box may replace a card or buy a sixth (a fee of one
 *   Ante each), then raises or folds (003 § 24(4)-(5)): the return depends on
 *   those decisions. "Always raise, never replace or buy" is enumerated
 *   exactly, every box hand against every dealer hand (five-card-showdown.ts).
 */

import { Fraction } from '../../../../analysis/exact.ts';
import type { CaribbeanStudRuleset } from '../../../../engine/rulesets/poker.ts';
import { strengthCategory } from '../evaluator.ts';
import { type FiveCardShowdownCounts, fiveCardShowdown } from './five-card-showdown.ts';
import { pokerCategoryCounts } from './poker.ts';
import {
  fiveCardShowdownJson,
  fiveCardShowdownTable,
  type ShowdownOutcome,
  showdownExpectation,
} from './showdown-outcome.ts';
import {
  anteAndSecondBet,
  type BetStudy,
  bonusBet,
  categoryBet,
  categoryBetJson,
  categoryBetTable,
  figures,
  qualifierStrength,
  type RulesetStudy,
  rulesetStudy,
  type StudyOptions,
} from './study.ts';

export const ALWAYS_RAISE =
  'always Raise (2 Antes) on the five cards dealt; never replace, buy or fold';

/** Main-game result in Antes of a box that raises, as the engine settles it (003 § 24(7)-(10)). */
export function caribbeanRaiseResult(
  ruleset: CaribbeanStudRuleset,
  strength: number,
  outcome: ShowdownOutcome,
): { ante: number; raise: number } {
  switch (outcome) {
    case 'dealer_not_qualified':
      return { ante: ruleset.ante.pays, raise: 0 };
    case 'win':
      return {
        ante: ruleset.ante.pays,
        raise: ruleset.raise.antes * ruleset.raisePays.table[strengthCategory(strength)],
      };
    case 'tie':
      return { ante: ruleset.tie.result, raise: ruleset.tie.result * ruleset.raise.antes };
    case 'lose':
      return { ante: -1, raise: -ruleset.raise.antes };
  }
}

export function alwaysRaiseReturn(
  ruleset: CaribbeanStudRuleset,
  counts: FiveCardShowdownCounts,
): Fraction {
  return showdownExpectation(counts, (strength, outcome) => {
    const { ante, raise } = caribbeanRaiseResult(ruleset, strength, outcome);
    return Fraction.ofDecimal(ante).plus(Fraction.ofDecimal(raise));
  });
}

export function studyCaribbeanStud(
  ruleset: CaribbeanStudRuleset,
  options: StudyOptions = {},
): RulesetStudy {
  const five = pokerCategoryCounts(5);
  const bonus = categoryBet(ruleset.bonus.table, five);
  const counts = fiveCardShowdown(qualifierStrength(ruleset.dealerQualifier), undefined, (d, t) =>
    options.onProgress?.('hands', d, t),
  );
  const main = alwaysRaiseReturn(ruleset, counts);
  const bets: BetStudy[] = [
    bonusBet(
      bonus.expectedReturn,
      ruleset.bonus,
      'the box plays on (does not fold) whenever its first five cards win the Bonus; a folded box forfeits it (paidOnFold: false)',
    ),
    {
      bet: 'ante_raise',
      status: 'strategy_dependent',
      reason: `the box chooses to replace ${ruleset.draw.replace.min === ruleset.draw.replace.max ? ruleset.draw.replace.min : `${ruleset.draw.replace.min}-${ruleset.draw.replace.max}`} card(s) or buy a sixth (${ruleset.draw.fee} Ante fee each), then to raise or fold (003 § 24(4)-(5)); the return depends on those decisions`,
      source: ruleset.raise.source,
      assumed: {
        strategy: ALWAYS_RAISE,
        ...figures(main, 'Ante', anteAndSecondBet(ruleset.raise.antes)),
      },
    },
  ];
  return rulesetStudy(ruleset, {
    bets,
    tables: [
      categoryBetTable(
        'Bonus: the first five cards, every five-card hand',
        bonus.lines,
        five.total,
      ),
      fiveCardShowdownTable(
        `Always raise: every box hand against every dealer hand (${ruleset.dealerQualifier.description} qualifies the dealer)`,
        counts,
      ),
    ],
    details: {
      bonus: categoryBetJson(bonus.lines, five.total),
      always_raise: { strategy: ALWAYS_RAISE, ...fiveCardShowdownJson(counts) },
    },
    notes: [
      `The dealer without ${ruleset.dealerQualifier.description}: the Ante is paid ${ruleset.ante.pays}:1 and the Raise returned (003 § 24(8)); equal hands: ${ruleset.tie.source}.`,
      'Replacing a card or buying a sixth can only be valued with a strategy for when to do it; none is assumed.',
    ],
  });
}
