import { CodedError } from '../../device-protocol/coded-error.ts';

/**
 * The one coded error class of the game-engine domain (engines, rulesets,
 * the engine registry). Callers (table session, CLI, simulators) tell
 * failures apart by `code`, never by message text.
 */
export type EngineErrorCode =
  /** A ruleset failed validation. */
  | 'bad_ruleset'
  /** No ruleset of that name. */
  | 'unknown_ruleset'
  /** No engine for that game id. */
  | 'unknown_game'
  /** RoundSetup breaks the ruleset (too many boxes, bad box number, ...). */
  | 'bad_setup'
  /** A card arrived while the engine awaited a decision or nothing at all. */
  | 'unexpected_card'
  /** A card already dealt this round, in a game dealt from one deck per round. */
  | 'duplicate_card'
  /** A decision that is not legal now. */
  | 'illegal_decision'
  /** outcome() asked of a round that is not complete. */
  | 'not_complete'
  /** Input that cannot be parsed (a card code, an actions string, ...). */
  | 'bad_input';

export class EngineError extends CodedError<EngineErrorCode> {
  override readonly name = 'EngineError';
}

export function isEngineError(value: unknown): value is EngineError {
  return value instanceof EngineError;
}
