import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compositionKey, shoeComposition } from '../../../device-protocol/cards.ts';
import {
  recipeFor,
  rulesetNames,
  ShoeDealer,
} from '../../../firmware-host/games/cards/simulated/legal-shoe.ts';
import { createRandom } from '../../../simulators/random.ts';

describe("a legal shoe holds exactly the ruleset's composition", () => {
  it.each(rulesetNames())('%s', (ruleset) => {
    const recipe = recipeFor(ruleset);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), (seed) => {
        const dealer = new ShoeDealer(recipe, createRandom(seed));
        const shoe = dealer.next();
        const jokers = recipe.marker.kind === 'joker' ? 1 : 0;
        const expected = shoeComposition({ decks: recipe.decks, backs: shoe.backs, jokers });
        const counted = new Map<string, number>();
        for (const card of shoe.cards) {
          const key = compositionKey(card.card, card.back);
          counted.set(key, (counted.get(key) ?? 0) + 1);
        }
        expect(counted).toEqual(expected);
        expect(shoe.cards.every((card) => card.face === 'down')).toBe(true);
        if (recipe.marker.kind === 'cut') {
          expect(shoe.cards.length - shoe.cutAfter!).toBe(recipe.marker.cardsBehind);
        }
        if (recipe.marker.kind === 'joker') {
          expect(shoe.cards.length - 1 - shoe.cards.findIndex((card) => card.card === 'JK')).toBe(
            recipe.marker.cardsBehind,
          );
        }
        if (recipe.alternateBacks) expect(dealer.next().backs).not.toEqual(shoe.backs);
      }),
      { numRuns: 20 },
    );
  });

  it('refuses an unknown ruleset, listing the known ones', () => {
    expect(() => recipeFor('las-vegas-craps')).toThrow(
      /unknown ruleset "las-vegas-craps": expected one of .*tdc-blackjack/,
    );
  });
});
