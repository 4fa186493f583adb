/**
 * A linked pty pair made by socat, for serial tests without hardware:
 * `socat -d -d pty,raw,echo=0,link=A pty,raw,echo=0,link=B`. Killing the pair
 * is what unplugging a USB-serial cable looks like to the daemon.
 */
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { SOCAT, startSocatPair, stopSocat } from '../../helpers/socat.ts';
import { tempDir as makeTempDir } from '../../helpers/temp.ts';

export { SOCAT };
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
    this.child = await startSocatPair(this.a, this.b);
  }

  /** Kills socat: both ptys vanish, like a cable pulled. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    await stopSocat(child);
  }
}
