/**
 * The slice of firmata-io's Firmata board the device firmware uses (the
 * package ships no types). Kept minimal on purpose.
 */
export interface FirmataIo {
  readonly isReady: boolean;
  readonly MODES: { readonly INPUT: number; readonly OUTPUT: number; readonly PULLUP: number };
  readonly firmware: { name?: string; version?: { major: number; minor: number } };
  pinMode(pin: number, mode: number): void;
  digitalWrite(pin: number, value: 0 | 1): void;
  digitalRead(pin: number, callback: (value: number) => void): void;
  i2cConfig(options: { delay: number } | number): void;
  i2cWrite(address: number, bytes: number[]): void;
  sendI2CReadRequest(address: number, length: number, callback: (data: number[]) => void): void;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  once(event: string, listener: (...args: unknown[]) => void): unknown;
  removeListener(event: string, listener: (...args: unknown[]) => void): unknown;
}
