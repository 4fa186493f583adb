/**
 * Texas Hold'em Bonus side bet (001 "Apuesta Especial o Bonus") and Triple
 * Shot War (000 § 9.a, § 11), exactly.
 */
import { describe, expect, it } from 'vitest';
import type { StandardCard } from '../../../device-protocol/cards.ts';
import {
  analyzeHoldemBonus,
  holdemBonusHand,
} from '../../../firmware-host/analysis/holdem-bonus.ts';
import { analyzeWar } from '../../../firmware-host/analysis/triple-shot.ts';
import { cardToInt } from '../../../firmware-host/engine/poker/evaluator.ts';
import { getRuleset } from '../../../firmware-host/engine/rulesets/index.ts';
import type { TripleShotRuleset } from '../../../firmware-host/engine/rulesets/schema.ts';

const two = (a: StandardCard, b: StandardCard) => [cardToInt(a), cardToInt(b)] as [number, number];

describe("Hold'em Bonus (001)", () => {
  it('AA pays 1000:1 only when the dealer holds AA too', () => {
    expect(holdemBonusHand(two('AS', 'AH'), two('AD', 'AC'))).toBe('aa_with_dealer_aa');
    expect(holdemBonusHand(two('AS', 'AH'), two('AD', 'KC'))).toBe('aa');
  });

  it('classifies suited and offsuit ace hands and the pairs', () => {
    expect(holdemBonusHand(two('AS', 'KS'), two('2D', '3C'))).toBe('ak_suited');
    expect(holdemBonusHand(two('JH', 'AH'), two('2D', '3C'))).toBe('aq_aj_suited');
    expect(holdemBonusHand(two('AS', 'KD'), two('2D', '3C'))).toBe('ak_offsuit');
    expect(holdemBonusHand(two('QS', 'QD'), two('2D', '3C'))).toBe('kk_qq_jj');
    expect(holdemBonusHand(two('AS', 'QD'), two('2D', '3C'))).toBe('aq_aj_offsuit');
    expect(holdemBonusHand(two('TS', 'TD'), two('2D', '3C'))).toBe('pair_2_to_10');
    expect(holdemBonusHand(two('AS', 'TS'), two('2D', '3C'))).toBe('other');
  });

  it('enumerates 1,624,350 deals with exact counts and an edge of 13873/162435 (8.54 %)', () => {
    const analysis = analyzeHoldemBonus();
    expect(analysis.total).toBe(1_624_350n);
    expect(analysis.hands).toEqual({
      aa_with_dealer_aa: 6n,
      aa: 7344n,
      ak_suited: 4900n,
      aq_aj_suited: 9800n,
      ak_offsuit: 14700n,
      kk_qq_jj: 22050n,
      aq_aj_offsuit: 29400n,
      pair_2_to_10: 66150n,
      other: 1_470_000n,
    });
    expect(analysis.houseEdge.toString()).toBe('13873/162435');
  });
});

describe('Triple Shot War (000 § 9.a, § 11)', () => {
  it('a tie losing half gives a house edge of exactly 1/34 (2.94 %)', () => {
    const war = analyzeWar(getRuleset('peru-triple-shot') as TripleShotRuleset);
    expect([war.total, war.win, war.tie, war.lose]).toEqual([2652n, 1248n, 156n, 1248n]);
    expect(war.houseEdge.toString()).toBe('1/34');
  });
});
