/**
 * What a game publishes besides its state (its plug-in's published folds:
 * baccarat's roads) is retained under its own name below the table's root;
 * a name that is not one topic level, or that is one of the table's own
 * levels, is refused naming it, so no game can publish over the table's
 * state, events or requests.
 */
import { describe, expect, it } from 'vitest';
import { GAME_PLUGINS } from '../../../firmware-host/games/registry.ts';
import { tableTopics } from '../../../firmware-host/mqtt/topics.ts';

describe("a game's published topic", () => {
  const topics = tableTopics('tableside', 'bac-1');

  it('is its name below the table: baccarat keeps its roads on <table>/roads', () => {
    expect(topics.published('roads')).toBe('tableside/bac-1/roads');
    // Every shipped game's names are levels of their own.
    for (const game of GAME_PLUGINS) {
      for (const fold of game.publishedFolds()) {
        expect(topics.published(fold.name)).toBe(`tableside/bac-1/${fold.name}`);
      }
    }
  });

  it('is refused for a name that is no single topic level, naming it', () => {
    expect(() => topics.published('roads/big')).toThrow('"roads/big": not one topic level');
    expect(() => topics.published('#')).toThrow('"#": not one topic level');
    expect(() => topics.published('')).toThrow('not one topic level');
  });

  it("is refused for one of the table's own levels", () => {
    for (const level of ['state', 'bridge', 'events', 'devices', 'journal']) {
      expect(() => topics.published(level)).toThrow(`the table's own topic ${level}`);
    }
  });
});
