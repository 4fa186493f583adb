import { CodedError } from '../../device-protocol/coded-error.ts';

/**
 * The one coded error class of the table-session domain. A bad record or a
 * bad option never crashes the session: the caller gets a TableError naming
 * what was wrong, and the session state is left as it was.
 */
export type TableErrorCode =
  /** A table-log record failed its schema (or was not JSON). */
  | 'bad_record'
  /** Session or detector options failed validation. */
  | 'bad_options'
  /** No ruleset or engine for the name given. */
  | 'unknown_ruleset'
  /** A serialized session state (a journal checkpoint) that cannot be read back exactly. */
  | 'bad_checkpoint';

export class TableError extends CodedError<TableErrorCode> {
  override readonly name = 'TableError';
}

export function isTableError(value: unknown): value is TableError {
  return value instanceof TableError;
}
