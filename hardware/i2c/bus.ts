/**
 * The I2C master as a part driver sees it (PN532, TCS34725, ATECC608): a
 * johnny-five board's `io` (Firmata I2C), a Linux i2c-dev, or a test double.
 * Drivers speak in whole transactions so the same driver runs over any of
 * them; a register read is a `write` of the register then a `read`.
 */
export interface I2cBus {
  /** Writes `bytes` to the 7-bit `address` (one START … STOP transaction). */
  write(address: number, bytes: Uint8Array): Promise<void>;
  /**
   * Reads `length` bytes from the 7-bit `address` (no register write first).
   * Rejects when the part does not answer within the bus's timeout.
   */
  read(address: number, length: number): Promise<Uint8Array>;
}
