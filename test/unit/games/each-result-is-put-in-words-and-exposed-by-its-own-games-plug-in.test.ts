/**
 * A result is its own game's to put in words and to expose (issue 35
 * item 1): with high card (a fixture game) beside the shipped games, its
 * result is neither read as a card table's boxes nor withheld as a game the
 * build does not know; a card game's result is still the cards plug-in's.
 */
import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../../firmware-host/table/events.ts';
import { withHighCard } from '../../fixtures/games/high-card/registry.ts';

const highCardResult: DomainEvent = {
  type: 'result',
  round: 1,
  outcome: {
    game: 'high-card',
    player: 'QS',
    banker: '3D',
    winner: 'player',
    bets: { player: 1, banker: -1 },
  },
};

describe('a result, by its own game', () => {
  const registry = withHighCard();

  it("is put in high card's words, not a card table's", () => {
    expect(registry.resultWordsOf(highCardResult)).toEqual([
      'Player QS, banker 3D.',
      'The player wins.',
    ]);
  });

  it('is exposed whole by high card, and withheld for a game no plug-in plays', () => {
    expect(
      registry.exposedOutcomeOf((highCardResult as { outcome: Record<string, unknown> }).outcome),
    ).toEqual({
      game: 'high-card',
      player: 'QS',
      banker: '3D',
      winner: 'player',
      bets: { player: 1, banker: -1 },
    });
    expect(registry.exposedOutcomeOf({ game: 'snap', cards: ['AS'], bets: { main: 1 } })).toEqual({
      game: 'snap',
      bets: { main: 1 },
      withheld: true,
    });
  });
});
