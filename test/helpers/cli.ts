/**
 * The `tableside` CLI as a child process in the repository root, the way a
 * pit supervisor or an installer runs it: the run's build of the sources
 * (built-cli.ts), or the sources through tsx.
 */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { cliEntryArgs } from './built-cli.ts';

export const REPO_ROOT = join(import.meta.dirname, '../..');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** Added to (or overriding) the test's own environment. */
  env?: Record<string, string>;
  /** Milliseconds before the child is killed (sync runs only); none by default. */
  timeout?: number;
}

/** Runs the CLI to its end, blocking; `status` is its exit code (null when killed). */
export function runCliSync(
  args: readonly string[],
  options: CliOptions = {},
): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [...cliEntryArgs(), ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...options.env },
    ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * Starts the CLI and collects its output; `done` settles when it exits,
 * `kill` ends a long-running command (SIGTERM unless told). The environment defaults to
 * `TABLESIDE_LOG_LEVEL=warn` so that logs do not drown the output.
 */
export function runCli(
  args: readonly string[],
  options: Pick<CliOptions, 'env'> = { env: { TABLESIDE_LOG_LEVEL: 'warn' } },
): { done: Promise<CliResult>; kill(signal?: NodeJS.Signals): void } {
  const child = spawn(process.execPath, [...cliEntryArgs(), ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...options.env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return {
    kill: (signal: NodeJS.Signals = 'SIGTERM') => child.kill(signal),
    done: new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr }))),
  };
}
