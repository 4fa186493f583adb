/**
 * The exact head-to-head of two six-card poker hands (Triple Shot Poker,
 * 000 § 9.c, § 10): the inclusion-exclusion count is checked against a
 * brute force over every pair of hands on a 20-card deck (A-5 in four
 * suits, where flushes, straight flushes and the wheel all occur), then run
 * on the full deck. Slow (about 30 s); CI runs it.
 */
import { describe, expect, it } from 'vitest';
import type { TripleShotRuleset } from '../../firmware-host/engine/rulesets/schema.ts';
import { sixCardShowdown } from '../../firmware-host/games/cards/poker/analysis/six-card-showdown.ts';
import { evaluate6Ints } from '../../firmware-host/games/cards/poker/evaluator.ts';
import { strengthTables } from '../../firmware-host/games/cards/poker/evaluator-tables.ts';
import { pokerBetReturn } from '../../firmware-host/games/cards/triple-shot/analysis.ts';
import { getRuleset } from '../../firmware-host/games/rulesets.ts';

function bruteForce(deck: readonly number[]) {
  const categoryOf = strengthTables().categoryOfStrength;
  const strengthOfMask = new Map<number, number>();
  const n = deck.length;
  const hand: number[] = [];
  const pick = (start: number, mask: number) => {
    if (hand.length === 6) {
      strengthOfMask.set(
        mask,
        evaluate6Ints(...(hand as [number, number, number, number, number, number])),
      );
      return;
    }
    for (let i = start; i < n; i++) {
      hand.push(deck[i]!);
      pick(i + 1, mask | (1 << i));
      hand.pop();
    }
  };
  pick(0, 0);
  const wins = new Array<number>(10).fill(0);
  const ties = new Array<number>(10).fill(0);
  const losses = new Array<number>(10).fill(0);
  const hands = [...strengthOfMask.entries()];
  for (const [player, mine] of hands) {
    const category = categoryOf[mine]!;
    for (const [dealer, theirs] of hands) {
      if ((player & dealer) !== 0) continue;
      if (mine > theirs) wins[category]!++;
      else if (mine === theirs) ties[category]!++;
      else losses[category]!++;
    }
  }
  return { wins, ties, losses };
}

describe('six-card showdown', () => {
  it('equals a brute force over every pair of hands from A-5 in four suits', () => {
    const deck = [12, 0, 1, 2, 3].flatMap((rank) => [0, 1, 2, 3].map((suit) => rank * 4 + suit));
    const exact = sixCardShowdown(deck);
    const brute = bruteForce(deck);
    expect(exact.total).toBe(116_396_280n);
    expect(exact.wins.map(Number)).toEqual(brute.wins);
    expect(exact.ties.map(Number)).toEqual(brute.ties);
    expect(exact.losses.map(Number)).toEqual(brute.losses);
  }, 60_000);

  it('on the full deck: wins and losses balance, and the posted table returns +32.858 %', () => {
    const showdown = sixCardShowdown();
    expect(showdown.total).toBe(20_358_520n * 9_366_819n);
    const sum = (values: readonly bigint[]) => values.reduce((a, b) => a + b, 0n);
    // Swapping the two hands turns every win into a loss.
    expect(sum(showdown.wins)).toBe(sum(showdown.losses));
    expect(sum(showdown.ties)).toBe(23_745_307_392n);
    const bet = pokerBetReturn(getRuleset('peru-triple-shot') as TripleShotRuleset, showdown);
    expect(bet.expectedReturn.toNumber()).toBeCloseTo(0.32858, 5);
  }, 120_000);
});
