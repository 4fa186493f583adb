/**
 * Every 6-card (20,358,520) and 7-card (133,784,560) hand from one deck,
 * counted by best-five category (000 § 4). Slow (a few seconds); CI runs it.
 */
import { describe, expect, it } from 'vitest';
import { pokerCategoryCounts } from '../../firmware-host/games/cards/poker/analysis/poker.ts';

describe('exhaustive category counts', () => {
  it('six cards: 20,358,520 hands', () => {
    const counts = pokerCategoryCounts(6);
    expect(counts.total).toBe(20_358_520n);
    expect(counts.categories).toEqual({
      royal_flush: 188n,
      straight_flush: 1656n,
      four_of_a_kind: 14664n,
      full_house: 165984n,
      flush: 205792n,
      straight: 361620n,
      three_of_a_kind: 732160n,
      two_pair: 2532816n,
      one_pair: 9730740n,
      high_card: 6612900n,
    });
  });

  it('seven cards: 133,784,560 hands', () => {
    const counts = pokerCategoryCounts(7);
    expect(counts.total).toBe(133_784_560n);
    expect(counts.categories).toEqual({
      royal_flush: 4324n,
      straight_flush: 37260n,
      four_of_a_kind: 224848n,
      full_house: 3473184n,
      flush: 4047644n,
      straight: 6180020n,
      three_of_a_kind: 6461620n,
      two_pair: 31433400n,
      one_pair: 58627800n,
      high_card: 23294460n,
    });
  }, 120_000);
});
