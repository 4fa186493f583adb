/**
 * A linked pair of raw ptys made by socat (`socat -d -d pty,raw,echo=0,link=A
 * pty,raw,echo=0,link=B`): a serial cable without hardware. Killing socat is
 * what unplugging the cable looks like to the daemon. Shared by the tests'
 * PtyPair and the benches' pairs, so nothing here imports vitest.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { until } from './until.ts';

export const SOCAT = ['/usr/bin/socat', '/usr/local/bin/socat', '/opt/homebrew/bin/socat'].find(
  (path) => existsSync(path),
);

/** socat's arguments for a pair linked at `a` and `b`; -d -d so that it logs when both are ready. */
export function ptyPairArguments(a: string, b: string): string[] {
  return ['-d', '-d', `pty,raw,echo=0,link=${a}`, `pty,raw,echo=0,link=${b}`];
}

/**
 * Resolves once socat logs "starting data transfer loop" (both ptys exist);
 * throws with its log when it exits first or takes longer than `timeoutMs`.
 */
export async function untilSocatReady(
  socat: ChildProcess,
  log: () => string,
  timeoutMs = 5000,
): Promise<void> {
  await until(
    () => {
      if (socat.exitCode !== null) throw new Error(`socat exited: ${log()}`);
      return log().includes('starting data transfer loop');
    },
    'socat to start',
    timeoutMs,
    log,
  );
}

/** Spawns socat for a pair linked at `a` and `b` and resolves with it once both ptys are ready. */
export async function startSocatPair(a: string, b: string): Promise<ChildProcess> {
  if (!SOCAT) throw new Error('socat is not installed (apt-get install socat)');
  const socat = spawn(SOCAT, ptyPairArguments(a, b), { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  socat.stderr?.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  try {
    await untilSocatReady(socat, () => log);
  } catch (error) {
    // The caller gets no handle to a pair that did not start: end it here.
    await stopSocat(socat);
    throw error;
  }
  return socat;
}

/** Kills socat (both ptys vanish) and resolves once it has exited. */
export async function stopSocat(socat: ChildProcess | undefined): Promise<void> {
  if (!socat || socat.exitCode !== null || socat.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    socat.once('exit', () => resolve());
    socat.kill('SIGTERM');
  });
}
