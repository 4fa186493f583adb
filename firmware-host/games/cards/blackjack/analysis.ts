/**
 * The dealer's final hand in blackjack from a full N-deck shoe, exactly:
 * 17, 18, 19, 20, 21 (not blackjack), blackjack (ace and ten-value as the
 * first two cards) and bust. The dealer draws to 16 and stands on 17
 * (003 § 15(6); 004), or hits soft 17 when the table says so (H17).
 *
 * Recursive enumeration over the cards drawn, by value (ace, 2..9, ten-value
 * with its 16N cards), memoised on the multiset drawn so far: the dealer's
 * future depends only on which cards are gone, not their order. Every
 * sequence of k cards is weighted by the ordered ways to draw it and then
 * completed to the longest possible dealer hand L, so every count shares the
 * denominator N·(N-1)···(N-L+1).
 */

import { falling } from '../../../analysis/exact.ts';
import { checkDecks } from '../baccarat/analysis.ts';

export const DEALER_OUTCOMES = ['17', '18', '19', '20', '21', 'blackjack', 'bust'] as const;
export type DealerOutcome = (typeof DEALER_OUTCOMES)[number];

export interface DealerAnalysis {
  readonly decks: number;
  readonly hitSoft17: boolean;
  /** Longest dealer hand possible from this shoe: the completion length. */
  readonly longestHand: number;
  readonly total: bigint;
  readonly outcomes: Readonly<Record<DealerOutcome, bigint>>;
}

interface Hand {
  /** Hard total, aces counting 1. */
  readonly hard: number;
  readonly aces: number;
  readonly cards: number;
}

/** The best total: one ace counts 11 when that does not bust. */
function bestTotal(hand: Hand): { total: number; soft: boolean } {
  if (hand.aces > 0 && hand.hard + 10 <= 21) return { total: hand.hard + 10, soft: true };
  return { total: hand.hard, soft: false };
}

function dealerStands(hand: Hand, hitSoft17: boolean): boolean {
  if (hand.cards < 2) return false;
  const { total, soft } = bestTotal(hand);
  if (total > 17) return true;
  if (total === 17) return !(soft && hitSoft17);
  return false;
}

function outcomeIndex(hand: Hand): number {
  const { total } = bestTotal(hand);
  if (total > 21) return 6;
  if (total === 21 && hand.cards === 2) return 5;
  return total - 17;
}

/** Exact distribution of the dealer's final hand from a full shoe. */
export function analyzeDealer(decks: number, hitSoft17: boolean): DealerAnalysis {
  checkDecks(decks);
  // Index 0 ace, 1..8 the cards 2..9, 9 the ten-values.
  const left = [4, 4, 4, 4, 4, 4, 4, 4, 4, 16].map((perDeck) => perDeck * decks);
  const shoe = 52 * decks;

  // Pass 1: the longest hand, so that every count can share one denominator.
  let longest = 0;
  const explore = (hand: Hand): void => {
    if (dealerStands(hand, hitSoft17) || bestTotal(hand).total > 21) {
      longest = Math.max(longest, hand.cards);
      return;
    }
    for (let value = 0; value < 10; value++) {
      if (left[value] === 0) continue;
      left[value]!--;
      explore(add(hand, value));
      left[value]!++;
    }
  };
  explore({ hard: 0, aces: 0, cards: 0 });

  // Pass 2: counts. For a state after k cards, the result counts ordered
  // completions to `longest` cards, per outcome.
  const memo = new Map<string, bigint[]>();
  const count = (hand: Hand): bigint[] => {
    if (dealerStands(hand, hitSoft17) || bestTotal(hand).total > 21) {
      const result = new Array<bigint>(7).fill(0n);
      result[outcomeIndex(hand)] = falling(shoe - hand.cards, longest - hand.cards);
      return result;
    }
    const key = left.join(',');
    const known = memo.get(key);
    if (known) return known;
    const result = new Array<bigint>(7).fill(0n);
    for (let value = 0; value < 10; value++) {
      const ways = left[value]!;
      if (ways === 0) continue;
      left[value] = ways - 1;
      const next = count(add(hand, value));
      left[value] = ways;
      for (let i = 0; i < 7; i++) result[i]! += BigInt(ways) * next[i]!;
    }
    memo.set(key, result);
    return result;
  };
  const counts = count({ hard: 0, aces: 0, cards: 0 });
  const outcomes = Object.fromEntries(
    DEALER_OUTCOMES.map((name, index) => [name, counts[index]!]),
  ) as Record<DealerOutcome, bigint>;
  return { decks, hitSoft17, longestHand: longest, total: falling(shoe, longest), outcomes };
}

function add(hand: Hand, value: number): Hand {
  return {
    hard: hand.hard + (value === 0 ? 1 : value === 9 ? 10 : value + 1),
    aces: hand.aces + (value === 0 ? 1 : 0),
    cards: hand.cards + 1,
  };
}
