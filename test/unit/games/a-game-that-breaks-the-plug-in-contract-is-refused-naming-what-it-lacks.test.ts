/**
 * The plug-in contract's start-up check (issue 35 "Bad input"): a game that
 * lacks a part, a view, a ruleset id of its own or an engine for a ruleset's
 * game is named with what it lacks; the shipped games and the fixture game
 * keep the contract.
 */
import { describe, expect, it } from 'vitest';
import { checkGamePlugins } from '../../../firmware-host/games/plugin-check.ts';
import {
  GAME_PLUGINS,
  GameContractError,
  GameRegistry,
} from '../../../firmware-host/games/registry.ts';
import { highCard } from '../../fixtures/games/high-card/plugin.ts';
import {
  highCardWithoutView,
  highCardWithRulesetNoEngineServes,
  highCardWithShippedRulesetId,
} from '../../fixtures/games/high-card/registry.ts';

describe('the plug-in contract check', () => {
  it('finds nothing wrong with the shipped games, nor with them and the fixture game', () => {
    expect(checkGamePlugins(GAME_PLUGINS)).toEqual([]);
    expect(checkGamePlugins([...GAME_PLUGINS, highCard])).toEqual([]);
  });

  it('names the game with no web view', () => {
    expect(checkGamePlugins([...GAME_PLUGINS, highCardWithoutView()])).toEqual([
      'game high-card has no webView (the plug-in contract needs a function, games/game.ts)',
    ]);
  });

  it('names the game whose ruleset id another game has, and that game', () => {
    const problems = checkGamePlugins([...GAME_PLUGINS, highCardWithShippedRulesetId()]);
    expect(problems).toEqual([
      "game high-card: ruleset id tdc-roulette is game roulette's too (ruleset names are one namespace across games)",
    ]);
  });

  it('names the game and the ruleset whose game no engine serves', () => {
    const problems = checkGamePlugins([...GAME_PLUGINS, highCardWithRulesetNoEngineServes()]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^game high-card, ruleset fixture-low-card: no session opens.*no engine serves game low-card/,
    );
  });

  it('refuses a registry that breaks the contract when checked, listing every problem', () => {
    const registry = new GameRegistry([
      ...GAME_PLUGINS,
      highCardWithoutView(),
      { ...highCard, id: 'high-card-2', tableNoun: '' },
    ]);
    let refusal: unknown;
    try {
      registry.check();
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(GameContractError);
    expect((refusal as GameContractError).problems).toEqual([
      'game high-card has no webView (the plug-in contract needs a function, games/game.ts)',
      'game high-card-2 has no tableNoun (the plug-in contract needs a text, games/game.ts)',
    ]);
    expect((refusal as Error).message).toMatch(
      /^the games break the plug-in contract: game high-card has no webView/,
    );
  });
});
