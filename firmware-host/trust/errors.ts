/**
 * The one coded error class of the trust domain: key files, signed
 * requests, journal seals.
 */
export type TrustErrorCode =
  /** A key file is missing, unreadable, not a key of the expected kind, or open to other users. */
  | 'key_file'
  /** A public key written in the config or on the command line is not `ed25519:<base64>`. */
  | 'bad_public_key';

export class TrustError extends Error {
  override readonly name = 'TrustError';
  constructor(
    readonly code: TrustErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function isTrustError(value: unknown): value is TrustError {
  return value instanceof TrustError;
}
