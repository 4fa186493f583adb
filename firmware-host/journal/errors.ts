import { CodedError } from '../../device-protocol/coded-error.ts';

/**
 * The one coded error class of the journal domain.
 */
export type JournalErrorCode =
  /** The journal breaks its own rules somewhere other than a torn last line: run `journal verify`. */
  | 'corrupt'
  /** A write, fsync or rename failed; the journal stops accepting records (fail-stop). */
  | 'io_failed'
  /** Another live process holds the journal's lock. */
  | 'locked'
  /** The journal folder belongs to another table (its files name another table id). */
  | 'other_table'
  /** The newest file cannot be read from its first line: set aside, waiting for an operator's decision. */
  | 'damaged'
  /** Used after close(), or after an I/O failure. */
  | 'closed'
  /** A record that cannot be journalled (not JSON-serialisable, wrong kind). */
  | 'bad_record';

export class JournalError extends CodedError<JournalErrorCode> {
  override readonly name = 'JournalError';
}

export function isJournalError(value: unknown): value is JournalError {
  return value instanceof JournalError;
}
