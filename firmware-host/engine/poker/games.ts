/**
 * Engine factories of the poker games, keyed by game id; engine/games.ts
 * merges them into the engine registry.
 */
import type { EngineFactory } from '../games.ts';
import { rulesetFor } from '../games.ts';
import { createCasinoHoldemEngine } from './casino-holdem.ts';
import { createCaribbeanStudEngine, createRussianPokerEngine } from './draw-stud.ts';
import { createHoldemBonusEngine } from './holdem-bonus.ts';
import { createSevenCardStudEngine } from './seven-card-stud.ts';

export const POKER_GAMES: Readonly<Record<string, EngineFactory>> = {
  'holdem-bonus': (ruleset) => createHoldemBonusEngine(rulesetFor(ruleset, 'holdem-bonus')),
  'casino-holdem': (ruleset) => createCasinoHoldemEngine(rulesetFor(ruleset, 'casino-holdem')),
  'caribbean-stud': (ruleset) => createCaribbeanStudEngine(rulesetFor(ruleset, 'caribbean-stud')),
  'russian-poker': (ruleset) => createRussianPokerEngine(rulesetFor(ruleset, 'russian-poker')),
  'seven-card-stud': (ruleset) => createSevenCardStudEngine(rulesetFor(ruleset, 'seven-card-stud')),
};
