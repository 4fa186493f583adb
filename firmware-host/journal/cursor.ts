/**
 * A durable cursor: one number (e.g. the last journal seq the MQTT broker
 * acknowledged) kept in a small JSON file, replaced atomically (write to a
 * temp file, fsync, rename, fsync the folder), so a crash leaves either the
 * old value or the new one, never a torn file.
 *
 * Writes are coalesced: while one is in flight, only the latest value
 * waiting is written next. The value only moves forward.
 *
 * Opened with `defer`, `advance` only records the value and writes it later:
 * once `defer.ms` have passed since the first unwritten advance, or at once
 * when it is `defer.count` past the value on disk. A crash then loses at
 * most that much of the cursor, which only means events sent again (the
 * consumers deduplicate by `seq`), and a card at a dealer's pace no longer
 * pays a rewrite, two fsyncs and a rename per acknowledged event. A deferred
 * cursor does not fsync its folder either: the file is fsynced before the
 * rename, so a crash leaves the old name or the new one, each a whole value,
 * and the old one only sends events again (the crash at every point of the
 * write is tested); the folder's fsync forced a file-system commit that a
 * card's journal write could wait behind.
 */
import { constants } from 'node:fs';
import { mkdir, open, readFile, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { JournalError } from './errors.ts';

/** When a deferred cursor reaches the disk. */
export interface CursorDefer {
  /** Milliseconds an advance may wait unwritten. */
  ms: number;
  /** Written at once when the value is this far past the value on disk. */
  count: number;
}

export class CursorStore {
  private value: number;
  private persisted: number;
  private writing: Promise<void> | undefined;
  private failure: JournalError | undefined;
  private timer: NodeJS.Timeout | undefined;

  private constructor(
    readonly path: string,
    initial: number,
    private readonly defer: CursorDefer | undefined,
  ) {
    this.value = initial;
    this.persisted = initial;
  }

  /** Opens the cursor at `path`, 0 when the file does not exist yet; write-through unless `defer`. */
  static async open(path: string, options: { defer?: CursorDefer } = {}): Promise<CursorStore> {
    await mkdir(dirname(path), { recursive: true });
    let initial = 0;
    try {
      const parsed = JSON.parse(await readFile(path, 'utf8')) as { seq?: unknown };
      if (!Number.isSafeInteger(parsed.seq) || (parsed.seq as number) < 0) {
        throw new Error('seq is not a non-negative integer');
      }
      initial = parsed.seq as number;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new JournalError('corrupt', `cursor ${path} is unreadable: ${String(error)}`, {
          cause: error,
        });
      }
    }
    return new CursorStore(path, initial, options.defer);
  }

  /** The latest value set (not necessarily on disk yet). */
  get current(): number {
    return this.value;
  }

  /** The latest value known to be on disk. */
  get durable(): number {
    return this.persisted;
  }

  /**
   * Moves the cursor forward (never back). Write-through: resolves once a
   * value >= seq is on disk. Deferred: resolves at once, the write scheduled;
   * a failed deferred write is thrown by the next advance or flush.
   */
  async advance(seq: number): Promise<void> {
    if (this.failure) throw this.failure;
    if (seq > this.value) this.value = seq;
    if (this.defer) {
      this.schedule(this.defer);
      return;
    }
    await this.writeThrough(seq);
  }

  /** Writes the latest value now (a deferred one too) and waits for it. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.failure) throw this.failure;
    await this.writeThrough(this.value);
  }

  private schedule(defer: CursorDefer): void {
    if (this.value <= this.persisted) return;
    if (this.value - this.persisted >= defer.count && !this.writing) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = undefined;
      // Not awaited: the failure, if any, is kept for the next call.
      void this.writeThrough(this.value).catch(() => undefined);
      return;
    }
    // Also while a write is in flight: what it does not cover goes next.
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // Not awaited: the failure, if any, is kept for the next call.
      void this.writeThrough(this.value).catch(() => undefined);
    }, defer.ms);
    // A pending cursor never keeps the process alive: losing it only resends.
    this.timer.unref();
  }

  private async writeThrough(seq: number): Promise<void> {
    while (this.persisted < seq) {
      if (!this.writing) {
        const target = this.value;
        this.writing = this.write(target, this.defer === undefined)
          .then(() => {
            this.persisted = Math.max(this.persisted, target);
          })
          .catch((error: unknown) => {
            this.failure = new JournalError('io_failed', `cursor ${this.path}: ${String(error)}`, {
              cause: error,
            });
          })
          .finally(() => {
            this.writing = undefined;
          });
      }
      await this.writing;
      if (this.failure) throw this.failure;
    }
  }

  /** Replaces the file; `syncFolder`: and fsyncs the folder, so the rename survives a crash too. */
  private async write(seq: number, syncFolder: boolean): Promise<void> {
    const temp = join(dirname(this.path), `.${basename(this.path)}.tmp`);
    const handle = await open(
      temp,
      constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC,
      0o640,
    );
    try {
      await handle.writeFile(`${JSON.stringify({ seq })}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, this.path);
    if (!syncFolder) return;
    const dir = await open(dirname(this.path), constants.O_RDONLY);
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }
}
