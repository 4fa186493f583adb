/**
 * Texas Hold'em Bonus side bet (001 "Apuesta Especial o Bonus") and Triple
 * Shot War (000 § 9.a, § 11), exactly.
 */
import { describe, expect, it } from 'vitest';
import type { StandardCard } from '../../../device-protocol/cards.ts';
import type { HoldemBonusRuleset } from '../../../firmware-host/engine/rulesets/poker.ts';
import type { TripleShotRuleset } from '../../../firmware-host/engine/rulesets/schema.ts';
import {
  analyzeHoldemBonus,
  bonusRowIndex,
} from '../../../firmware-host/games/cards/poker/analysis/holdem-bonus.ts';
import { cardToInt } from '../../../firmware-host/games/cards/poker/evaluator.ts';
import { analyzeWar } from '../../../firmware-host/games/cards/triple-shot/analysis.ts';
import { getRuleset } from '../../../firmware-host/games/rulesets.ts';

const two = (a: StandardCard, b: StandardCard) => [cardToInt(a), cardToInt(b)] as [number, number];

const spain = getRuleset('spain-holdem-bonus') as HoldemBonusRuleset;
const rowOf = (player: [number, number], dealer: [number, number]) => {
  const index = bonusRowIndex(spain.bonus, player, dealer);
  return index < 0 ? 'otherwise' : `${spain.bonus.rows[index]!.pays}:1`;
};

describe("Hold'em Bonus (001 Apuesta Especial o Bonus)", () => {
  it('AA pays 1000:1 only when the dealer holds AA too, else 30:1', () => {
    expect(rowOf(two('AS', 'AH'), two('AD', 'AC'))).toBe('1000:1');
    expect(rowOf(two('AS', 'AH'), two('AD', 'KC'))).toBe('30:1');
  });

  it('pays suited and offsuit ace hands and the pairs by the table', () => {
    expect(rowOf(two('AS', 'KS'), two('2D', '3C'))).toBe('25:1');
    expect(rowOf(two('JH', 'AH'), two('2D', '3C'))).toBe('20:1');
    expect(rowOf(two('AS', 'KD'), two('2D', '3C'))).toBe('15:1');
    expect(rowOf(two('QS', 'QD'), two('2D', '3C'))).toBe('10:1');
    expect(rowOf(two('AS', 'QD'), two('2D', '3C'))).toBe('5:1');
    expect(rowOf(two('TS', 'TD'), two('2D', '3C'))).toBe('3:1');
    expect(rowOf(two('AS', 'TS'), two('2D', '3C'))).toBe('otherwise');
  });

  it('enumerates 1,624,350 deals with exact counts and an edge of 13873/162435 (8.54 %)', () => {
    const analysis = analyzeHoldemBonus(spain.bonus);
    expect(analysis.total).toBe(1_624_350n);
    expect(analysis.lines.map((line) => [line.pays, line.count])).toEqual([
      [1000, 6n],
      [30, 7344n],
      [25, 4900n],
      [20, 9800n],
      [15, 14700n],
      [10, 22050n],
      [5, 29400n],
      [3, 66150n],
      [-1, 1_470_000n],
    ]);
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
