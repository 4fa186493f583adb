/**
 * The suite's one pty pair: two raw ptys linked by socat at `<dir>/host` (a)
 * and `<dir>/device` (b), a serial cable without hardware. Stopping socat is
 * what pulling a USB-serial cable looks like to the daemon: both ptys vanish.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startSocatPair, stopSocat } from './socat.ts';
import { tempDir as makeTempDir } from './temp.ts';
import { socatMissing } from './tools.ts';
import { until } from './until.ts';

export class PtyPair {
  readonly a: string;
  readonly b: string;
  private child: ChildProcess | undefined;

  constructor(directory = makeTempDir('tableside-pty-')) {
    this.a = join(directory, 'host');
    this.b = join(directory, 'device');
  }

  /** Starts socat and resolves once both links exist. */
  async start(): Promise<void> {
    const missing = socatMissing();
    if (missing) throw new Error(missing);
    this.child = await startSocatPair(this.a, this.b);
  }

  /** Stops socat: both ptys vanish, like a cable pulled; resolves once its links are gone too. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    await stopSocat(child);
    await until(() => !existsSync(this.a) && !existsSync(this.b), 'the pty links to vanish', 5_000);
  }

  /** The cable pulled: the same as `stop`. */
  kill(): Promise<void> {
    return this.stop();
  }
}
