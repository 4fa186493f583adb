/**
 * The framer as a stream: bytes in (from a serial port, a socket, a file),
 * `FrameEvent` objects out. Built on @serialport/parser-delimiter (CR LF),
 * with a LineGuard in front of it because the delimiter parser alone would
 * buffer a line without end on a line that never sends CR LF.
 *
 *   port.pipe(new Framer()).on('data', (event: FrameEvent) => ...)
 */
import type { TransformCallback } from 'node:stream';
import { DelimiterParser } from '@serialport/parser-delimiter';
import { type FrameEvent, scanLine } from './frame.ts';
import {
  countEvents,
  emptyFramerStats,
  type FramerOptions,
  type FramerStats,
  LineGuard,
  type ResolvedFramerOptions,
  resolveFramerOptions,
} from './frame-decoder.ts';

export class Framer extends DelimiterParser {
  readonly options: ResolvedFramerOptions;
  readonly #guard: LineGuard;
  readonly #stats = emptyFramerStats();
  /** True while the delimiter parser is splitting, so that its pushes are lines to classify. */
  #splitting = false;

  /** Throws ProtocolError `bad_options` on bad options. */
  constructor(options: FramerOptions = {}) {
    const resolved = resolveFramerOptions(options);
    super({ delimiter: '\r\n', readableObjectMode: true });
    this.options = resolved;
    this.#guard = new LineGuard(resolved.maxLineBytes);
  }

  /** Discards by reason and frames passed, since the start. */
  get stats(): FramerStats {
    return structuredClone(this.#stats);
  }

  /** Bytes held waiting for a CR LF; the guard keeps it below `maxLineBytes`. */
  get bufferedBytes(): number {
    return this.buffer.length;
  }

  override _transform(chunk: Buffer, encoding: BufferEncoding, callback: TransformCallback): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk;
    const filtered = Buffer.from(this.#guard.filter(bytes));
    this.#splitting = true;
    try {
      super._transform(filtered, encoding, callback);
    } finally {
      this.#splitting = false;
    }
  }

  override _flush(callback: TransformCallback): void {
    const tail = this.buffer;
    this.buffer = Buffer.alloc(0);
    this.#emit(
      scanLine(tail.toString('latin1'), {
        terminated: false,
        maxLineBytes: this.options.maxLineBytes,
      }),
    );
    callback();
  }

  override push(chunk: unknown, encoding?: BufferEncoding): boolean {
    if (!this.#splitting || !Buffer.isBuffer(chunk)) return super.push(chunk, encoding);
    return this.#emit(
      scanLine(chunk.toString('latin1'), { maxLineBytes: this.options.maxLineBytes }),
    );
  }

  #emit(events: FrameEvent[]): boolean {
    countEvents(this.#stats, events);
    let more = true;
    for (const event of events) more = super.push(event);
    return more;
  }
}
