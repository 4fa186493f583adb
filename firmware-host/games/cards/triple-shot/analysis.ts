/**
 * Triple Shot (000): what can be computed exactly without assuming how the
 * player plays.
 *
 * - War (000 § 9.a, § 11): one card each from one deck, ace high (000 § 3);
 *   the higher card wins 1:1, a tie loses half. All 52 x 51 ordered deals.
 * - Six-card poker (000 § 1.i, § 4, § 9.c): the distribution of the best five
 *   of six over all C(52, 6) hands. The player's blackjack decisions decide
 *   who gets which card when, but every card is drawn blind from the same
 *   shuffled deck, so a position's six cards are a uniformly random six-card
 *   hand whatever the strategy: this distribution holds for every player.
 * - The Poker bet (000 § 9.c, § 10, § 11): the player's best five of six
 *   against the dealer's, paid by the posted table when the player wins, a
 *   tie as the ruleset says. Strategy-free for the same reason; the exact
 *   head-to-head is in six-card-showdown.ts. No dealer qualifier: 000 names
 *   none.
 * - Not computed: the Blackjack bet (its return depends on the hit, stand,
 *   double and split decisions, and on the six-card rule) and the Bonus (it
 *   needs the Blackjack result).
 */

import { expectation, Fraction } from '../../../analysis/exact.ts';
import type { TripleShotRuleset } from '../../../engine/rulesets/schema.ts';
import { type PokerCategoryCounts, pokerCategoryCounts } from '../poker/analysis/poker.ts';
import { type ShowdownCounts, sixCardShowdown } from '../poker/analysis/six-card-showdown.ts';
import { POKER_CATEGORIES, type PokerCategory } from '../poker/evaluator.ts';

export interface WarAnalysis {
  readonly total: bigint;
  readonly win: bigint;
  readonly tie: bigint;
  readonly lose: bigint;
  readonly expectedReturn: Fraction;
  readonly houseEdge: Fraction;
  readonly source: string;
}

export interface PokerBetAnalysis {
  readonly total: bigint;
  /** Per category of the player's hand: deals won, tied and lost against the dealer. */
  readonly byCategory: Readonly<
    Record<PokerCategory, { readonly win: bigint; readonly tie: bigint; readonly lose: bigint }>
  >;
  readonly expectedReturn: Fraction;
  readonly houseEdge: Fraction;
  readonly source: string;
}

export interface TripleShotAnalysis {
  readonly ruleset: string;
  readonly war: WarAnalysis;
  readonly poker: PokerCategoryCounts;
  /** Absent when the caller skipped the head-to-head enumeration. */
  readonly pokerBet?: PokerBetAnalysis;
  readonly notComputed: readonly { readonly bet: string; readonly reason: string }[];
}

/** War ranks, ace high (000 § 3): 2 lowest .. ace highest, suits equal. */
function warRank(card: number): number {
  return card >> 2; // card ints are rank * 4 + suit, rank 0 deuce .. 12 ace
}

export function analyzeWar(ruleset: TripleShotRuleset): WarAnalysis {
  let win = 0n;
  let tie = 0n;
  let lose = 0n;
  for (let player = 0; player < 52; player++)
    for (let dealer = 0; dealer < 52; dealer++) {
      if (dealer === player) continue;
      const difference = warRank(player) - warRank(dealer);
      if (difference > 0) win++;
      else if (difference < 0) lose++;
      else tie++;
    }
  const total = win + tie + lose;
  const expectedReturn = expectation(
    [
      { count: win, payout: Fraction.ofDecimal(ruleset.war.win) },
      { count: tie, payout: Fraction.ofDecimal(ruleset.war.tie) },
      { count: lose, payout: Fraction.of(-1) },
    ],
    total,
  );
  return {
    total,
    win,
    tie,
    lose,
    expectedReturn,
    houseEdge: expectedReturn.negate(),
    source: ruleset.war.source,
  };
}

/** The Poker bet's exact return from the head-to-head counts. */
export function pokerBetReturn(
  ruleset: TripleShotRuleset,
  showdown: ShowdownCounts,
): PokerBetAnalysis {
  const outcomes: { count: bigint; payout: Fraction }[] = [];
  const byCategory = {} as Record<PokerCategory, { win: bigint; tie: bigint; lose: bigint }>;
  POKER_CATEGORIES.forEach((category, index) => {
    const win = showdown.wins[index]!;
    const tie = showdown.ties[index]!;
    const lose = showdown.losses[index]!;
    byCategory[category] = { win, tie, lose };
    outcomes.push(
      { count: win, payout: Fraction.ofDecimal(ruleset.poker.table[category]) },
      { count: tie, payout: Fraction.ofDecimal(ruleset.poker.tie) },
      { count: lose, payout: Fraction.of(-1) },
    );
  });
  const expectedReturn = expectation(outcomes, showdown.total);
  return {
    total: showdown.total,
    byCategory,
    expectedReturn,
    houseEdge: expectedReturn.negate(),
    source: ruleset.poker.source,
  };
}

export interface TripleShotOptions {
  /** Enumerate the Poker bet's head-to-head (a few seconds). Default true. */
  readonly pokerBet?: boolean;
  readonly onProgress?: (
    stage: 'six-card hands' | 'poker showdown',
    done: number,
    total: number,
  ) => void;
}

export function analyzeTripleShot(
  ruleset: TripleShotRuleset,
  options: TripleShotOptions = {},
): TripleShotAnalysis {
  const progress = options.onProgress;
  const poker = pokerCategoryCounts(6, (done, total) => progress?.('six-card hands', done, total));
  const pokerBet =
    options.pokerBet === false
      ? undefined
      : pokerBetReturn(
          ruleset,
          sixCardShowdown(undefined, (done, total) => progress?.('poker showdown', done, total)),
        );
  const notComputed = [
    {
      bet: 'blackjack',
      reason:
        "depends on the player's hit, stand, double and split-aces decisions (000 § 9.b); no strategy is assumed",
    },
    {
      bet: 'bonus',
      reason: 'needs the Blackjack result, which depends on player strategy (000 § 9.d, § 11)',
    },
  ];
  if (!pokerBet) {
    notComputed.push({
      bet: 'poker',
      reason: 'skipped on request (strategy-free; run without --no-poker-bet to enumerate it)',
    });
  }
  return { ruleset: ruleset.name, war: analyzeWar(ruleset), poker, pokerBet, notComputed };
}
