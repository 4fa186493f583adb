/**
 * The ruleset registry: every shipped ruleset, validated once on first use.
 * A ruleset that fails its schema is a programming error in our data, so
 * the error names the ruleset and the failing field.
 */
import { z } from 'zod';
import { EngineError } from '../engine/errors.ts';
import { POKER_RULESETS } from '../engine/rulesets/poker.ts';
import { type Ruleset, type RulesetInput, rulesetSchema } from '../engine/rulesets/schema.ts';
import { PUNTO_BANCO_RULESETS } from './cards/baccarat/rulesets.ts';
import { BLACKJACK_RULESETS } from './cards/blackjack/rulesets.ts';
import { TRIPLE_SHOT_RULESETS } from './cards/triple-shot/rulesets.ts';
import { checkCallBets } from './roulette/engine/call-bets.ts';
import { ROULETTE_RULESETS } from './roulette/rulesets.ts';
import { type RouletteRuleset, rouletteRuleset } from './roulette/rulesets-schema.ts';

const SHIPPED: readonly RulesetInput[] = [
  ...PUNTO_BANCO_RULESETS,
  ...BLACKJACK_RULESETS,
  ...TRIPLE_SHOT_RULESETS,
  ...POKER_RULESETS,
];

/** Validates a ruleset (ours, or one a casino supplies); the error names every failing field. */
export function parseRuleset(input: unknown): Ruleset {
  const result = rulesetSchema.safeParse(input);
  if (result.success) return result.data;
  const name =
    typeof input === 'object' && input !== null && 'name' in input
      ? String(input.name)
      : '(unnamed)';
  throw new EngineError(
    'bad_ruleset',
    `ruleset ${name} is invalid:\n${z.prettifyError(result.error)}`,
  );
}

let registry: ReadonlyMap<string, Ruleset> | undefined;

function rulesets(): ReadonlyMap<string, Ruleset> {
  if (registry) return registry;
  const map = new Map<string, Ruleset>();
  for (const input of SHIPPED) {
    const ruleset = parseRuleset(input);
    if (map.has(ruleset.name)) {
      throw new EngineError('bad_ruleset', `two rulesets are named ${ruleset.name}`);
    }
    map.set(ruleset.name, ruleset);
  }
  registry = map;
  return map;
}

/** Every shipped ruleset, in a stable order (baccarat family, blackjack, Triple Shot, poker). */
export function listRulesets(): readonly Ruleset[] {
  return [...rulesets().values()];
}

export function rulesetNames(): readonly string[] {
  return [...rulesets().keys()];
}

/** The card ruleset of that name; the error lists the names there are, the roulette ones too. */
export function getRuleset(name: string): Ruleset {
  const ruleset = rulesets().get(name);
  if (ruleset) return ruleset;
  const cards = rulesetNames().join(', ');
  throw new EngineError(
    'unknown_ruleset',
    isRouletteRuleset(name)
      ? `${name} is a roulette ruleset; a card ruleset is needed here: ${cards}`
      : `unknown ruleset ${JSON.stringify(name)}: known rulesets are ${cards} (cards) and ${rouletteRulesetNames().join(', ')} (roulette)`,
  );
}

export type { Ruleset, RulesetInput } from '../engine/rulesets/schema.ts';

// ------------------------------------------------------------------ Roulette
// Roulette has no cards, so its rulesets are a list of their own; the game
// registry (firmware-host/games/registry.ts) puts every game's names in one namespace.

let rouletteRegistry: ReadonlyMap<string, RouletteRuleset> | undefined;

/** Validates a roulette ruleset, its call bets' placements included; the error names every failing field. */
export function parseRouletteRuleset(input: unknown): RouletteRuleset {
  const result = rouletteRuleset.safeParse(input);
  const name =
    typeof input === 'object' && input !== null && 'name' in input
      ? String(input.name)
      : '(unnamed)';
  if (!result.success) {
    throw new EngineError(
      'bad_ruleset',
      `ruleset ${name} is invalid:\n${z.prettifyError(result.error)}`,
    );
  }
  const problem = checkCallBets(result.data);
  if (problem) throw new EngineError('bad_ruleset', `ruleset ${name} is invalid: ${problem}`);
  return result.data;
}

function roulettes(): ReadonlyMap<string, RouletteRuleset> {
  if (rouletteRegistry) return rouletteRegistry;
  const map = new Map<string, RouletteRuleset>();
  for (const input of ROULETTE_RULESETS) {
    const ruleset = parseRouletteRuleset(input);
    if (map.has(ruleset.name) || rulesets().has(ruleset.name)) {
      throw new EngineError('bad_ruleset', `two rulesets are named ${ruleset.name}`);
    }
    map.set(ruleset.name, ruleset);
  }
  rouletteRegistry = map;
  return map;
}

export function listRouletteRulesets(): readonly RouletteRuleset[] {
  return [...roulettes().values()];
}

export function rouletteRulesetNames(): readonly string[] {
  return [...roulettes().keys()];
}

/** For getRuleset's message only: every other module asks the game registry (firmware-host/games/). */
function isRouletteRuleset(name: string): boolean {
  return roulettes().has(name);
}

/** The roulette ruleset of that name; the error lists the roulette rulesets there are. */
export function getRouletteRuleset(name: string): RouletteRuleset {
  const ruleset = roulettes().get(name);
  if (ruleset) return ruleset;
  throw new EngineError(
    'unknown_ruleset',
    `unknown roulette ruleset ${JSON.stringify(name)}: known roulette rulesets are ${rouletteRulesetNames().join(', ')}`,
  );
}

export type { RouletteRuleset, RouletteRulesetInput } from './roulette/rulesets-schema.ts';
