/**
 * Roulette's exact house edges: 1/37 on every bet of a single-zero wheel
 * paying 003 § 12(1); 1/74 on the even chances under la partage; a ruleset
 * with an uneven payout shows the range across a bet type's instances.
 */
import { describe, expect, it } from 'vitest';
import { analyzeRoulette } from '../../../firmware-host/games/roulette/analysis/roulette.ts';
import { getRouletteRuleset } from '../../../firmware-host/games/rulesets.ts';

const tdc = getRouletteRuleset('tdc-roulette');
const bulgaria = getRouletteRuleset('bulgaria-roulette');
const edges = (analysis: ReturnType<typeof analyzeRoulette>) =>
  Object.fromEntries(analysis.bets.map((bet) => [bet.bet, bet.houseEdge.toString()]));

describe('exact roulette house edges', () => {
  it('is exactly 1/37 for every bet type at tdc-roulette, call bets included', () => {
    const result = edges(analyzeRoulette(tdc));
    expect(Object.keys(result)).toEqual([
      'straight',
      'split',
      'trio',
      'street',
      'first-four',
      'corner',
      'sixline',
      'dozen',
      'column',
      'red',
      'black',
      'even',
      'odd',
      'low',
      'high',
      'neighbours',
      'voisins',
      'tiers',
      'orphelins',
      'zero-spiel',
      'complete',
    ]);
    for (const edge of Object.values(result)) expect(edge).toBe('1/37');
  });

  it('lists only the call bets 003 § 12(1) offers at bulgaria-roulette', () => {
    const names = analyzeRoulette(bulgaria).bets.map((bet) => bet.bet);
    expect(names).toContain('voisins');
    expect(names).toContain('neighbours');
    expect(names).not.toContain('tiers');
    expect(names).not.toContain('complete');
  });

  it('halves the even chances to 1/74 under la partage, the dozens staying 1/37', () => {
    const result = edges(
      analyzeRoulette({ ...tdc, zero: { ...tdc.zero, outsideBets: 'la_partage' } }),
    );
    for (const bet of ['red', 'black', 'even', 'odd', 'low', 'high'])
      expect(result[bet]).toBe('1/74');
    expect(result.dozen).toBe('1/37');
    expect(result.straight).toBe('1/37');
  });

  it('gives win chances and the range of a bet type whose instances differ', () => {
    const analysis = analyzeRoulette({ ...tdc, payouts: { ...tdc.payouts, straight: 34 } });
    const straight = analysis.bets.find((bet) => bet.bet === 'straight')!;
    expect(straight.houseEdge.toString()).toBe('2/37');
    expect(straight.winProbability?.toString()).toBe('1/37');
    const complete = analysis.bets.find((bet) => bet.bet === 'complete')!;
    // The straight part loses 1/37 more per chip on it: 1 chip in 40 on complete:17, 1 in 17 on complete:0.
    expect(complete.chips).toEqual([17, 40]);
    expect(complete.range?.lowest.toString()).toBe('41/1480');
    expect(complete.range?.highest.toString()).toBe('18/629');
  });
});
