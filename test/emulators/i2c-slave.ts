/**
 * What an emulated I2C part (PN532, TCS34725, ATECC608) offers the emulated
 * Firmata board it sits behind. Each emulator implements its datasheet's
 * behaviour at this level, byte for byte, written from the datasheet and never
 * from tableside's own drivers or encoders.
 */
export interface I2cSlave {
  /** The part's 7-bit address. */
  readonly address: number;
  /**
   * A master write (the bytes after the address byte), at `atMs` on the
   * emulator's clock. Returns false when the part NACKs it.
   */
  write(bytes: Uint8Array, atMs: number): boolean;
  /**
   * A master read of `length` bytes at `atMs`. Returns undefined when the part
   * NACKs its address (busy, asleep, or gone).
   */
  read(length: number, atMs: number): Uint8Array | undefined;
}
