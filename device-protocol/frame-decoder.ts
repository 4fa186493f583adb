/**
 * Bytes to frames without streams: the one framer, for the link endpoint,
 * `decode`, simulators and tests. Memory is bounded by `maxLineBytes`
 * whatever the input: an over-long line is cut to its head and the rest
 * dropped up to the next CR LF.
 */
import { z } from 'zod';
import { ProtocolError } from './errors.ts';
import {
  DISCARD_REASONS,
  type DiscardReason,
  type FrameEvent,
  MAX_LINE_BYTES,
  scanLine,
} from './frame.ts';

const CR = 0x0d;
const LF = 0x0a;

export const framerOptionsSchema = z
  .object({
    /** Longest accepted line, CR LF included. The wire protocol fixes 250. */
    maxLineBytes: z.number().int().min(16).max(65536).default(MAX_LINE_BYTES),
  })
  .strict();
export type FramerOptions = z.input<typeof framerOptionsSchema>;
export type ResolvedFramerOptions = z.output<typeof framerOptionsSchema>;

export function resolveFramerOptions(options: FramerOptions = {}): ResolvedFramerOptions {
  const parsed = framerOptionsSchema.safeParse(options);
  if (!parsed.success) {
    throw new ProtocolError('bad_options', `bad framer options: ${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}

export interface FramerStats {
  frames: number;
  discards: Record<DiscardReason, number>;
}

export function emptyFramerStats(): FramerStats {
  const discards = {} as Record<DiscardReason, number>;
  for (const reason of DISCARD_REASONS) discards[reason] = 0;
  return { frames: 0, discards };
}

export function countEvents(stats: FramerStats, events: readonly FrameEvent[]): void {
  for (const event of events) {
    if (event.kind === 'frame') stats.frames++;
    else stats.discards[event.reason]++;
  }
}

/**
 * Caps every line at `maxLineBytes - 1` bytes before a line splitter sees it:
 * bytes past that are dropped until the CR LF, which is passed on, so the
 * splitter sees a line one byte too long (a `too_long` discard) and never
 * buffers more than the cap. CR LF split across chunks is tracked.
 */
export class LineGuard {
  readonly #cap: number;
  #lineLength = 0;
  #previousWasCR = false;
  #previousCRDropped = false;

  constructor(maxLineBytes: number = MAX_LINE_BYTES) {
    // Content may be maxLineBytes - 2; one more byte shows the line is too long.
    this.#cap = maxLineBytes - 1;
  }

  /** The bytes of `chunk` to pass on to the line splitter. */
  filter(chunk: Uint8Array): Uint8Array {
    const out = new Uint8Array(chunk.length + 1);
    let length = 0;
    for (let index = 0; index < chunk.length; index++) {
      const byte = chunk[index]!;
      if (byte === LF && this.#previousWasCR) {
        if (this.#previousCRDropped) out[length++] = CR;
        out[length++] = LF;
        this.#lineLength = 0;
        this.#previousWasCR = false;
        this.#previousCRDropped = false;
        continue;
      }
      this.#previousWasCR = byte === CR;
      this.#lineLength++;
      const keep = this.#lineLength <= this.#cap;
      this.#previousCRDropped = !keep && byte === CR;
      if (keep) out[length++] = byte;
    }
    return out.subarray(0, length);
  }
}

const CRLF = Buffer.from('\r\n');

/** Pure framer: push byte chunks, get frames and discards; `end()` reports an unterminated tail. */
export class FrameDecoder {
  readonly options: ResolvedFramerOptions;
  readonly #guard: LineGuard;
  readonly #stats = emptyFramerStats();
  #pending: Buffer = Buffer.alloc(0);

  constructor(options: FramerOptions = {}) {
    this.options = resolveFramerOptions(options);
    this.#guard = new LineGuard(this.options.maxLineBytes);
  }

  /** Bytes held while waiting for a CR LF; never above `maxLineBytes`. */
  get bufferedBytes(): number {
    return this.#pending.length;
  }

  get stats(): FramerStats {
    return structuredClone(this.#stats);
  }

  push(chunk: Uint8Array | string): FrameEvent[] {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk;
    const filtered = this.#guard.filter(bytes);
    let data =
      this.#pending.length === 0 ? Buffer.from(filtered) : Buffer.concat([this.#pending, filtered]);
    const events: FrameEvent[] = [];
    let position = data.indexOf(CRLF);
    while (position !== -1) {
      events.push(...this.#line(data.subarray(0, position), true));
      data = data.subarray(position + 2);
      position = data.indexOf(CRLF);
    }
    this.#pending = Buffer.from(data);
    return events;
  }

  /** End of input: an unterminated tail is reported, not silently lost. */
  end(): FrameEvent[] {
    const tail = this.#pending;
    this.#pending = Buffer.alloc(0);
    return this.#line(tail, false);
  }

  #line(line: Uint8Array, terminated: boolean): FrameEvent[] {
    const events = scanLine(Buffer.from(line).toString('latin1'), {
      terminated,
      maxLineBytes: this.options.maxLineBytes,
    });
    countEvents(this.#stats, events);
    return events;
  }
}
