/**
 * The ruleset registry: every shipped ruleset, validated once on first use.
 * A ruleset that fails its schema is a programming error in our data, so
 * the error names the ruleset and the failing field.
 */
import { z } from 'zod';
import { EngineError } from '../errors.ts';
import { BLACKJACK_RULESETS } from './blackjack.ts';
import { POKER_RULESETS } from './poker.ts';
import { PUNTO_BANCO_RULESETS } from './punto-banco.ts';
import { type Ruleset, type RulesetInput, rulesetSchema } from './schema.ts';
import { TRIPLE_SHOT_RULESETS } from './triple-shot.ts';

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

/** The ruleset of that name; the error lists the names there are. */
export function getRuleset(name: string): Ruleset {
  const ruleset = rulesets().get(name);
  if (ruleset) return ruleset;
  throw new EngineError(
    'unknown_ruleset',
    `unknown ruleset ${JSON.stringify(name)}: known rulesets are ${rulesetNames().join(', ')}`,
  );
}

export type { Ruleset, RulesetInput } from './schema.ts';
