/**
 * Which session a table runs: the card session (validator + game engine) or
 * the roulette session, by the ruleset's game. The daemon and `replay` open
 * sessions here, so neither needs to know which registry a ruleset is in.
 */
import { isRouletteRuleset } from '../engine/rulesets/index.ts';
import type { SessionOptionsInput } from './card-table/index.ts';
import { RouletteSession } from './roulette-session.ts';
import { sessionConfig, TableSession } from './table-session.ts';

export type AnySession = TableSession | RouletteSession;

export function isRouletteSession(session: AnySession): session is RouletteSession {
  return session instanceof RouletteSession;
}

/** A new session for `ruleset`; an unknown name is a TableError listing the known ones. */
export function openSession(ruleset: string, options: SessionOptionsInput = {}): AnySession {
  return isRouletteRuleset(ruleset)
    ? new RouletteSession(ruleset)
    : new TableSession(sessionConfig(ruleset, options));
}
