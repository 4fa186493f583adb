/**
 * A box's hand against the dealer's, as the poker engines classify it: the
 * dealer below its qualifier first (whatever the box holds), then higher,
 * equal or lower (games/cards/poker/casino-holdem.ts, draw-stud.ts).
 */

import { expectation, type Fraction } from '../../../../analysis/exact.ts';
import { POKER_CATEGORIES } from '../evaluator.ts';
import { strengthTables } from '../evaluator-tables.ts';
import type { FiveCardShowdownCounts } from './five-card-showdown.ts';
import {
  type ShowdownCategorySums,
  type StudyTable,
  showdownCategoryJson,
  showdownCategoryTable,
} from './study.ts';

export type ShowdownOutcome = 'dealer_not_qualified' | 'win' | 'tie' | 'lose';

export function classifyShowdown(mine: number, theirs: number, qualifier: number): ShowdownOutcome {
  if (theirs < qualifier) return 'dealer_not_qualified';
  return mine > theirs ? 'win' : mine === theirs ? 'tie' : 'lose';
}

/** Exact expectation over a five-card showdown, the result a function of the box's strength and the outcome. */
export function showdownExpectation(
  counts: FiveCardShowdownCounts,
  resultOf: (strength: number, outcome: ShowdownOutcome) => Fraction,
): Fraction {
  const outcomes: { count: bigint; payout: Fraction }[] = [];
  for (let v = 1; v < counts.hands.length; v++) {
    if (counts.hands[v] === 0n) continue;
    outcomes.push(
      { count: counts.dealerNotQualified[v]!, payout: resultOf(v, 'dealer_not_qualified') },
      { count: counts.wins[v]!, payout: resultOf(v, 'win') },
      { count: counts.ties[v]!, payout: resultOf(v, 'tie') },
      { count: counts.losses[v]!, payout: resultOf(v, 'lose') },
    );
  }
  return expectation(outcomes, counts.total);
}

/** The strength-level counts summed by the category of the box's hand. */
export function byCategory(counts: FiveCardShowdownCounts): ShowdownCategorySums {
  const categoryOf = strengthTables().categoryOfStrength;
  const sums = {
    dealerNotQualified: POKER_CATEGORIES.map(() => 0n),
    wins: POKER_CATEGORIES.map(() => 0n),
    ties: POKER_CATEGORIES.map(() => 0n),
    losses: POKER_CATEGORIES.map(() => 0n),
  };
  for (let v = 1; v < counts.hands.length; v++) {
    const c = categoryOf[v]!;
    sums.dealerNotQualified[c]! += counts.dealerNotQualified[v]!;
    sums.wins[c]! += counts.wins[v]!;
    sums.ties[c]! += counts.ties[v]!;
    sums.losses[c]! += counts.losses[v]!;
  }
  return sums;
}

export function fiveCardShowdownTable(title: string, counts: FiveCardShowdownCounts): StudyTable {
  return showdownCategoryTable(title, 'box hand', byCategory(counts));
}

export function fiveCardShowdownJson(counts: FiveCardShowdownCounts) {
  return showdownCategoryJson(counts.total, byCategory(counts));
}
