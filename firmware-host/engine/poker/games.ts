/**
 * Engine factories of the poker games, keyed by game id; engine/games.ts
 * merges them into the engine registry. Add `'holdem-bonus': (ruleset) =>
 * createHoldemBonusEngine(rulesetFor(ruleset, 'holdem-bonus'))` here.
 */
import type { EngineFactory } from '../games.ts';

export const POKER_GAMES: Readonly<Record<string, EngineFactory>> = {};
