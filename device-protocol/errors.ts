import { CodedError } from './coded-error.ts';

/**
 * The one coded error class of the device-protocol domain. Every failure a
 * caller can act on carries a stable `code` so that logs, tests and the CLI
 * can tell failures apart without matching on message text.
 */
export type ProtocolErrorCode =
  | 'bad_card'
  | 'bad_composition'
  | 'bad_frame'
  | 'bad_field'
  | 'bad_message'
  | 'bad_options'
  | 'unsupported_type';

export class ProtocolError extends CodedError<ProtocolErrorCode> {
  override readonly name = 'ProtocolError';
}

export function isProtocolError(value: unknown): value is ProtocolError {
  return value instanceof ProtocolError;
}
