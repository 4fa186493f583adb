/**
 * A linked pty pair made by socat, for serial tests without hardware:
 * `socat -d -d pty,raw,echo=0,link=A pty,raw,echo=0,link=B`. Killing the pair
 * is what unplugging a USB-serial cable looks like to the daemon.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir as makeTempDir } from '../../helpers/temp.ts';

export const SOCAT = ['/usr/bin/socat', '/usr/local/bin/socat', '/opt/homebrew/bin/socat'].find(
  (path) => existsSync(path),
);
export const SOCAT_MISSING_REASON =
  'socat is not installed (apt-get install socat): serial tests over ptys are skipped';

export class PtyPair {
  readonly a: string;
  readonly b: string;
  private child: ChildProcess | undefined;

  constructor(directory = makeTempDir('tableside-pty-')) {
    this.a = join(directory, 'A');
    this.b = join(directory, 'B');
  }

  /** Starts socat and resolves once both links exist. */
  async start(): Promise<void> {
    if (!SOCAT) throw new Error(SOCAT_MISSING_REASON);
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
    // socat logs "starting data transfer loop" once both ptys are ready.
    for (let waited = 0; !/starting data transfer loop/.test(log); waited += 10) {
      if (child.exitCode !== null) throw new Error(`socat exited: ${log}`);
      if (waited > 5000) throw new Error(`socat did not start: ${log}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Kills socat: both ptys vanish, like a cable pulled. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }
}
