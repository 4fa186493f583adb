import { CodedError } from '../../device-protocol/coded-error.ts';

/**
 * The one coded error class of the analysis domain: bad parameters for an
 * exact analysis (deck counts, card counts, unknown or unsuitable rulesets).
 */
export type AnalysisErrorCode =
  /** A parameter out of range or of the wrong kind (`--decks 0`, `--cards 4`). */
  | 'bad_parameter'
  /** The ruleset exists but is not of the game analysed. */
  | 'wrong_game';

export class AnalysisError extends CodedError<AnalysisErrorCode> {
  override readonly name = 'AnalysisError';
}

export function isAnalysisError(value: unknown): value is AnalysisError {
  return value instanceof AnalysisError;
}
