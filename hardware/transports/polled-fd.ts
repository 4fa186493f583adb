/**
 * Reads and writes an open serial port's non-blocking file descriptor on the
 * main thread: the serialport binding's poller (epoll, through libuv) says
 * when the port is readable or writable, and read(2) and write(2) run at
 * once. serialport's own stream hands every read and every write to libuv's
 * thread pool; at a dealer's pace those hand-offs (a read, the read that
 * finds nothing more, the ACK's write, each a wake-up of a pool thread and
 * of the event loop) cost more than the card. A tty read or write never
 * blocks here: the port is opened O_NONBLOCK, and EAGAIN waits for the poller.
 *
 * The poller's native side arms only the events of its latest call and
 * re-arms what was asked before minus what fired, so every call here asks
 * for all that is wanted (readable, and writable while a write waits) and a
 * spurious event is harmless.
 */
import { readSync, writeSync } from 'node:fs';

/** The poller of @serialport/bindings-cpp (its event flags: UV_READABLE, UV_WRITABLE). */
export interface FdPoller {
  poll(flags: number): void;
  on(event: 'readable' | 'writable', listener: (error: Error | null) => void): unknown;
  off(event: 'readable' | 'writable', listener: (error: Error | null) => void): unknown;
}

const READABLE = 0b01;
const WRITABLE = 0b10;
/** Reads per readable event before yielding to the event loop (a flood cannot starve it). */
const READS_PER_TURN = 16;
const READ_BUFFER_BYTES = 16 * 1024;

export interface PolledFdHandlers {
  data(chunk: Buffer): void;
  /** The port failed (unplugged, hung up, closed under us); no event follows. */
  failed(reason: string, error?: Error): void;
}

interface PendingWrite {
  bytes: Uint8Array;
  offset: number;
  resolve(): void;
  reject(error: Error): void;
}

export class PolledFd {
  private readonly buffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
  private readonly pending: PendingWrite[] = [];
  private stopped = false;

  constructor(
    private readonly fd: number,
    private readonly poller: FdPoller,
    private readonly handlers: PolledFdHandlers,
  ) {
    poller.on('readable', this.onReadable);
    poller.on('writable', this.onWritable);
  }

  start(): void {
    this.arm();
  }

  /** Resolves once every byte was handed to the OS, in the order of the calls. */
  write(bytes: Uint8Array): Promise<void> {
    if (this.stopped) return Promise.reject(new Error('port is closed'));
    if (this.pending.length === 0) {
      let offset: number;
      try {
        offset = this.writeSome(bytes, 0);
      } catch (error) {
        return Promise.reject(error);
      }
      if (offset === bytes.length) return Promise.resolve();
      return this.queue(bytes, offset);
    }
    return this.queue(bytes, 0);
  }

  /** No more reads, writes or events; pending writes are refused. Idempotent. */
  stop(reason = 'port is closed'): void {
    if (this.stopped) return;
    this.stopped = true;
    this.poller.off('readable', this.onReadable);
    this.poller.off('writable', this.onWritable);
    for (const write of this.pending.splice(0)) write.reject(new Error(reason));
  }

  private queue(bytes: Uint8Array, offset: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ bytes, offset, resolve, reject });
      this.arm();
    });
  }

  private arm(): void {
    if (this.stopped) return;
    this.poller.poll(this.pending.length > 0 ? READABLE | WRITABLE : READABLE);
  }

  private readonly onReadable = (error: Error | null): void => {
    if (this.stopped) return;
    if (error) {
      this.fail(`device disconnected (${error.message})`, error);
      return;
    }
    for (let turn = 0; turn < READS_PER_TURN; turn++) {
      let count: number;
      try {
        count = readSync(this.fd, this.buffer, 0, this.buffer.length, null);
      } catch (failure) {
        const code = (failure as NodeJS.ErrnoException).code;
        if (code === 'EINTR') continue;
        if (code === 'EAGAIN' || code === 'EWOULDBLOCK') break;
        this.fail(`device disconnected (${messageOf(failure)})`, failure as Error);
        return;
      }
      // A raw non-blocking tty says EAGAIN when it has nothing: 0 is the end of the file (hung up).
      if (count === 0) {
        this.fail('device disconnected (the tty hung up)');
        return;
      }
      this.handlers.data(Buffer.from(this.buffer.subarray(0, count)));
      if (this.stopped) return;
      // A short read emptied the tty: no second read to hear EAGAIN; epoll says when more comes.
      if (count < this.buffer.length) break;
    }
    this.arm();
  };

  private readonly onWritable = (error: Error | null): void => {
    if (this.stopped) return;
    if (error) {
      this.fail(`device disconnected (${error.message})`, error);
      return;
    }
    while (this.pending.length > 0) {
      const write = this.pending[0]!;
      try {
        write.offset = this.writeSome(write.bytes, write.offset);
      } catch (failure) {
        this.pending.shift();
        write.reject(failure as Error);
        continue;
      }
      if (write.offset < write.bytes.length) break;
      this.pending.shift();
      write.resolve();
    }
    this.arm();
  };

  /** Writes from `offset` until done or EAGAIN; returns the new offset. Throws on a write error. */
  private writeSome(bytes: Uint8Array, offset: number): number {
    while (offset < bytes.length) {
      try {
        offset += writeSync(this.fd, bytes, offset, bytes.length - offset);
      } catch (failure) {
        const code = (failure as NodeJS.ErrnoException).code;
        if (code === 'EINTR') continue;
        if (code === 'EAGAIN' || code === 'EWOULDBLOCK') return offset;
        throw failure;
      }
    }
    return offset;
  }

  private fail(reason: string, error?: Error): void {
    this.stop(reason);
    this.handlers.failed(reason, error);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
