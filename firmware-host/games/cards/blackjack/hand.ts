/**
 * Blackjack hand arithmetic, shared by blackjack and Triple Shot: aces
 * count 1 or 11, pictures 10, the rest face value (003 § 22; 004).
 */
import { rankOf, type StandardCard } from '../../../../device-protocol/cards.ts';

export function blackjackPoints(card: StandardCard): number {
  const rank = rankOf(card);
  if (rank === 'A') return 1;
  if (rank === 'T' || rank === 'J' || rank === 'Q' || rank === 'K') return 10;
  return Number(rank);
}

export function isTenValue(card: StandardCard): boolean {
  return blackjackPoints(card) === 10;
}

export interface BlackjackTotal {
  /** Best total: an ace counts 11 when that does not bust. */
  readonly total: number;
  /** An ace is counting 11. */
  readonly soft: boolean;
}

export function blackjackTotal(cards: readonly StandardCard[]): BlackjackTotal {
  let hard = 0;
  let aces = 0;
  for (const card of cards) {
    const points = blackjackPoints(card);
    hard += points;
    if (points === 1) aces++;
  }
  if (aces > 0 && hard + 10 <= 21) return { total: hard + 10, soft: true };
  return { total: hard, soft: false };
}

/** Ace and a ten-value card as the first two cards (003 § 16(1); 004). */
export function isBlackjackPair(cards: readonly StandardCard[]): boolean {
  return cards.length === 2 && blackjackTotal(cards).total === 21;
}

/** Dealer draws to 16 and stands on 17 (003 § 15(6); 004); on soft 17 too when `hitSoft17`. */
export function dealerMustDraw(cards: readonly StandardCard[], hitSoft17: boolean): boolean {
  const { total, soft } = blackjackTotal(cards);
  return total < 17 || (hitSoft17 && total === 17 && soft);
}
