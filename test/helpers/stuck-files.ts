/**
 * Which test files have gone silent for longer than anything in them may
 * take: the pure part of the stuck-file watchdog (stuck-file-reporter.ts).
 * A file's worker reports progress (queued, collected, a test ready or done, a
 * hook); a running test may stay silent for its own timeout, anything else
 * (an import, a hook) for the project's longest timeout. A file silent past
 * that and a margin, its worker idle all along (a worker busy in a long
 * synchronous loop on a loaded machine is not stuck), is one that no timeout
 * of its own will ever end: its worker waits on something that does not come.
 * No clock here: the reporter passes the times.
 */

/** The folder, inside the run's temp root, where each worker names its file (worker-dump.ts). */
export const WORKER_LABELS = 'vitest-workers';

/** What a file was doing when it last reported. */
export type FilePhase =
  | { readonly kind: 'importing' }
  | { readonly kind: 'between-tests' }
  | { readonly kind: 'running'; readonly test: string; readonly timeoutMs: number | undefined }
  | { readonly kind: 'hook'; readonly hook: string };

export interface StuckFile {
  readonly file: string;
  readonly phase: FilePhase;
  readonly silentMs: number;
  readonly allowanceMs: number;
}

interface InFlight {
  phase: FilePhase;
  since: number;
  /** The longest a test or a hook of this file's project may take. */
  readonly projectTimeoutMs: number;
}

export class StuckFileWatch {
  private readonly files = new Map<string, InFlight>();
  private readonly unreported = new Set<string>();
  private lastProgressAt = 0;

  /**
   * @param marginMs what a loaded machine may add to a timeout before the runner reports it.
   * @param runTimeoutMs the longest a test or hook of any project may take.
   */
  constructor(
    private readonly marginMs: number,
    private readonly runTimeoutMs: number,
  ) {}

  /** The run's files, none reported yet. */
  runStarted(files: readonly string[], at: number): void {
    for (const file of files) this.unreported.add(file);
    this.lastProgressAt = at;
  }

  /** A worker started the file (it imports it now): its silence counts from here. */
  started(file: string, projectTimeoutMs: number, at: number): void {
    this.unreported.delete(file);
    this.files.set(file, { phase: { kind: 'importing' }, since: at, projectTimeoutMs });
    this.lastProgressAt = at;
  }

  /** The file reported something: it is alive, doing `phase`. */
  progress(file: string, phase: FilePhase, at: number): void {
    this.lastProgressAt = at;
    const inFlight = this.files.get(file);
    if (!inFlight) return;
    inFlight.phase = phase;
    inFlight.since = at;
  }

  /** The file's worker used the CPU since the last look: busy, so not stuck, whatever it reported. */
  busy(file: string, at: number): void {
    this.lastProgressAt = at;
    const inFlight = this.files.get(file);
    if (inFlight) inFlight.since = at;
  }

  /** The run's main process or a worker with no file yet used the CPU: the run is alive (a worker starting, modules transformed). */
  runBusy(at: number): void {
    this.lastProgressAt = at;
  }

  ended(file: string, at: number): void {
    this.unreported.delete(file);
    this.files.delete(file);
    this.lastProgressAt = at;
  }

  /**
   * The files no worker has started while the whole run has been silent past
   * any allowance with none in flight: the workers that should run them never
   * began. Empty while anything is in flight (stuck() speaks for those).
   */
  neverStarted(now: number): string[] {
    if (this.files.size > 0 || this.unreported.size === 0) return [];
    return now - this.lastProgressAt > this.runTimeoutMs + this.marginMs
      ? [...this.unreported].sort()
      : [];
  }

  /** Files silent past their allowance at `now`, the longest silent first. */
  stuck(now: number): StuckFile[] {
    const stuck: StuckFile[] = [];
    for (const [file, { phase, since, projectTimeoutMs }] of this.files) {
      const own = phase.kind === 'running' ? (phase.timeoutMs ?? 0) : 0;
      const allowanceMs = Math.max(own, projectTimeoutMs) + this.marginMs;
      const silentMs = now - since;
      if (silentMs > allowanceMs) {
        stuck.push({ file, phase, silentMs, allowanceMs });
      }
    }
    return stuck.sort((a, b) => b.silentMs - a.silentMs);
  }
}

/** One line for a stuck file, for the run's output. */
export function describeStuck({ file, phase, silentMs, allowanceMs }: StuckFile): string {
  const doing =
    phase.kind === 'running'
      ? `running "${phase.test}"${phase.timeoutMs ? ` (its timeout ${phase.timeoutMs / 1000} s)` : ''}`
      : phase.kind === 'hook'
        ? `in its ${phase.hook} hook`
        : phase.kind === 'importing'
          ? 'importing its modules (no test started)'
          : 'between two tests';
  return `${file}: silent for ${Math.round(silentMs / 1000)} s while ${doing}; nothing in it may take more than ${Math.round(allowanceMs / 1000)} s`;
}
