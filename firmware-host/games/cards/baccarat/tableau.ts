/**
 * The Punto Banco third-card tableau and card values, as pure functions.
 * The engine deals by them and the analysis tools enumerate with them, so
 * they take plain numbers: card points 0-9, totals 0-9.
 */
import { rankOf, type StandardCard } from '../../../../device-protocol/cards.ts';

/** Baccarat points: 10 J Q K count 0, ace 1, others face value (004 card values). */
export function cardPoints(card: StandardCard): number {
  const rank = rankOf(card);
  if (rank === 'A') return 1;
  if (rank === 'T' || rank === 'J' || rank === 'Q' || rank === 'K') return 0;
  return Number(rank);
}

/** A hand's total: the sum of its points modulo 10, only the units count (004). */
export function handTotal(cards: readonly StandardCard[]): number {
  let sum = 0;
  for (const card of cards) sum += cardPoints(card);
  return sum % 10;
}

/** 8 or 9 with the first two cards (003 § 24 item 3.c; 004). */
export function isNaturalTotal(twoCardTotal: number): boolean {
  return twoCardTotal === 8 || twoCardTotal === 9;
}

/**
 * Whether the Player draws a third card on its two-card total, given that
 * neither side has a natural: 0-5 draws, 6-7 stands (004 Player table;
 * 003 § 24 scheme "ПУНТО").
 */
export function playerDraws(playerTotal: number): boolean {
  checkTotal(playerTotal, 'Player total');
  return playerTotal <= 5;
}

/**
 * The one point where the tableaux of the seeds differ: a Banker 5 draws on
 * a Player third card of 4-7 in 004 and the universal tableau, on 4, 5, 6
 * only in the scheme of 003 § 24 ("СХЕМА НА ИГРАТА").
 */
export interface Tableau {
  readonly bankerFiveDrawsOnSeven: boolean;
}

/** The universal tableau (004 Banker table). */
export const UNIVERSAL_TABLEAU: Tableau = { bankerFiveDrawsOnSeven: true };

/**
 * Whether the Banker draws on its two-card total, given that neither side
 * has a natural. `playerThirdCard` is the points (0-9) of the Player's third
 * card, or null when the Player stood (004 Banker table and note):
 * - Player stood: Banker draws on 0-5, stands on 6-7 (004 note);
 * - 0-2 draws always; 3 draws unless the third card is 8; 4 on 2-7;
 *   5 on 4-7 (4-6 by the letter of 003 § 24, `tableau`); 6 on 6-7;
 *   7 stands (004 Banker table).
 */
export function bankerDraws(
  bankerTotal: number,
  playerThirdCard: number | null,
  tableau: Tableau = UNIVERSAL_TABLEAU,
): boolean {
  checkTotal(bankerTotal, 'Banker total');
  if (playerThirdCard === null) return bankerTotal <= 5;
  checkTotal(playerThirdCard, "Player's third card points");
  const third = playerThirdCard;
  switch (bankerTotal) {
    case 0:
    case 1:
    case 2:
      return true;
    case 3:
      return third !== 8;
    case 4:
      return third >= 2 && third <= 7;
    case 5:
      return third >= 4 && third <= (tableau.bankerFiveDrawsOnSeven ? 7 : 6);
    case 6:
      return third === 6 || third === 7;
    default:
      return false;
  }
}

function checkTotal(value: number, what: string): void {
  if (!Number.isInteger(value) || value < 0 || value > 9) {
    throw new RangeError(`${what} must be a whole number 0-9, got ${value}`);
  }
}
