/**
 * What a game's engine factory is, shared by the engine registry
 * (games/engines.ts) and the games that join it (games/cards/poker/games.ts):
 * its own module so neither imports the other.
 */
import { EngineError } from './errors.ts';
import type { GameId, Ruleset, RulesetOf } from './rulesets/schema.ts';
import type { GameEngine, Outcome } from './types.ts';

export type EngineFactory = (ruleset: Ruleset) => GameEngine<unknown>;

/**
 * A game's outcome as the table exposed it: what consumers (MQTT, the web
 * console) may see of a round's result. The journal keeps the whole outcome
 * for surveillance; cards collected face down without being shown (a fold,
 * a dealer hand nobody played against) leave only their number.
 */
export type ExposedOutcome = (outcome: Outcome) => Outcome;

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
