/**
 * Engine factories of the poker games, keyed by game id; games/engines.ts
 * merges them into the engine registry.
 */
import type { EngineFactory, ExposedOutcome } from '../../../engine/engine-factory.ts';
import { rulesetFor } from '../../../engine/engine-factory.ts';
import {
  type CasinoHoldemOutcome,
  createCasinoHoldemEngine,
  exposedCasinoHoldemOutcome,
} from './casino-holdem.ts';
import {
  createCaribbeanStudEngine,
  createRussianPokerEngine,
  type DrawStudOutcome,
  exposedDrawStudOutcome,
} from './draw-stud.ts';
import {
  createHoldemBonusEngine,
  exposedHoldemBonusOutcome,
  type HoldemBonusOutcome,
} from './holdem-bonus.ts';
import {
  createSevenCardStudEngine,
  exposedSevenCardStudOutcome,
  type SevenCardStudOutcome,
} from './seven-card-stud.ts';

export const POKER_GAMES: Readonly<Record<string, EngineFactory>> = {
  'holdem-bonus': (ruleset) => createHoldemBonusEngine(rulesetFor(ruleset, 'holdem-bonus')),
  'casino-holdem': (ruleset) => createCasinoHoldemEngine(rulesetFor(ruleset, 'casino-holdem')),
  'caribbean-stud': (ruleset) => createCaribbeanStudEngine(rulesetFor(ruleset, 'caribbean-stud')),
  'russian-poker': (ruleset) => createRussianPokerEngine(rulesetFor(ruleset, 'russian-poker')),
  'seven-card-stud': (ruleset) => createSevenCardStudEngine(rulesetFor(ruleset, 'seven-card-stud')),
};

/** What of each poker game's outcome the table exposed (games/engines.ts EXPOSED_OUTCOMES). */
export const POKER_EXPOSED_OUTCOMES: Readonly<Record<string, ExposedOutcome>> = {
  'holdem-bonus': (outcome) => exposedHoldemBonusOutcome(outcome as HoldemBonusOutcome),
  'casino-holdem': (outcome) => exposedCasinoHoldemOutcome(outcome as CasinoHoldemOutcome),
  'caribbean-stud': (outcome) => exposedDrawStudOutcome(outcome as DrawStudOutcome),
  'russian-poker': (outcome) => exposedDrawStudOutcome(outcome as DrawStudOutcome),
  'seven-card-stud': (outcome) => exposedSevenCardStudOutcome(outcome as SevenCardStudOutcome),
};
