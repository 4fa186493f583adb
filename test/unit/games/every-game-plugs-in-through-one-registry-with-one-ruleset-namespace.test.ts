/**
 * The game registry (issue 26): every ruleset belongs to exactly one
 * plug-in, and each plug-in gives the table all it needs: a session behind
 * one interface, checkpoints it reads back, its requests, its devices.
 */
import { describe, expect, it } from 'vitest';
import { isEngineError } from '../../../firmware-host/engine/errors.ts';
import {
  allRulesetNames,
  GAME_PLUGINS,
  gameOf,
  gameOfRequest,
  rulesetIdentity,
  rulesetsOfGame,
} from '../../../firmware-host/games/registry.ts';
import { listRulesets, rouletteRulesetNames } from '../../../firmware-host/games/rulesets.ts';

describe('the game registry', () => {
  it('holds every shipped ruleset once, card games and roulette in one namespace', () => {
    const names = allRulesetNames();
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual(
      [...listRulesets().map((ruleset) => ruleset.name), ...rouletteRulesetNames()].sort(),
    );
  });

  it('names an unknown ruleset and lists the known ones by game', () => {
    try {
      gameOf('tdc-craps');
      expect.unreachable();
    } catch (error) {
      expect(isEngineError(error) && error.code).toBe('unknown_ruleset');
      expect((error as Error).message).toContain('"tdc-craps"');
      expect((error as Error).message).toMatch(/tdc-baccarat-no-commission.*\(cards\)/);
      expect((error as Error).message).toMatch(/tdc-roulette.*\(roulette\)/);
    }
  });

  it.each(allRulesetNames())('opens %s, and reads back its checkpoint', (name) => {
    const game = gameOf(name);
    expect(rulesetIdentity(name).name).toBe(name);
    const session = game.openSession(name, { autoRound: false });
    expect(session.ruleset).toBe(name);
    const checkpoint = JSON.parse(JSON.stringify(session.checkpoint()));
    expect(game.ownsCheckpoint(checkpoint)).toBe(true);
    for (const other of GAME_PLUGINS) {
      if (other !== game) expect(other.ownsCheckpoint(checkpoint)).toBe(false);
    }
    const restored = game.restoreSession(name, checkpoint, { autoRound: false });
    expect(restored.snapshot()).toEqual(session.snapshot());
    expect(restored.expecting()).toEqual(session.expecting());
  });

  it('gives each request op to one game only, so a refusal can name whose it is', () => {
    const ops = GAME_PLUGINS.flatMap((plugin) => plugin.requestOps);
    expect(new Set(ops).size).toBe(ops.length);
    expect(gameOfRequest('new_shoe')?.tableNoun).toBe('card table');
    expect(gameOfRequest('no_more_bets')?.tableNoun).toBe('roulette table');
  });

  it('has a new shoe to give only where the game has shoes: never at a roulette table', () => {
    const wheel = gameOf('tdc-roulette');
    expect(wheel.nextShuffle).toBeUndefined();
    expect(wheel.rotatesPerShoe('tdc-roulette')).toBe(false);
    const cards = gameOf('tdc-baccarat-no-commission');
    const session = cards.openSession('tdc-baccarat-no-commission', { autoRound: false });
    expect(cards.nextShuffle?.(session)).toMatchObject({ t: 'shuffle', decks: 8 });
  });

  it('names the web view of each table and what it publishes besides its state', () => {
    expect(gameOf('tdc-baccarat-no-commission').webView('tdc-baccarat-no-commission')).toBe(
      'baccarat',
    );
    const published = (ruleset: string) =>
      gameOf(ruleset)
        .publishedFolds()
        .filter((fold) => fold.payload(ruleset) !== undefined)
        .map((fold) => fold.name);
    expect(published('tdc-baccarat-no-commission')).toEqual(['roads']);
    expect(gameOf('tdc-blackjack').webView('tdc-blackjack')).toBe('cards');
    expect(published('tdc-blackjack')).toEqual([]);
    expect(published('tdc-roulette')).toEqual([]);
    expect(gameOf('tdc-roulette').webView('tdc-roulette')).toBe('roulette');
  });

  it("offers a table only its own game's rulesets to change to, itself included", () => {
    for (const name of allRulesetNames()) {
      const game = rulesetIdentity(name).game;
      const taken = rulesetsOfGame(name);
      expect(taken).toContain(name);
      for (const other of taken) expect(rulesetIdentity(other).game).toBe(game);
      const missing = allRulesetNames().filter(
        (other) => rulesetIdentity(other).game === game && !taken.includes(other),
      );
      expect(missing).toEqual([]);
    }
    expect(rulesetsOfGame('tdc-blackjack')).toEqual(['tdc-blackjack', 'bulgaria-blackjack']);
  });
});
