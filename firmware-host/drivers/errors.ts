import { CodedError } from '../../device-protocol/coded-error.ts';

/**
 * The one coded error class of the device drivers.
 * `code` is stable: the daemon, the CLI and tests tell failures apart by it.
 */
export type DriverErrorCode =
  /** Options out of range (timeouts, intervals, allow-list entries). */
  | 'bad_options'
  /** A command was not acknowledged by the device in time, or the device refused it. */
  | 'command_failed'
  /** A command while the device is offline or the driver stopped. */
  | 'not_ready'
  /** Enrolment could not finish (wrong count, timeout, device gone). */
  | 'enroll_failed';

export class DriverError extends CodedError<DriverErrorCode> {
  override readonly name = 'DriverError';
}

export function isDriverError(value: unknown): value is DriverError {
  return value instanceof DriverError;
}
