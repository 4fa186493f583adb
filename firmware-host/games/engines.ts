/**
 * The engine registry: game id → engine factory. `createEngine(ruleset)`
 * is how everybody (table session, simulators, `tableside hand`) gets the
 * engine for a ruleset; the poker games join through POKER_GAMES.
 */

import type { EngineFactory, ExposedOutcome } from '../engine/engine-factory.ts';
import { rulesetFor } from '../engine/engine-factory.ts';
import { EngineError } from '../engine/errors.ts';
import type { Ruleset } from '../engine/rulesets/schema.ts';
import type { GameEngine, Outcome } from '../engine/types.ts';
import { createPuntoBancoEngine } from './cards/baccarat/engine.ts';
import { createBlackjackEngine } from './cards/blackjack/engine.ts';
import { POKER_EXPOSED_OUTCOMES, POKER_GAMES } from './cards/poker/games.ts';
import { createTripleShotEngine } from './cards/triple-shot/engine.ts';

export type { EngineFactory, ExposedOutcome } from '../engine/engine-factory.ts';
export { rulesetFor } from '../engine/engine-factory.ts';

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

/** Every card of these games is exposed by the end of the round: their outcome is shown whole. */
const shownWhole: ExposedOutcome = (outcome) => outcome;

const EXPOSED_OUTCOMES: Readonly<Record<string, ExposedOutcome>> = {
  // practice: every baccarat card is dealt face up.
  'punto-banco': shownWhole,
  // The boxes' cards are face up and a hole card, where a ruleset deals one, is turned when
  // the dealer plays (000 § 9.b), and at the end of the round even when every box busted
  // (practice: the dealer's hand is shown before the cards are collected).
  blackjack: shownWhole,
  'triple-shot': shownWhole,
  ...POKER_EXPOSED_OUTCOMES,
};

/**
 * The outcome of a result as the table exposed it. An outcome of a game
 * this build does not know (an older or newer journal) shows only its bets:
 * what it names of cards cannot be judged, so none of it goes out.
 */
export function exposedOutcome(outcome: Record<string, unknown>): Record<string, unknown> {
  const game = outcome.game;
  const expose =
    typeof game === 'string' && Object.hasOwn(EXPOSED_OUTCOMES, game)
      ? EXPOSED_OUTCOMES[game]
      : undefined;
  if (!expose) return { game, bets: outcome.bets, withheld: true };
  return expose(outcome as Outcome);
}
