/**
 * A durable cursor: one number (e.g. the last journal seq the MQTT broker
 * acknowledged) kept in a small JSON file, replaced atomically (write to a
 * temp file, fsync, rename, fsync the folder), so a crash leaves either the
 * old value or the new one, never a torn file.
 *
 * Writes are coalesced: while one is in flight, only the latest value
 * waiting is written next. The value only moves forward.
 */
import { constants } from 'node:fs';
import { mkdir, open, readFile, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { JournalError } from './errors.ts';

export class CursorStore {
  private value: number;
  private persisted: number;
  private writing: Promise<void> | undefined;
  private failure: JournalError | undefined;

  private constructor(
    readonly path: string,
    initial: number,
  ) {
    this.value = initial;
    this.persisted = initial;
  }

  /** Opens the cursor at `path`, 0 when the file does not exist yet. */
  static async open(path: string): Promise<CursorStore> {
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
    return new CursorStore(path, initial);
  }

  /** The latest value set (not necessarily on disk yet). */
  get current(): number {
    return this.value;
  }

  /** The latest value known to be on disk. */
  get durable(): number {
    return this.persisted;
  }

  /** Moves the cursor forward (never back) and resolves once a value >= seq is on disk. */
  async advance(seq: number): Promise<void> {
    if (this.failure) throw this.failure;
    if (seq > this.value) this.value = seq;
    while (this.persisted < seq) {
      if (!this.writing) {
        const target = this.value;
        this.writing = this.write(target)
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

  /** Waits for the write in flight, if any. */
  async flush(): Promise<void> {
    await this.advance(this.value);
  }

  private async write(seq: number): Promise<void> {
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
    const dir = await open(dirname(this.path), constants.O_RDONLY);
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }
}
