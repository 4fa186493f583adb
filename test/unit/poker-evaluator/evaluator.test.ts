/**
 * The poker hand evaluator: hand ranks of 000 § 4, 001 § 3 and
 * 003 § 28(14), checked by named hands, by exact category counts over all
 * 2,598,960 five-card hands, and by properties against a slow reference.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type StandardCard, standardDeck } from '../../../device-protocol/cards.ts';
import { isEngineError } from '../../../firmware-host/engine/errors.ts';
import { pokerCategoryCounts } from '../../../firmware-host/games/cards/poker/analysis/poker.ts';
import {
  bestFive,
  cardToInt,
  compareHands,
  evaluate,
  evaluateInts,
  intToCard,
  POKER_CATEGORIES,
  strengthValue,
} from '../../../firmware-host/games/cards/poker/evaluator.ts';
import {
  fiveCardSubsets,
  referenceValue,
} from '../../../firmware-host/games/cards/poker/evaluator-reference.ts';
import {
  RANK_KEYS_5,
  RANK_KEYS_7,
  rankKeyCollisions,
} from '../../../firmware-host/games/cards/poker/evaluator-tables.ts';

const hand = (text: string): StandardCard[] => text.split(' ') as StandardCard[];
const categoryOf = (text: string) => evaluate(hand(text)).category;

const DECK = standardDeck();
const handOf = (size: number) =>
  fc
    .shuffledSubarray(DECK, { minLength: size, maxLength: size })
    .map((cards) => cards as StandardCard[]);
const anyHand = fc.oneof(handOf(5), handOf(6), handOf(7));

describe('categories (000 § 4 a-i; 001 § 3)', () => {
  it.each([
    ['AS KS QS JS TS', 'royal_flush'],
    ['9H KH QH JH TH', 'straight_flush'],
    ['AD 2D 3D 4D 5D', 'straight_flush'],
    ['7C 7D 7H 7S 2C', 'four_of_a_kind'],
    ['9C 9D 9H AS AC', 'full_house'],
    ['3D 6D 7D 9D TD', 'flush'],
    ['5H 6S 7H 8D 9S', 'straight'],
    ['AH 2S 3H 4D 5C', 'straight'],
    ['TH JS QH KD AC', 'straight'],
    ['QC QD QH 2S 9C', 'three_of_a_kind'],
    ['JC JD 7H 7S 2C', 'two_pair'],
    ['KC KD 7H 4S 2C', 'one_pair'],
    ['AC JD 7H 4S 2C', 'high_card'],
  ])('%s is %s', (cards, category) => {
    expect(categoryOf(cards)).toBe(category);
  });

  it('Q-K-A-2-3 is no straight: the ace does not wrap around (000 § 4.f)', () => {
    expect(categoryOf('QH KS AH 2D 3C')).toBe('high_card');
    expect(categoryOf('QH KH AH 2H 3H')).toBe('flush');
  });

  it('A-2-3-4-5 is the lowest straight, below 2-3-4-5-6 (000 § 3, § 4.f)', () => {
    expect(compareHands(hand('AH 2S 3H 4D 5C'), hand('2H 3S 4H 5D 6C'))).toBeLessThan(0);
    expect(compareHands(hand('AH 2H 3H 4H 5H'), hand('2D 3D 4D 5D 6D'))).toBeLessThan(0);
  });

  it('suits are equal: the same ranks in other suits tie (003 § 28(14))', () => {
    expect(compareHands(hand('AH KD 9S 7C 3H'), hand('AS KC 9D 7H 3D'))).toBe(0);
    expect(compareHands(hand('AH KH QH JH TH'), hand('AS KS QS JS TS'))).toBe(0);
  });

  it('ties are broken by the remaining cards (001 § 3)', () => {
    expect(compareHands(hand('KC KD 7H 4S 3C'), hand('KH KS 7D 4C 2D'))).toBeGreaterThan(0);
    expect(compareHands(hand('JC JD 7H 7S 3C'), hand('JH JS 7D 7C 2D'))).toBeGreaterThan(0);
    expect(compareHands(hand('9C 9D 9H 2S 2C'), hand('8C 8D 8H AS AC'))).toBeGreaterThan(0);
  });

  it('takes the best five of six and of seven cards', () => {
    expect(categoryOf('AS KS QS JS TS 2D 3C')).toBe('royal_flush');
    expect(categoryOf('2C 2D 2H 3S 3C 3D KD')).toBe('full_house');
    expect(categoryOf('2C 3C 4C 5C 6C 7C 8D')).toBe('straight_flush');
    expect(categoryOf('AH 2S 3H 4D 5C 6C')).toBe('straight');
    // Two pair plus a third pair: the kicker may come from the third pair.
    expect(
      compareHands(hand('KC KD QH QS 5C 5D 2H'), hand('KH KS QC QD 4C 3D 2S')),
    ).toBeGreaterThan(0);
  });

  it('shows the best five with the wheel ace last and groups first', () => {
    expect(bestFive(hand('AS 2D 3S 4S 5S KH KD')).cards).toEqual(hand('5S 4S 3S 2D AS'));
    expect(bestFive(hand('9C 2D 9H AS 9D 7C AC')).cards).toEqual(hand('9H 9D 9C AS AC'));
  });
});

describe('bad input', () => {
  it.each([
    [['AS', 'KS', 'QS', 'JS']],
    [['AS', 'KS', 'QS', 'JS', 'TS', '9S', '8S', '7S']],
    [['AS', 'KS', 'QS', 'JS', 'AS']],
    [['AS', 'KS', 'QS', 'JS', 'JK']],
    [['AS', 'KS', 'QS', 'JS', '1S']],
  ])('rejects %j with a coded engine error naming the problem', (cards) => {
    let caught: unknown;
    try {
      evaluate(cards as StandardCard[]);
    } catch (error) {
      caught = error;
    }
    expect(isEngineError(caught)).toBe(true);
    expect((caught as Error).message).toMatch(/5, 6 or 7 cards|twice|bad card/);
  });
});

describe('tables', () => {
  it.each([5, 6, 7])('the seven-card rank keys never collide within %i-card hands', (size) => {
    expect(rankKeyCollisions(RANK_KEYS_7, size)).toBe(0);
  });

  it('the five-card rank keys never collide within five-card hands', () => {
    expect(rankKeyCollisions(RANK_KEYS_5, 5)).toBe(0);
  });

  it('card integers round-trip for the whole deck', () => {
    expect(DECK.map((card) => intToCard(cardToInt(card)))).toEqual(DECK);
    expect(new Set(DECK.map(cardToInt)).size).toBe(52);
  });
});

describe('every five-card hand from one deck', () => {
  it('counts exactly 2,598,960 hands by category', () => {
    const counts = pokerCategoryCounts(5);
    expect(counts.total).toBe(2_598_960n);
    expect(counts.categories).toEqual({
      royal_flush: 4n,
      straight_flush: 36n,
      four_of_a_kind: 624n,
      full_house: 3744n,
      flush: 5108n,
      straight: 10200n,
      three_of_a_kind: 54912n,
      two_pair: 123552n,
      one_pair: 1098240n,
      high_card: 1302540n,
    });
  });

  it('finds 7,462 distinct hand values, every one reached', () => {
    const counts = pokerCategoryCounts(5);
    expect(counts.byStrength.slice(1).every((count) => count > 0)).toBe(true);
    expect(counts.byStrength.length).toBe(7463);
  });
});

describe('properties', () => {
  it('agrees with the slow reference evaluator on 5, 6 and 7 cards', () => {
    fc.assert(
      fc.property(anyHand, (cards) => {
        expect(evaluate(cards).value).toBe(referenceValue(cards));
      }),
      { numRuns: 3000 },
    );
  });

  it('permuting the cards changes nothing', () => {
    fc.assert(
      fc.property(
        anyHand.chain((cards) =>
          fc.tuple(fc.constant(cards), fc.shuffledSubarray(cards, { minLength: cards.length })),
        ),
        ([cards, permuted]) => {
          expect(evaluate(permuted)).toEqual(evaluate(cards));
          expect(evaluateInts(permuted.map(cardToInt))).toBe(evaluateInts(cards.map(cardToInt)));
        },
      ),
    );
  });

  it('the best of six or seven is the best of its five-card subsets', () => {
    fc.assert(
      fc.property(fc.oneof(handOf(6), handOf(7)), (cards) => {
        const best = Math.max(...fiveCardSubsets(cards).map((five) => evaluate(five).value));
        expect(evaluate(cards).value).toBe(best);
        const shown = bestFive(cards);
        expect(evaluate(shown.cards).value).toBe(best);
        expect(shown.cards.every((card) => cards.includes(card))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('the order is total and consistent with the categories', () => {
    const rank = (cards: StandardCard[]) => POKER_CATEGORIES.indexOf(evaluate(cards).category);
    fc.assert(
      fc.property(anyHand, anyHand, anyHand, (a, b, c) => {
        const ab = compareHands(a, b);
        // Antisymmetric, and a better category always wins.
        expect(compareHands(b, a) + ab).toBe(0);
        if (rank(a) < rank(b)) expect(ab).toBe(1);
        if (ab < 0) expect(rank(a)).toBeGreaterThanOrEqual(rank(b));
        // Transitive.
        if (ab >= 0 && compareHands(b, c) >= 0)
          expect(compareHands(a, c)).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 2000 },
    );
  });

  it('the integer entry points and the card-code API agree', () => {
    fc.assert(
      fc.property(anyHand, (cards) => {
        expect(strengthValue(evaluateInts(cards.map(cardToInt)))).toBe(evaluate(cards).value);
      }),
    );
  });
});
