import { CodedError } from '../../device-protocol/coded-error.ts';

/**
 * The PN532 driver's coded error. `code` is stable (tests, alarms and the
 * CLI tell failures apart by it); the message names the part, what went
 * wrong and what the technician should do.
 */
export type Pn532ErrorCode =
  /** Nothing came back at all: no ACK, no ready status, or the bus refused the address. */
  | 'no_answer'
  /** The PN532 kept answering NACK to our command. */
  | 'nack'
  /** The PN532 answered the application-level error frame (00 00 FF 01 FF 7F 81 00). */
  | 'error_frame'
  /** Its frames kept failing LCS/DCS even after we asked for retransmission. */
  | 'checksum'
  /** A well-formed answer that does not fit the command (wrong TFI, code or length). */
  | 'unexpected'
  /** Bad options or arguments from the caller. */
  | 'bad_options';

export class Pn532Error extends CodedError<Pn532ErrorCode> {
  override readonly name = 'Pn532Error';
}

export function isPn532Error(value: unknown): value is Pn532Error {
  return value instanceof Pn532Error;
}
