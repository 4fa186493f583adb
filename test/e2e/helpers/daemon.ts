/**
 * `tableside run` as a child process: the run's build of the sources in
 * plain node (built-cli.ts), or `node --import tsx` on the sources (one
 * process either way: the tsx launcher would put a second process between
 * the test and the daemon, and a kill -9 of the launcher would orphan it).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cliEntryArgs } from '../../helpers/built-cli.ts';
import { tempDir as makeTempDir } from '../../helpers/temp.ts';

export const REPO_ROOT = join(import.meta.dirname, '../../..');
/** By absolute URL, so the CLI also starts from a temporary working directory. */
const TSX_LOADER = pathToFileURL(join(REPO_ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

/** Keeps this much of a child's output, for failure messages. */
const OUTPUT_TAIL = 64 * 1024;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface CliProcessOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
}

export class CliProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<Exit>;
  private out = '';
  private err = '';

  constructor(args: readonly string[], options: CliProcessOptions = {}) {
    this.child = spawn(process.execPath, [...cliEntryArgs(TSX_LOADER), ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TABLESIDE_LOG_LEVEL: 'info', ...options.env },
    });
    this.child.stdout?.on('data', (chunk: Buffer) => {
      this.out = (this.out + chunk.toString()).slice(-OUTPUT_TAIL);
    });
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.err = (this.err + chunk.toString()).slice(-OUTPUT_TAIL);
    });
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => resolve({ code, signal })),
    );
  }

  get stdout(): string {
    return this.out;
  }

  get stderr(): string {
    return this.err;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Sends a signal and waits for the process to exit. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<Exit> {
    if (this.running) this.child.kill(signal);
    return this.exited;
  }

  /** Both outputs' tails, for an assertion message. */
  describe(): string {
    return `--- stdout ---\n${this.out.slice(-4000)}\n--- stderr ---\n${this.err.slice(-4000)}`;
  }
}

/** `tableside run --config FILE --no-view` */
export function startDaemon(configFile: string, options: CliProcessOptions = {}): CliProcess {
  return new CliProcess(['run', '--config', configFile, '--no-view'], options);
}

/** Runs a CLI command to its end. */
export async function runCli(
  args: readonly string[],
  options: CliProcessOptions = {},
): Promise<Exit & { stdout: string; stderr: string }> {
  const cli = new CliProcess(args, options);
  const exit = await cli.exited;
  return { ...exit, stdout: cli.stdout, stderr: cli.stderr };
}

export function tempDir(label: string): string {
  return makeTempDir(`tableside-e2e-${label}-`);
}

/** Writes a JSON config (YAML is a superset, the loader reads either) and returns its path. */
export function writeConfig(dir: string, config: unknown, name = 'table.json'): string {
  const path = join(dir, name);
  writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`);
  return path;
}
