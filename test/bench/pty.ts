/**
 * A socat pty pair for the benchmarks: it makes its own folder and removes
 * it on stop, and it can be unplugged (socat killed: both ptys vanish, like a
 * cable pulled) and plugged in again on the same paths, as the burst needs.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const SOCAT = ['/usr/bin/socat', '/usr/local/bin/socat', '/opt/homebrew/bin/socat'].find(
  (path) => existsSync(path),
);

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
    if (!SOCAT) throw new Error('socat is not installed (apt-get install socat)');
    const child = spawn(
      SOCAT,
      ['-d', '-d', `pty,raw,echo=0,link=${this.a}`, `pty,raw,echo=0,link=${this.b}`],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    this.child = child;
    let log = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
    });
    for (let waited = 0; !log.includes('starting data transfer loop'); waited += 10) {
      if (child.exitCode !== null) throw new Error(`socat exited: ${log}`);
      if (waited > 5000) throw new Error(`socat did not start within 5 s: ${log}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Kills socat (the line is pulled); `start()` plugs it in again on the same paths. */
  async unplug(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }

  /** Unplugs and removes the folder. */
  async stop(): Promise<void> {
    await this.unplug();
    rmSync(this.folder, { recursive: true, force: true });
  }
}
