/** socat pty pairs for the integration tests. */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir as makeTempDir } from '../../helpers/temp.ts';

/** Why pty tests cannot run here, or undefined when socat is available. */
export function socatMissing(): string | undefined {
  const probe = spawnSync('socat', ['-V'], { stdio: 'ignore' });
  return probe.error || probe.status !== 0
    ? 'socat is not installed (apt-get install socat): the pty tests are skipped'
    : undefined;
}

export class PtyPair {
  readonly a: string;
  readonly b: string;
  private process: ChildProcess | undefined;

  constructor(directory = makeTempDir('tableside-pty-')) {
    this.a = join(directory, 'host');
    this.b = join(directory, 'device');
  }

  /** Starts socat and waits for both links. */
  async start(): Promise<void> {
    this.process = spawn(
      'socat',
      [`pty,raw,echo=0,link=${this.a}`, `pty,raw,echo=0,link=${this.b}`],
      { stdio: 'ignore' },
    );
    const started = Date.now();
    while (!(existsSync(this.a) && existsSync(this.b))) {
      if (Date.now() - started > 5_000) throw new Error('socat did not create the pty links');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Kills socat: both ptys vanish, like a cable pulled from both ends. */
  async kill(): Promise<void> {
    const child = this.process;
    this.process = undefined;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
    const started = Date.now();
    while (existsSync(this.a) || existsSync(this.b)) {
      if (Date.now() - started > 2_000) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}
