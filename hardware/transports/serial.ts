/**
 * Serial tty through serialport 13: /dev/ttyUSB0, /dev/ttyACM0, a
 * /dev/serial/by-id/... link, a udev name (/dev/tableside/shoe) or a pty made
 * by socat. serialport is imported when the port is first opened, so commands
 * that never touch a serial device never load the native binding.
 */
import type { SerialPort } from 'serialport';
import { HardwareError } from '../errors.ts';
import { BaseTransport } from './transport.ts';

export interface SerialOptions {
  path: string;
  /** Bits per second; ignored by ptys. */
  baudRate: number;
}

export const DEFAULT_BAUD_RATE = 115_200;

const STANDARD_BAUD_RATES = [
  1200, 2400, 4800, 9600, 19_200, 38_400, 57_600, 115_200, 230_400, 460_800, 921_600,
];

export function validateBaudRate(baudRate: number, where: string): number {
  if (!Number.isInteger(baudRate) || baudRate < 50 || baudRate > 4_000_000) {
    throw new HardwareError(
      'bad_options',
      `${where}: baud rate ${baudRate} is not a whole number between 50 and 4000000 (common: ${STANDARD_BAUD_RATES.join(', ')})`,
    );
  }
  return baudRate;
}

export class SerialTransport extends BaseTransport {
  readonly kind = 'serial' as const;
  private port: SerialPort | undefined;

  constructor(
    readonly options: SerialOptions,
    url = `serial:${options.path}?baud=${options.baudRate}`,
  ) {
    super(url);
    if (!options.path.trim()) throw new HardwareError('bad_options', 'serial: empty device path');
    validateBaudRate(options.baudRate, url);
  }

  protected async doOpen(): Promise<void> {
    const { SerialPort } = await import('serialport');
    const port = new SerialPort({
      path: this.options.path,
      baudRate: this.options.baudRate,
      autoOpen: false,
      // The flock keeps a second daemon (or screen, minicom) off our device.
      lock: true,
    });
    await new Promise<void>((resolve, reject) => {
      port.open((error) =>
        error ? reject(explainOpenError(this.options.path, error)) : resolve(),
      );
    });
    this.port = port;
    port.on('data', (chunk: Buffer) => this.received(chunk));
    port.on('close', (error: (Error & { disconnected?: boolean }) | null) => {
      if (this.port === port) this.port = undefined;
      port.removeAllListeners();
      // Keep a no-op error listener: a late error must not become an uncaught exception.
      port.on('error', () => undefined);
      if (error?.disconnected) this.ended(`device disconnected (${error.message})`, error);
      else this.ended('port closed');
    });
    // serialport also emits 'error' on failed writes; the write promise reports those.
    port.on('error', () => undefined);
  }

  protected doWrite(bytes: Uint8Array): Promise<void> {
    const port = this.port;
    if (!port) return Promise.reject(new Error('port is gone'));
    return new Promise((resolve, reject) => {
      port.write(Buffer.from(bytes), (error) => (error ? reject(error) : resolve()));
    });
  }

  protected doClose(): Promise<void> {
    const port = this.port;
    if (!port?.isOpen) return Promise.resolve();
    return new Promise((resolve) => port.close(() => resolve()));
  }
}

function explainOpenError(path: string, error: Error): HardwareError {
  const hint = /ENOENT|No such file/.test(error.message)
    ? ' (no such device: unplugged, or a udev rule not loaded?)'
    : /EACCES|Permission denied/.test(error.message)
      ? ' (permission denied: add the user to the dialout group, then log in again)'
      : /lock|EBUSY|EAGAIN/i.test(error.message)
        ? ' (in use by another program)'
        : '';
  return new HardwareError('open_failed', `serial ${path}: ${error.message}${hint}`, {
    cause: error,
  });
}
