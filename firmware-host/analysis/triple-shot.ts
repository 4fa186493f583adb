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
 * - Not computed here: the Blackjack bet (its return depends on the hit,
 *   stand, double and split decisions, and on the six-card rule) and the
 *   Bonus (it needs the Blackjack result). The Poker bet's return needs the
 *   head-to-head of two disjoint six-card hands (player against dealer);
 *   that is strategy-free too, but it is not enumerated here yet.
 */
import type { TripleShotRuleset } from '../engine/rulesets/schema.ts';
import { expectation, Fraction } from './exact.ts';
import { type PokerCategoryCounts, type ProgressListener, pokerCategoryCounts } from './poker.ts';

export interface WarAnalysis {
  readonly total: bigint;
  readonly win: bigint;
  readonly tie: bigint;
  readonly lose: bigint;
  readonly expectedReturn: Fraction;
  readonly houseEdge: Fraction;
  readonly source: string;
}

export interface TripleShotAnalysis {
  readonly ruleset: string;
  readonly war: WarAnalysis;
  readonly poker: PokerCategoryCounts;
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

export function analyzeTripleShot(
  ruleset: TripleShotRuleset,
  onProgress?: ProgressListener,
): TripleShotAnalysis {
  return {
    ruleset: ruleset.name,
    war: analyzeWar(ruleset),
    poker: pokerCategoryCounts(6, onProgress),
    notComputed: [
      {
        bet: 'blackjack',
        reason:
          'depends on the player\'s hit, stand, double and split-aces decisions (000 § 9.b); no strategy is assumed',
      },
      {
        bet: 'bonus',
        reason: 'needs the Blackjack result, which depends on player strategy (000 § 9.d, § 11)',
      },
      {
        bet: 'poker',
        reason:
          'strategy-free (the six cards are a uniformly random hand whatever the blackjack play), but it needs the head-to-head of two disjoint six-card hands, which this version does not enumerate; the category distribution above is exact',
      },
    ],
  };
}
