import { CodedError } from '../../device-protocol/coded-error.ts';

/** The daemon's coded error class: what stops a table from starting, or a request it refuses. */
export type DaemonErrorCode =
  | 'not_running'
  | 'bad_request'
  | 'refused'
  | 'shoe_in_play'
  | 'unknown_ruleset'
  /** The journal folder holds another game's table than the config names. */
  | 'other_game'
  | 'start_failed';

export class DaemonError extends CodedError<DaemonErrorCode> {
  override readonly name = 'DaemonError';
}

export function isDaemonError(value: unknown): value is DaemonError {
  return value instanceof DaemonError;
}
