/**
 * The one byte-transport interface every device link is built on: serial tty,
 * TCP (ser2net), USB-HID and in-memory pairs all look the same to the
 * protocol layer. A transport moves bytes and reports when it closes; it
 * never parses frames and never reconnects by itself (ReconnectingLink does).
 *
 * A transport may be opened again after it closed: `open()` on a closed
 * transport starts a fresh connection to the same device.
 */
import { EventEmitter } from 'node:events';
import { HardwareError } from '../errors.ts';

/** The transport's scheme (`serial`, `tcp`, ... or a vendor adapter's own: url.ts). */
export type TransportKind = string;

/** Why a transport closed. `expected` is true when our own `close()` caused it. */
export interface TransportClose {
  expected: boolean;
  reason: string;
  error?: Error;
}

export interface TransportEvents {
  /** Bytes as they arrive, in order, in arbitrary chunks. */
  data: [chunk: Buffer];
  /** Emitted once per successful open, when the connection ends for any reason. */
  close: [info: TransportClose];
}

export interface Transport extends EventEmitter<TransportEvents> {
  readonly kind: TransportKind;
  /** The URL the transport was made from (for logs and state reports). */
  readonly url: string;
  readonly isOpen: boolean;
  /** Resolves once bytes can be written; rejects with HardwareError('open_failed'). */
  open(): Promise<void>;
  /** Resolves when the bytes were handed to the OS; rejects with 'not_open' or 'write_failed'. */
  write(bytes: Uint8Array): Promise<void>;
  /** Idempotent. Emits `close` with `expected: true` if it was open. */
  close(): Promise<void>;
}

/**
 * Shared bookkeeping for the implementations: one `close` per open, and the
 * `expected` flag set by our own close().
 */
export abstract class BaseTransport extends EventEmitter<TransportEvents> implements Transport {
  abstract readonly kind: TransportKind;
  protected opened = false;
  private closing = false;
  private opening: Promise<void> | undefined;
  private openAbort: AbortController | undefined;

  constructor(readonly url: string) {
    super();
  }

  get isOpen(): boolean {
    return this.opened;
  }

  open(): Promise<void> {
    if (this.opened) return Promise.resolve();
    if (this.opening) return this.opening;
    this.closing = false;
    const abort = new AbortController();
    this.openAbort = abort;
    this.opening = this.doOpen(abort.signal)
      .then(() => {
        this.opened = true;
      })
      .catch((error: unknown) => {
        throw error instanceof HardwareError
          ? error
          : new HardwareError('open_failed', `${this.url}: cannot open: ${messageOf(error)}`, {
              cause: error,
            });
      })
      .finally(() => {
        this.opening = undefined;
        this.openAbort = undefined;
      });
    return this.opening;
  }

  async write(bytes: Uint8Array): Promise<void> {
    if (!this.opened) throw new HardwareError('not_open', `${this.url}: write while not open`);
    try {
      await this.doWrite(bytes);
    } catch (error) {
      throw new HardwareError('write_failed', `${this.url}: write failed: ${messageOf(error)}`, {
        cause: error,
      });
    }
  }

  async close(): Promise<void> {
    if (this.opening) {
      // Closing while an open hangs (a TCP connect to a dead host) abandons the open.
      this.openAbort?.abort();
      // The abandoned open fails by design; the caller asked to close.
      await this.opening.catch(() => undefined);
    }
    if (!this.opened) return;
    this.closing = true;
    await this.doClose();
    // Implementations report through ended(); make sure close is reported even
    // if the underlying handle gave no event.
    this.ended('closed by host');
  }

  /** Implementations call this when the underlying handle ends, for any reason. */
  protected ended(reason: string, error?: Error): void {
    if (!this.opened) return;
    this.opened = false;
    const info: TransportClose = this.closing
      ? { expected: true, reason: 'closed by host' }
      : { expected: false, reason };
    if (error && !this.closing) info.error = error;
    this.emit('close', info);
  }

  /** Implementations call this for each chunk read. */
  protected received(chunk: Buffer): void {
    if (this.opened && chunk.length > 0) this.emit('data', chunk);
  }

  /** Must settle promptly once `signal` aborts (close() during open). */
  protected abstract doOpen(signal: AbortSignal): Promise<void>;
  protected abstract doWrite(bytes: Uint8Array): Promise<void>;
  protected abstract doClose(): Promise<void>;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
