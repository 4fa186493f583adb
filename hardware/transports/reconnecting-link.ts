/**
 * ReconnectingLink: keeps one device's transport open for as long as the
 * daemon runs. A device going away never ends the program: the link reopens
 * with exponential backoff and full jitter, notices a silent device (a pty
 * whose peer hung reports no close) through a heartbeat hook, and reports
 * every state change as a `state` event.
 *
 *   idle ─start()─► opening ─ok─► open ─device gone / silent─► reopening ─delay─► opening ...
 *                      └─failed─► reopening                       close() from any state ─► closed
 *   a hopeless failure (library missing, bad options) or maxAttempts spent ─► failed
 *
 * The protocol layer calls `markAlive()` whenever a valid frame arrives; when
 * `silenceTimeoutMs` passes without one, the link closes and reopens. The
 * protocol layer's own PINGs are what make a healthy idle device talk.
 */
import { EventEmitter } from 'node:events';
import { z } from 'zod';
import { HardwareError, isHardwareError, reasonOf } from '../errors.ts';
import type { Transport, TransportClose } from './transport.ts';

/** The default cap of the reopen backoff (`maxDelayMs`). */
export const LINK_MAX_DELAY_MS = 1_500;

export type LinkState = 'idle' | 'opening' | 'open' | 'reopening' | 'closed' | 'failed';

export interface LinkStateChange {
  state: LinkState;
  previous: LinkState;
  /** Why: 'start', 'opened', the device's close reason, 'no frame for 3000 ms', ... */
  reason: string;
  /** Consecutive failed attempts so far (0 once the line opens). */
  attempt: number;
  /** For `reopening`: how long until the next open. */
  delayMs?: number;
  url: string;
}

export const linkOptionsSchema = z
  .object({
    /** Cap of the first backoff delay; each failure multiplies it. */
    initialDelayMs: z.number().int().min(0).max(60_000).default(250),
    /**
     * The backoff never waits longer than this: a line that comes back is
     * opened again within it (so short), while a line that stays absent costs
     * one failed open this often (so not zero).
     */
    maxDelayMs: z.number().int().min(1).max(600_000).default(LINK_MAX_DELAY_MS),
    multiplier: z.number().min(1).max(10).default(2),
    /** An open that takes longer is abandoned and retried. */
    openTimeoutMs: z.number().int().min(1).max(120_000).default(5_000),
    /** No markAlive() for this long while open: reopen. 0 turns the watchdog off. */
    silenceTimeoutMs: z
      .number()
      .int()
      .min(0)
      .max(3_600_000)
      .refine((ms) => ms === 0 || ms >= 10, 'must be 0 (off) or at least 10 ms')
      .default(0),
    /** Give up (state `failed`) after this many consecutive failures; 0 never gives up. */
    maxAttempts: z.number().int().min(0).default(0),
  })
  .strict()
  .refine((o) => o.maxDelayMs >= o.initialDelayMs, {
    message: 'maxDelayMs must not be below initialDelayMs',
    path: ['maxDelayMs'],
  });

export type LinkOptions = z.output<typeof linkOptionsSchema>;
export type LinkOptionsInput = z.input<typeof linkOptionsSchema>;

export interface LinkDependencies {
  /** Uniform in [0, 1); injectable so tests can pin the jitter. */
  random?: () => number;
}

export function parseLinkOptions(input: unknown = {}): LinkOptions {
  const parsed = linkOptionsSchema.safeParse(input ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((issue) => `${issue.path.join('.') || 'options'}: ${issue.message}`)
      .join('; ');
    throw new HardwareError('bad_options', `link options: ${problems}`);
  }
  return parsed.data;
}

/** Full jitter: uniform in [0, min(max, initial × multiplier^(attempt−1))]. */
export function backoffDelay(options: LinkOptions, attempt: number, random: number): number {
  const ceiling = Math.min(
    options.maxDelayMs,
    options.initialDelayMs * options.multiplier ** Math.max(0, attempt - 1),
  );
  return Math.floor(random * ceiling);
}

export interface LinkEvents {
  state: [change: LinkStateChange];
  data: [chunk: Buffer];
}

export class ReconnectingLink extends EventEmitter<LinkEvents> {
  readonly options: LinkOptions;
  private current: LinkState = 'idle';
  private last: LinkStateChange | undefined;
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private silenceTimer: NodeJS.Timeout | undefined;
  private readonly random: () => number;
  /** Bumped on every open attempt and close(), so stale async work knows it is stale. */
  private generation = 0;

  constructor(
    readonly transport: Transport,
    options: LinkOptionsInput = {},
    dependencies: LinkDependencies = {},
  ) {
    super();
    this.options = parseLinkOptions(options);
    this.random = dependencies.random ?? Math.random;
    transport.on('data', (chunk) => {
      if (this.current === 'open') this.emit('data', chunk);
    });
    transport.on('close', (info) => this.transportClosed(info));
  }

  get state(): LinkState {
    return this.current;
  }

  get url(): string {
    return this.transport.url;
  }

  get isOpen(): boolean {
    return this.current === 'open';
  }

  /** Begin (or resume after close()) keeping the device open. */
  start(): void {
    if (this.current === 'idle' || this.current === 'closed' || this.current === 'failed') {
      this.attempt = 0;
      void this.openOnce('start');
    }
  }

