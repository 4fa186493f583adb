import { CodedError } from '../device-protocol/coded-error.ts';

/**
 * The one coded error class of the hardware domain (transports, device
 * listing, the dealer-console board, the deck registry). `code` is stable: logs, tests and the
 * CLI tell failures apart by it, never by message text.
 */
export type HardwareErrorCode =
  /** A transport URL that cannot be parsed. */
  | 'bad_url'
  /** Options (timeouts, baud rate, report size...) out of range. */
  | 'bad_options'
  /** A pin map that fails validation. */
  | 'bad_pin_map'
  /** Opening a device failed (missing path, busy, refused...). */
  | 'open_failed'
  /** A write while the transport is not open, or a write the OS refused. */
  | 'not_open'
  | 'write_failed'
  /** A native library (node-hid, libusb, hidraw) could not be loaded. */
  | 'library_missing'
  /** The dealer-console board did not come up. */
  | 'board_failed'
  /** A device key file that is missing, unreadable or not a usable private key. */
  | 'key_file'
  /** A secure element (ATECC608) that does not answer, or answers with an error. */
  | 'secure_element'
  /** An I2C part (colour sensor, RFID reader) is missing, wrong or stopped answering. */
  | 'part_failed'
  /** The deck registry file is not valid. */
  | 'bad_registry'
  /** A tag UID already stands for another card. */
  | 'duplicate_tag';

export class HardwareError extends CodedError<HardwareErrorCode> {
  override readonly name = 'HardwareError';
}

export function isHardwareError(value: unknown): value is HardwareError {
  return value instanceof HardwareError;
}

/** A readable one-line reason from anything thrown. */
export function reasonOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
