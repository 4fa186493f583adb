/**
 * Casino Texas Hold'em at TDC (004 Texas Hold'em), settled as
 * games/cards/poker/casino-holdem.ts settles it.
 *
 * - Bonus (004: a separate bet on the box's two cards and the flop): paid by
 *   the ruleset's table on the category of those five cards, whatever the
 *   box does with its Ante when `paidOnFold` (the shipped ruleset). Two cards
 *   to the box and three to the flop are five random cards, every five-card
 *   set arising from C(5,2) = 10 splits alike, so the C(52,5) category
 *   counts give the return exactly. Strategy-free.
 * - Ante and Call: the box decides after the flop, so the return depends on
 *   its strategy. "Always call" is exactly how a dark box plays (004: Ante
 *   and Call placed before the deal, no decision): enumerated exactly over
 *   every board and both two-card hands (holdem-showdown.ts, about a second).
 */

import { expectation, Fraction } from '../../../../analysis/exact.ts';
import type { CasinoHoldemRuleset } from '../../../../engine/rulesets/poker.ts';
import { evaluate5Ints, evaluate7Ints, POKER_CATEGORIES, strengthCategory } from '../evaluator.ts';
import {
  type HoldemShowdownCounts,
  holdemShowdown,
  showdownJson,
  showdownTable,
} from './holdem-showdown.ts';
import { pokerCategoryCounts } from './poker.ts';
import {
  anteAndSecondBet,
  type BetStudy,
  bonusBet,
  categoryBet,
  categoryBetJson,
  categoryBetTable,
  expectedReturnsJson,
  figures,
  payoutLimitNotes,
  qualifierStrength,
  type RulesetStudy,
  rulesetStudy,
  type StrategyDependentBet,
  type StudyOptions,
  type StudyTable,
} from './study.ts';

export const ALWAYS_CALL =
  'always Call (2 Antes), never fold: exactly how a dark box plays (004); no payout limit';

/** One deal under "always call", as the engine settles it (Ante units; Bonus per its stake). */
export function settleCasinoHoldemAlwaysCall(
  ruleset: CasinoHoldemRuleset,
  box: readonly [number, number],
  dealer: readonly [number, number],
  board: readonly [number, number, number, number, number],
): { ante: number; call: number; bonus: number } {
  const [f1, f2, f3, t, r] = board;
  const mine = evaluate7Ints(box[0], box[1], f1, f2, f3, t, r);
  const theirs = evaluate7Ints(dealer[0], dealer[1], f1, f2, f3, t, r);
  const bonus = ruleset.bonus.table[strengthCategory(evaluate5Ints(box[0], box[1], f1, f2, f3))];
  const antePays = ruleset.ante.table[strengthCategory(mine)];
  const callWins = ruleset.call.antes * ruleset.call.pays;
  if (theirs < qualifierStrength(ruleset.dealerQualifier))
    return { ante: antePays, call: 0, bonus };
  if (mine > theirs) return { ante: antePays, call: callWins, bonus };
  if (mine === theirs) return { ante: 0, call: 0, bonus };
  return { ante: -1, call: -ruleset.call.antes, bonus };
}

/** Ante and Call returns per Ante from the showdown counts, "always call". */
export function alwaysCallReturn(
  ruleset: CasinoHoldemRuleset,
  counts: HoldemShowdownCounts,
): { ante: Fraction; call: Fraction; total: Fraction } {
  const ante: { count: bigint; payout: Fraction }[] = [];
  const call: { count: bigint; payout: Fraction }[] = [];
  const callWins = Fraction.ofDecimal(ruleset.call.antes * ruleset.call.pays);
  POKER_CATEGORIES.forEach((category, c) => {
    const antePays = Fraction.ofDecimal(ruleset.ante.table[category]);
    ante.push(
      { count: counts.dealerNotQualified[c]!, payout: antePays },
      { count: counts.wins[c]!, payout: antePays },
      { count: counts.losses[c]!, payout: Fraction.of(-1) },
    );
    call.push(
      { count: counts.wins[c]!, payout: callWins },
      { count: counts.losses[c]!, payout: Fraction.ofDecimal(-ruleset.call.antes) },
    );
  });
  const anteReturn = expectation(ante, counts.total);
  const callReturn = expectation(call, counts.total);
  return { ante: anteReturn, call: callReturn, total: anteReturn.plus(callReturn) };
}

export function studyCasinoHoldem(
  ruleset: CasinoHoldemRuleset,
  options: StudyOptions = {},
): RulesetStudy {
  const five = pokerCategoryCounts(5);
  const bonus = categoryBet(ruleset.bonus.table, five);
  const bets: BetStudy[] = [
    bonusBet(
      bonus.expectedReturn,
      ruleset.bonus,
      'the box never folds a hand whose two cards and flop win the Bonus',
    ),
  ];
  const tables: StudyTable[] = [
    categoryBetTable(
      "Bonus: the box's two cards and the flop, every five-card set (each from 10 two-and-three splits)",
      bonus.lines,
      five.total,
    ),
  ];
  const details: Record<string, unknown> = {
    bonus: categoryBetJson(bonus.lines, five.total),
  };
  const reason =
    "the box decides to Call (2 Antes) or fold after seeing its two cards and the flop (004), so the return depends on that decision; only a dark box's return is fixed";
  let assumed: NonNullable<StrategyDependentBet['assumed']>;
  if (options.quick) {
    assumed = {
      strategy: ALWAYS_CALL,
      notComputed: 'skipped (--quick): the exact enumeration takes about a second',
    };
  } else {
    const counts = holdemShowdown(qualifierStrength(ruleset.dealerQualifier), (done, total) =>
      options.onProgress?.('boards', done, total),
    );
    const returns = alwaysCallReturn(ruleset, counts);
    assumed = {
      strategy: ALWAYS_CALL,
      ...figures(returns.total, 'Ante', anteAndSecondBet(ruleset.call.antes)),
    };
    tables.push(
      showdownTable(
        `Always Call: every board, box and dealer hand (${ruleset.dealerQualifier.description} qualifies the dealer)`,
        counts,
      ),
    );
    details.always_call = {
      strategy: ALWAYS_CALL,
      ...showdownJson(counts),
      ...expectedReturnsJson({ ante: returns.ante, call: returns.call }),
    };
  }
  bets.push({
    bet: 'ante_call',
    status: 'strategy_dependent',
    reason,
    source: ruleset.call.source,
    assumed,
  });
  return rulesetStudy(ruleset, {
    bets,
    tables,
    details,
    notes: [
      `Ante pays by its table (${ruleset.ante.source}); the Call pays ${ruleset.call.pays}:1 against a qualifying dealer and is returned when the dealer does not qualify (004).`,
      ...payoutLimitNotes(ruleset.payoutLimit),
    ],
  });
}
