/**
 * A socat pty pair for the benchmarks: it makes its own folder and removes
 * it on stop, and it can be unplugged (socat killed: both ptys vanish, like a
 * cable pulled) and plugged in again on the same paths, as the burst needs.
 * Not the tests' PtyPair, whose folder is removed by a vitest hook.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SOCAT, startSocatPair, stopSocat } from '../helpers/socat.ts';

export { SOCAT };

export class BenchPtyPair {
  readonly a: string;
  readonly b: string;
  private readonly folder: string;
  private child: ChildProcess | undefined;

  constructor() {
    this.folder = mkdtempSync(join(tmpdir(), 'tableside-bench-pty-'));
    this.a = join(this.folder, 'A');
    this.b = join(this.folder, 'B');
  }

  /** Starts socat; resolves once it reports both ptys ready. */
  async start(): Promise<void> {
    this.child = await startSocatPair(this.a, this.b);
  }

  /** Kills socat (the line is pulled); `start()` plugs it in again on the same paths. */
  async unplug(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    await stopSocat(child);
  }

  /** Unplugs and removes the folder. */
  async stop(): Promise<void> {
    await this.unplug();
    rmSync(this.folder, { recursive: true, force: true });
  }
}
