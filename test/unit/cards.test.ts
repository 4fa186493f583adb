import { describe, expect, it } from 'vitest';
import {
  parseCard,
  parseCards,
  shoeComposition,
  shoeSize,
  standardDeck,
} from '../../device-protocol/cards.ts';
import { isProtocolError } from '../../device-protocol/errors.ts';

describe('cards', () => {
  it('parses every standard code and the joker', () => {
    const deck = standardDeck();
    expect(deck).toHaveLength(52);
    expect(new Set(deck).size).toBe(52);
    for (const card of deck) expect(parseCard(card)).toBe(card);
    expect(parseCard('JK')).toBe('JK');
  });

  it('rejects bad codes with an error naming the input', () => {
    for (const bad of ['10H', 'AX', 'ZS', '', 'as', 'AS ', 'JKR']) {
      try {
        parseCard(bad);
        expect.unreachable(`accepted ${bad}`);
      } catch (error) {
        expect(isProtocolError(error)).toBe(true);
        expect((error as Error).message).toContain(JSON.stringify(bad));
      }
    }
  });

  it('parses a card list in any case and separator', () => {
    expect(parseCards('9h 2C,td  7s')).toEqual(['9H', '2C', 'TD', '7S']);
  });

  it('composes a shoe per deck count and back colour', () => {
    const spec = { decks: 8, backs: ['red'], jokers: 1 };
    const composition = shoeComposition(spec);
    expect(composition.get('AS/red')).toBe(8);
    expect(composition.get('JK/red')).toBe(1);
    expect(composition.get('AS/blue')).toBeUndefined();
    expect([...composition.values()].reduce((a, b) => a + b, 0)).toBe(shoeSize(spec));
    expect(shoeSize({ decks: 1, backs: ['red', 'blue'] })).toBe(104);
    expect(() => shoeComposition({ decks: 0, backs: ['red'] })).toThrow(/deck count/);
    expect(() => shoeComposition({ decks: 1, backs: ['Red!'] })).toThrow(/back colour/);
  });
});
