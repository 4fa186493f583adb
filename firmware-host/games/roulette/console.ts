/**
 * The dealer console at a roulette table: the same three buttons.
 *
 *   newRound  press  → { t: 'no_more_bets' } (003 § 11(2))
 *   voidHand  held   → { t: 'closing' }     (closing time, 003 § 13(2): held, like a void)
 *   confirm   press  → nothing (a refuse buzz: the wheel reports the spin itself)
 */
import type { ConsoleButton, ConsolePress } from '../game.ts';

export function rouletteConsolePress(
  button: ConsoleButton,
  long: boolean,
  at: { readonly ts: number; readonly src: string },
): ConsolePress {
  if (button === 'newRound') return { records: [{ t: 'no_more_bets', ...at }], buzz: ['ack'] };
  if (button === 'voidHand' && long) return { records: [{ t: 'closing', ...at }], buzz: ['ack'] };
  return { records: [], buzz: ['refuse'] };
}
