/**
 * A box's hand against the dealer's, as the poker engines classify it: the
 * dealer below its qualifier first (whatever the box holds), then higher,
 * equal or lower (engine/poker/casino-holdem.ts, draw-stud.ts).
 */
import { POKER_CATEGORIES } from '../engine/poker/evaluator.ts';
import { strengthTables } from '../engine/poker/evaluator-tables.ts';
import { expectation, type Fraction } from './exact.ts';
import type { FiveCardShowdownCounts } from './five-card-showdown.ts';
import type { StudyTable } from './study.ts';

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
export function byCategory(counts: FiveCardShowdownCounts): {
  notQualified: bigint[];
  wins: bigint[];
  ties: bigint[];
  losses: bigint[];
} {
  const categoryOf = strengthTables().categoryOfStrength;
  const sums = {
    notQualified: POKER_CATEGORIES.map(() => 0n),
    wins: POKER_CATEGORIES.map(() => 0n),
    ties: POKER_CATEGORIES.map(() => 0n),
    losses: POKER_CATEGORIES.map(() => 0n),
  };
  for (let v = 1; v < counts.hands.length; v++) {
    const c = categoryOf[v]!;
    sums.notQualified[c]! += counts.dealerNotQualified[v]!;
    sums.wins[c]! += counts.wins[v]!;
    sums.ties[c]! += counts.ties[v]!;
    sums.losses[c]! += counts.losses[v]!;
  }
  return sums;
}

const group = (n: bigint) => n.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');

export function fiveCardShowdownTable(title: string, counts: FiveCardShowdownCounts): StudyTable {
  const sums = byCategory(counts);
  return {
    title,
    header: ['box hand', 'dealer not qualified', 'wins', 'ties', 'loses'],
    rows: POKER_CATEGORIES.map((category, c) => [
      category,
      group(sums.notQualified[c]!),
      group(sums.wins[c]!),
      group(sums.ties[c]!),
      group(sums.losses[c]!),
    ]),
  };
}

export function fiveCardShowdownJson(counts: FiveCardShowdownCounts) {
  const sums = byCategory(counts);
  return {
    total: counts.total.toString(),
    by_category: Object.fromEntries(
      POKER_CATEGORIES.map((category, c) => [
        category,
        {
          dealer_not_qualified: sums.notQualified[c]!.toString(),
          win: sums.wins[c]!.toString(),
          tie: sums.ties[c]!.toString(),
          lose: sums.losses[c]!.toString(),
        },
      ]),
    ),
  };
}
