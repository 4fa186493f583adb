/**
 * Issue 34, item 9: `tableside run --no-view` printed a round's result up to
 * its sixth bet ("box:2.blackjack -1") and dropped the rest, boxes 2 and 3,
 * with no "…"; Hold'em, Casino Hold'em and Caribbean Stud the same. The
 * line (and the live view's list of results) now holds every bet.
 */
import { describe, expect, it } from 'vitest';
import { describeEvent } from '../../../firmware-host/daemon/view.ts';

/** A result's bets as the game's engine names them, for boxes 1 to 3. */
function betsOf(kinds: readonly string[]): Record<string, number> {
  const bets: Record<string, number> = {};
  for (const box of [1, 2, 3]) {
    kinds.forEach((kind, index) => {
      bets[`box:${box}.${kind}`] = index % 2 === 0 ? -1 : box + index;
    });
  }
  return bets;
}

const GAMES = [
  { game: 'peru-triple-shot', kinds: ['war', 'blackjack', 'insurance', 'poker', 'bonus'] },
  { game: 'spain-holdem-bonus', kinds: ['ante', 'flop', 'turn', 'river', 'bonus'] },
  { game: 'tdc-casino-holdem', kinds: ['ante', 'call', 'aa_bonus'] },
  { game: 'bulgaria-caribbean-stud', kinds: ['ante', 'raise', 'progressive'] },
  { game: 'tdc-blackjack', kinds: ['main', 'insurance', 'split'] },
];

describe('the terminal view shows every bet of a result, in every game', () => {
  it.each(GAMES)('$game: all three boxes’ bets, none dropped', ({ kinds }) => {
    const bets = betsOf(kinds);
    const line = describeEvent({ type: 'result', round: 12, outcome: { bets } });
    expect(line.startsWith('round 12: ')).toBe(true);
    // In the game's words: each bet with what it did, none dropped.
    for (const [bet, result] of Object.entries(bets)) {
      expect(line.toLowerCase()).toContain(
        `${bet} ${result > 0 ? `wins ${result} to 1` : 'loses'}`,
      );
    }
    expect(line.split(', ')).toHaveLength(Object.keys(bets).length);
  });
});
