/**
 * The poker games' rulesets and their schema variants (owned by the poker
 * engine). To add a game: define its variant as
 * `z.strictObject({ ...rulesetCommon, game: z.literal('holdem-bonus'), ... })`
 * (rulesetCommon from ./base.ts), append it to POKER_RULESET_SCHEMAS (keep the
 * `as const`, the union in schema.ts spreads this tuple), and append its
 * rulesets to POKER_RULESETS; the registry in index.ts validates and lists
 * them. Import only ./base.ts for values here (schema.ts imports this file).
 */
import type { RulesetInput } from './schema.ts';

export const POKER_RULESET_SCHEMAS = [] as const;

export const POKER_RULESETS: readonly RulesetInput[] = [];
