/**
 * How the PN532 driver reaches the part: the host link (I2C or HSU) moves
 * whole frames; the driver above it does the command/ACK/response dance.
 */
import type { Pn532Frame } from './frame.ts';

export interface Pn532Bus {
  /** For messages: "PN532 on I2C 0x24", "PN532 on /dev/ttyUSB0 (HSU)". */
  readonly name: string;
  /** Sends one host frame (information frame, ACK or NACK). */
  send(frame: Uint8Array): Promise<void>;
  /**
   * The next frame from the PN532, or undefined when none arrived within
   * `timeoutMs`. Rejects with Pn532Error('no_answer') when the link itself
   * refused every attempt in that time (an I2C address NACK).
   * `expectedLength`: the bytes of the frame the driver expects (an ACK's 6,
   * a response's), so a link that must ask for a byte count asks for that.
   */
  receive(timeoutMs: number, expectedLength?: number): Promise<Pn532Frame | undefined>;
  /** Forgets buffered bytes and half-read frames, and wakes the part before the next frame. */
  resync(): void;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
