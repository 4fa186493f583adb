/**
 * The engine registry: game id → engine factory. `createEngine(ruleset)`
 * is how everybody (table session, simulators, `tableside hand`) gets the
 * engine for a ruleset; the poker games join through POKER_GAMES.
 */
import { createPuntoBancoEngine } from './baccarat/engine.ts';
import { createBlackjackEngine } from './blackjack/engine.ts';
import { EngineError } from './errors.ts';
import { POKER_GAMES } from './poker/games.ts';
import type { GameId, Ruleset, RulesetOf } from './rulesets/schema.ts';
import { createTripleShotEngine } from './triple-shot/engine.ts';
import type { GameEngine } from './types.ts';

export type EngineFactory = (ruleset: Ruleset) => GameEngine<unknown>;

/** Narrows a ruleset to a game, for factories; a mismatch is an EngineError. */
export function rulesetFor<G extends GameId>(ruleset: Ruleset, game: G): RulesetOf<G> {
  if (ruleset.game !== game) {
    throw new EngineError(
      'unknown_game',
      `ruleset ${ruleset.name} is for ${ruleset.game}, not ${game}`,
    );
  }
  return ruleset as RulesetOf<G>;
}

const OUR_GAMES: Readonly<Record<string, EngineFactory>> = {
  'punto-banco': (ruleset) => createPuntoBancoEngine(rulesetFor(ruleset, 'punto-banco')),
  blackjack: (ruleset) => createBlackjackEngine(rulesetFor(ruleset, 'blackjack')),
  'triple-shot': (ruleset) => createTripleShotEngine(rulesetFor(ruleset, 'triple-shot')),
};

export const GAMES: Readonly<Record<string, EngineFactory>> = { ...OUR_GAMES, ...POKER_GAMES };

export function createEngine(ruleset: Ruleset): GameEngine<unknown> {
  const factory = Object.hasOwn(GAMES, ruleset.game) ? GAMES[ruleset.game] : undefined;
  if (!factory) {
    throw new EngineError(
      'unknown_game',
      `no engine for game ${JSON.stringify(ruleset.game)} (ruleset ${ruleset.name}); engines: ${Object.keys(GAMES).join(', ')}`,
    );
  }
  return factory(ruleset);
}