  /** Bytes to the device; rejects with HardwareError('not_open') unless open. */
  async write(bytes: Uint8Array): Promise<void> {
    if (this.current !== 'open') {
      throw new HardwareError('not_open', `${this.url}: link is ${this.current}`);
    }
    await this.transport.write(bytes);
  }

  /** The heartbeat hook: a valid frame arrived, so the device is alive. */
  markAlive(): void {
    if (this.current !== 'open') return;
    this.armSilence();
  }

  /** Drop the connection and reopen (after backoff), e.g. when the protocol layer gives up on it. */
  reopen(reason: string): void {
    if (this.current !== 'open' && this.current !== 'opening') return;
    this.generation++;
    this.clearTimers();
    // Reopening: the old connection may already be dead, the next open starts clean.
    void this.transport.close().catch(() => undefined);
    this.scheduleReopen(reason);
  }

  /** Stop for good (until start()); closes the device. */
  async close(): Promise<void> {
    this.generation++;
    this.clearTimers();
    const wasOpen = this.current !== 'closed';
    if (wasOpen) this.setState('closed', 'closed by host');
    // Closing: a transport already gone is closed enough.
    await this.transport.close().catch(() => undefined);
  }

  /** The latest state change, if any. */
  get lastChange(): LinkStateChange | undefined {
    return this.last;
  }

  /** Resolves at the next transition into `state`, or now with the latest change if already there. */
  whenState(state: LinkState): Promise<LinkStateChange | undefined> {
    if (this.current === state) return Promise.resolve(this.last);
    return new Promise((resolve) => {
      const listener = (change: LinkStateChange) => {
        if (change.state !== state) return;
        this.off('state', listener);
        resolve(change);
      };
      this.on('state', listener);
    });
  }

  private async openOnce(reason: string): Promise<void> {
    const generation = ++this.generation;
    this.setState('opening', reason);
    let timeout: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.transport.open(),
        new Promise<never>((_, reject) => {
          timeout = setTimeout(
            () =>
              reject(
                new HardwareError(
                  'open_failed',
                  `open timed out after ${this.options.openTimeoutMs} ms`,
                ),
              ),
            this.options.openTimeoutMs,
          );
        }),
      ]);
    } catch (error) {
      clearTimeout(timeout);
      if (generation !== this.generation) return;
      // Abandon a hanging open so the next attempt starts clean.
      void this.transport.close().catch(() => undefined);
      if (
        isHardwareError(error) &&
        (error.code === 'library_missing' || error.code === 'bad_options')
      ) {
        this.setState('failed', reasonOf(error));
        return;
      }
      this.scheduleReopen(`open failed: ${reasonOf(error)}`);
      return;
    }
    clearTimeout(timeout);
    if (generation !== this.generation) {
      // close() or reopen() ran while we were opening.
      if (this.current === 'closed') await this.transport.close().catch(() => undefined);
      return;
    }
    // The line is there again: a pull after this one starts the backoff over,
    // rather than waiting as long as the failures of earlier pulls made it.
    this.attempt = 0;
    this.setState('open', 'opened');
    this.armSilence();
  }

  private transportClosed(info: TransportClose): void {
    if (info.expected || this.current !== 'open') return;
    this.generation++;
    this.clearTimers();
    this.scheduleReopen(info.reason);
  }

  private scheduleReopen(reason: string): void {
    this.attempt++;
    if (this.options.maxAttempts > 0 && this.attempt > this.options.maxAttempts) {
      this.setState('failed', `${reason}; gave up after ${this.options.maxAttempts} attempts`);
      return;
    }
    const delayMs = backoffDelay(this.options, this.attempt, this.random());
    this.setState('reopening', reason, delayMs);
    const generation = this.generation;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (generation === this.generation && this.current === 'reopening') {
        void this.openOnce('retry');
      }
    }, delayMs);
  }

  private armSilence(): void {
    const ms = this.options.silenceTimeoutMs;
    if (ms === 0) return;
    // Every frame re-arms it: refresh() restarts the same timer, no new one per card.
    if (this.silenceTimer) {
      this.silenceTimer.refresh();
      return;
    }
    this.silenceTimer = setTimeout(() => {
      this.silenceTimer = undefined;
      if (this.current === 'open') this.reopen(`silent: no frame for ${ms} ms`);
    }, ms);
  }

  private clearTimers(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.silenceTimer) clearTimeout(this.silenceTimer);
    this.retryTimer = undefined;
    this.silenceTimer = undefined;
  }

  private setState(state: LinkState, reason: string, delayMs?: number): void {
    const change: LinkStateChange = {
      state,
      previous: this.current,
      reason,
      attempt: this.attempt,
      url: this.url,
    };
    if (delayMs !== undefined) change.delayMs = delayMs;
    this.current = state;
    this.last = change;
    this.emit('state', change);
  }
}

/** One line for logs and the terminal view. */
export function describeLinkChange(change: LinkStateChange): string {
  const retry = change.delayMs === undefined ? '' : `, next try in ${change.delayMs} ms`;
  return `${change.url}: ${change.previous} → ${change.state} (${change.reason}${retry})`;
}
