/**
 * Turn-and-burn at a new shoe: the first card is turned face up and that
 * many more cards are burned face down, a ten-value card burning
 * `tenValueBurns` (10 in common practice; RULES.md "Punto Banco burn";
 * 003 § 24 item 3.a leaves the number to the organiser's approved rules).
 * The table session does the burning; this only counts.
 */
import { rankOf, type StandardCard } from '../../../../device-protocol/cards.ts';

/** Cards to burn after the turned `firstCard` (the turned card itself is discarded too). */
export function burnCount(firstCard: StandardCard, tenValueBurns = 10): number {
  const rank = rankOf(firstCard);
  if (rank === 'A') return 1;
  if (rank === 'T' || rank === 'J' || rank === 'Q' || rank === 'K') return tenValueBurns;
  return Number(rank);
}
