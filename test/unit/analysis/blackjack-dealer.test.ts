/**
 * The dealer's final hand from a full shoe (003 § 15(6); 004), checked for
 * exactness (counts add up to the denominator) and against an independent
 * plain recursion in floating point, and against published figures.
 */
import { describe, expect, it } from 'vitest';
import { ratio } from '../../../firmware-host/analysis/exact.ts';
import {
  analyzeDealer,
  DEALER_OUTCOMES,
} from '../../../firmware-host/games/cards/blackjack/analysis.ts';

/** Plain recursion over values with floating probabilities, no memo: the check. */
function plainDealer(decks: number, hitSoft17: boolean): number[] {
  const left = [4, 4, 4, 4, 4, 4, 4, 4, 4, 16].map((n) => n * decks);
  const result = new Array<number>(7).fill(0);
  const walk = (hard: number, aces: number, cards: number, p: number, remaining: number) => {
    const soft = aces > 0 && hard + 10 <= 21;
    const total = soft ? hard + 10 : hard;
    if (cards >= 2 && (total > 17 || (total === 17 && !(soft && hitSoft17)))) {
      result[total > 21 ? 6 : total === 21 && cards === 2 ? 5 : total - 17]! += p;
      return;
    }
    for (let v = 0; v < 10; v++) {
      if (left[v] === 0) continue;
      const q = p * (left[v]! / remaining);
      left[v]!--;
      walk(
        hard + (v === 0 ? 1 : v === 9 ? 10 : v + 1),
        aces + (v === 0 ? 1 : 0),
        cards + 1,
        q,
        remaining - 1,
      );
      left[v]!++;
    }
  };
  walk(0, 0, 0, 1, 52 * decks);
  return result;
}

describe('dealer final totals', () => {
  it.each([
    [1, false],
    [2, true],
    [6, false],
  ])(
    '%i deck(s), hits soft 17 %s: counts add up and agree with a plain recursion',
    (decks, h17) => {
      const analysis = analyzeDealer(decks, h17);
      const sum = Object.values(analysis.outcomes).reduce((a, b) => a + b, 0n);
      expect(sum).toBe(analysis.total);
      const plain = plainDealer(decks, h17);
      DEALER_OUTCOMES.forEach((name, i) => {
        expect(ratio(analysis.outcomes[name], analysis.total)).toBeCloseTo(plain[i]!, 12);
      });
    },
  );

  it('6 decks, dealer stands on soft 17: bust 0.2819, close to the published 0.2816', () => {
    const analysis = analyzeDealer(6, false);
    expect(Math.abs(ratio(analysis.outcomes.bust, analysis.total) - 0.2816)).toBeLessThan(0.0005);
  });

  it('dealer blackjack is exactly 2 x 24/312 x 96/311 with 6 decks', () => {
    const analysis = analyzeDealer(6, false);
    expect(ratio(analysis.outcomes.blackjack, analysis.total)).toBeCloseTo(
      (2 * 24 * 96) / (312 * 311),
      14,
    );
  });

  it('hitting soft 17 makes fewer 17s and more busts', () => {
    const s17 = analyzeDealer(6, false);
    const h17 = analyzeDealer(6, true);
    expect(ratio(h17.outcomes['17'], h17.total)).toBeLessThan(ratio(s17.outcomes['17'], s17.total));
    expect(ratio(h17.outcomes.bust, h17.total)).toBeGreaterThan(
      ratio(s17.outcomes.bust, s17.total),
    );
  });
});
