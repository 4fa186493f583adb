/**
 * The machine's tools the tests drive for real (socat for ptys, mosquitto and
 * its commands, Chromium, openssl, script) and the one rule for a missing
 * one: outside CI the test skips and prints why; under
 * TABLESIDE_REQUIRE_TOOLS=1 (set by .ci/run, which installs them all) it
 * fails instead, so a green CI run means every such test ran. Every probe
 * for a tool goes through `missingTool`: a test asks `socatMissing()` and
 * the like, never `existsSync` or `which` of its own.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { SOCAT } from './socat.ts';

/** Read at each probe, so a test of this rule can set it. */
export function toolsRequired(): boolean {
  return process.env.TABLESIDE_REQUIRE_TOOLS === '1';
}

const reported = new Set<string>();

/**
 * The gate: undefined when the tool is there; otherwise prints what follows
 * and `reason` (once per process) and returns the reason, or throws it
 * under TABLESIDE_REQUIRE_TOOLS=1, failing the file that asked.
 */
export function missingTool(
  present: boolean,
  reason: string,
  consequence = 'skipped',
): string | undefined {
  if (present) return undefined;
  if (toolsRequired()) {
    throw new Error(
      `${reason}; TABLESIDE_REQUIRE_TOOLS=1 makes a missing tool fail the run instead of skipping the test`,
    );
  }
  if (!reported.has(reason)) {
    reported.add(reason);
    console.warn(`${consequence}: ${reason}`);
  }
  return reason;
}

/** The first reason a test cannot run (each was printed by its probe), or undefined. */
export function skipReason(...reasons: Array<string | undefined>): string | undefined {
  return reasons.find((reason) => reason !== undefined);
}

const MOSQUITTO_CANDIDATES = [
  '/usr/sbin/mosquitto',
  '/usr/bin/mosquitto',
  '/usr/local/sbin/mosquitto',
  '/opt/homebrew/sbin/mosquitto',
];

export function mosquittoPath(): string | undefined {
  const found = MOSQUITTO_CANDIDATES.find((path) => existsSync(path));
  if (found) return found;
  const which = spawnSync('which', ['mosquitto'], { encoding: 'utf8' });
  return which.status === 0 ? which.stdout.trim() || undefined : undefined;
}

/** Whether a command runs (`mosquitto_passwd`, `openssl`). */
export function hasCommand(command: string): boolean {
  return spawnSync('which', [command], { encoding: 'utf8' }).status === 0;
}

export const CHROMIUM = process.env.TABLESIDE_CHROMIUM ?? '/usr/bin/chromium';

export function socatMissing(why = 'the tests over ptys need it'): string | undefined {
  return missingTool(SOCAT !== undefined, `socat is not installed (apt-get install socat): ${why}`);
}

export function mosquittoMissing(
  why = 'this test needs a broker process it can stop and start',
): string | undefined {
  return missingTool(
    mosquittoPath() !== undefined,
    `mosquitto is not installed (apt-get install mosquitto): ${why}`,
  );
}

/** `command` (mosquitto_passwd, openssl, ...) is not on the PATH. */
export function commandMissing(command: string, why: string): string | undefined {
  return missingTool(hasCommand(command), `${command} is not installed: ${why}`);
}

/** A tool found by its path (a plugin, /usr/bin/script). */
export function fileMissing(path: string | undefined, why: string): string | undefined {
  return missingTool(path !== undefined && existsSync(path), why);
}

export function chromiumMissing(): string | undefined {
  return missingTool(
    existsSync(CHROMIUM),
    `${CHROMIUM} is not installed (apt-get install chromium): the web console's browser tests need it`,
  );
}
