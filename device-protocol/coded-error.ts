/**
 * The base of every domain's coded error (protocol, engine, table, journal,
 * drivers, hardware, simulators ...). `code` is stable: logs, tests and the
 * CLI tell failures apart by it, never by message text. It lives here because
 * every folder may import device-protocol/ and this folder imports nothing of
 * ours. A subclass only names itself and its codes:
 *
 *   export class TableError extends CodedError<TableErrorCode> {
 *     override readonly name = 'TableError';
 *   }
 */
export class CodedError<Code extends string> extends Error {
  constructor(
    readonly code: Code,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function isCodedError(value: unknown): value is CodedError<string> {
  return value instanceof CodedError;
}
