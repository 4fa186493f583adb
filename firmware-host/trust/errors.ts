import { CodedError } from '../../device-protocol/coded-error.ts';

/**
 * The one coded error class of the trust domain: key files, signed
 * requests, journal seals.
 */
export type TrustErrorCode =
  /** A key file is missing, unreadable, not a key of the expected kind, or open to other users. */
  | 'key_file'
  /** A public key written in the config or on the command line is not `ed25519:<base64>`. */
  | 'bad_public_key';

export class TrustError extends CodedError<TrustErrorCode> {
  override readonly name = 'TrustError';
}

export function isTrustError(value: unknown): value is TrustError {
  return value instanceof TrustError;
}
