/**
 * What the fleet harness tests share: the daemon run from source (no build
 * needed) and a fleet of it, whether the machine has what a fleet needs, a
 * folder for a run, and whether a run left a process or a file behind.
 */
import { readdirSync } from 'node:fs';
import { expect } from 'vitest';
import { type FleetOptions, runFleet } from '../../bench/fleet-harness.ts';
import { cliEntryArgs } from '../../helpers/built-cli.ts';
import { REPO_ROOT } from '../../helpers/cli.ts';
import { tempDir } from '../../helpers/temp.ts';
import { missingTool, mosquittoMissing, skipReason, socatMissing } from '../../helpers/tools.ts';

/** The daemon the fleet tests start: the run's build of the sources (built-cli.ts), or the sources. */
export const TEST_DAEMON = {
  command: process.execPath,
  args: [...cliEntryArgs()],
  cwd: REPO_ROOT,
};

/** Why a fleet cannot run here (printed), or undefined. */
export function fleetSkipReason(): string | undefined {
  return skipReason(
    socatMissing('a fleet deals over ptys'),
    mosquittoMissing('a fleet needs real brokers and a bridge'),
    missingTool(
      process.platform === 'linux',
      'the fleet harness reads CPU and memory from /proc (Linux only)',
    ),
  );
}

export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

/**
 * The folder a fleet run puts its files in (`tempRoot`), removed after the
 * test file; the run itself must leave it empty.
 */
export function fleetRoot(prefix: string): string {
  return tempDir(prefix);
}

/** Every process the run started has ended, and it left nothing in `root`. */
export function expectNothingLeftBehind(pids: readonly number[], root: string): void {
  expect(pids.filter((pid) => !processGone(pid))).toEqual([]);
  expect(readdirSync(root)).toEqual([]);
}

/** A fleet of daemons run from source, its files under `root`, given a minute to come online and to deliver. */
export function runSourceFleet(root: string, options: Omit<FleetOptions, 'daemon' | 'tempRoot'>) {
  return runFleet({ daemon: TEST_DAEMON, tempRoot: root, timeoutMs: 60_000, ...options });
}
