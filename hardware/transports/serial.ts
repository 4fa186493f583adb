/**
 * Serial tty through serialport 13's binding: /dev/ttyUSB0, /dev/ttyACM0, a
 * /dev/serial/by-id/... link, a udev name (/dev/tableside/shoe) or a pty made
 * by socat. The binding opens the port (termios, exclusive lock); its bytes
 * then move on the main thread (polled-fd.ts) where the binding has a
 * poller (Linux, macOS), else through the binding's own reads and writes.
 * The binding is imported when the port is first opened, so commands that
 * never touch a serial device never load the native code.
 */
import type { BindingPortInterface } from '@serialport/bindings-cpp';
import { HardwareError } from '../errors.ts';
import { type FdPoller, PolledFd, type PolledFdHandlers } from './polled-fd.ts';
import { BaseTransport } from './transport.ts';

export interface SerialOptions {
  path: string;
  /** Bits per second; ignored by ptys. */
  baudRate: number;
  /**
   * `main-thread` (the default where the binding has a poller: Linux, macOS)
   * or `binding`: the binding's own reads and writes through libuv's thread
   * pool, the path of a binding without a poller (Windows).
   */
  io?: 'main-thread' | 'binding';
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
  private port: BindingPortInterface | undefined;
  private io: PortIo | undefined;

  constructor(
    readonly options: SerialOptions,
    url = `serial:${options.path}?baud=${options.baudRate}`,
  ) {
    super(url);
    if (!options.path.trim()) throw new HardwareError('bad_options', 'serial: empty device path');
    validateBaudRate(options.baudRate, url);
  }

  protected async doOpen(): Promise<void> {
    const { autoDetect } = await import('@serialport/bindings-cpp');
    let port: BindingPortInterface;
    try {
      port = await autoDetect().open({
        path: this.options.path,
        baudRate: this.options.baudRate,
        // The flock keeps a second daemon (or screen, minicom) off our device.
        lock: true,
      });
    } catch (error) {
      throw explainOpenError(this.options.path, error as Error);
    }
    this.port = port;
    const handlers: PolledFdHandlers = {
      data: (chunk: Buffer) => this.received(chunk),
      failed: (reason: string, error?: Error) => {
        if (this.port !== port) return;
        void this.release(port);
        this.ended(reason, error);
      },
    };
    const polled = port as BindingPortInterface & { fd?: unknown; poller?: FdPoller };
    this.io =
      this.options.io !== 'binding' && typeof polled.fd === 'number' && polled.poller
        ? new PolledFd(polled.fd, polled.poller, handlers)
        : new BindingLoop(port, handlers);
    this.io.start();
  }

  protected doWrite(bytes: Uint8Array): Promise<void> {
    if (!this.io) return Promise.reject(new Error('port is gone'));
    return this.io.write(bytes);
  }

  protected async doClose(): Promise<void> {
    const port = this.port;
    if (port) await this.release(port);
  }

  /** Stops the port's I/O and closes it (its fd and lock); what failed on the way is moot. */
  private release(port: BindingPortInterface): Promise<void> {
    this.io?.stop();
    this.io = undefined;
    this.port = undefined;
    // Closing: a port already gone (unplugged) is closed enough.
    return port.isOpen ? port.close().catch(() => undefined) : Promise.resolve();
  }
}

interface PortIo {
  start(): void;
  write(bytes: Uint8Array): Promise<void>;
  stop(): void;
}

/** A binding without a poller (Windows): its own reads, one after the other, and its writes. */
class BindingLoop implements PortIo {
  private stopped = false;

  constructor(
    private readonly port: BindingPortInterface,
    private readonly handlers: PolledFdHandlers,
  ) {}

  start(): void {
    void this.readLoop();
  }

  /** One write at a time: the binding interleaves the chunks of writes it is given together. */
  private writing: Promise<void> = Promise.resolve();

  write(bytes: Uint8Array): Promise<void> {
    const write = this.writing.then(() => this.port.write(Buffer.from(bytes)));
    // The chain only orders writes: each caller gets its own failure from `write`.
    this.writing = write.catch(() => undefined);
    return write;
  }

  stop(): void {
    this.stopped = true;
  }

  private async readLoop(): Promise<void> {
    const buffer = Buffer.alloc(16 * 1024);
    while (!this.stopped) {
      try {
        const { bytesRead } = await this.port.read(buffer, 0, buffer.length);
        if (this.stopped) return;
        if (bytesRead > 0) this.handlers.data(Buffer.from(buffer.subarray(0, bytesRead)));
      } catch (error) {
        if (this.stopped || (error as { canceled?: boolean }).canceled) return;
        this.handlers.failed(`device disconnected (${(error as Error).message})`, error as Error);
        return;
      }
    }
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
