/**
 * The commands the docs tell a reader to run: every line of every ```sh
 * block (indented ones in lists too) of README.md and the pages under docs/,
 * a line ending in `\` joined with the next, comments cut. A comment line of
 * its own (the output a page shows) is no command.
 *
 * And a shell to run them as a reader does: bash in a temporary folder that
 * looks like the clone (its folders linked), `tableside` on the PATH (the
 * run's build of the sources, as test/helpers/cli.ts starts it).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readJournalRecords } from '../../firmware-host/journal/journal.ts';
import type { DomainEvent } from '../../firmware-host/table/events.ts';
import { cliEntryArgs } from './built-cli.ts';
import { REPO_ROOT } from './cli.ts';
import { tempDir } from './temp.ts';
import { until } from './until.ts';

export interface DocCommand {
  /** The page, relative to the repository. */
  page: string;
  /** Its line in the page (1-based). */
  line: number;
  /** The command as the page writes it (continuations joined with one space, comment cut). */
  command: string;
}

const SKIPPED_DIRS = new Set(['node_modules', '.git', 'dist', '.tableside']);

/** README.md and every Markdown page under docs/. */
export function docPages(): string[] {
  const under = (dir: string): string[] =>
    readdirSync(join(REPO_ROOT, dir)).flatMap((name) => {
      if (SKIPPED_DIRS.has(name)) return [];
      const path = join(dir, name);
      if (statSync(join(REPO_ROOT, path)).isDirectory()) return under(path);
      return name.endsWith('.md') ? [path] : [];
    });
  return ['README.md', ...under('docs').sort()];
}

/** The commands of one page's ```sh blocks, in order. */
export function commandsOf(page: string, markdown: string): DocCommand[] {
  const commands: DocCommand[] = [];
  const lines = markdown.split('\n');
  let inShell = false;
  let fence = '';
  let pending: { line: number; text: string } | undefined;
  for (const [index, raw] of lines.entries()) {
    const opening = /^(\s*)(```+)(\S*)\s*$/.exec(raw);
    if (!fence && opening) {
      fence = opening[2]!;
      inShell = opening[3] === 'sh';
      continue;
    }
    if (fence && raw.trim() === fence) {
      fence = '';
      inShell = false;
      continue;
    }
    if (!inShell) continue;
    const text = raw.replace(/(^|\s+)#.*$/, '').trim();
    if (!text) continue;
    const joined = pending ? `${pending.text} ${text}` : text;
    const line = pending?.line ?? index + 1;
    if (joined.endsWith('\\')) {
      pending = { line, text: joined.slice(0, -1).trim() };
      continue;
    }
    pending = undefined;
    commands.push({ page, line, command: joined });
  }
  return commands;
}

export function docCommands(): DocCommand[] {
  return docPages().flatMap((page) =>
    commandsOf(page, readFileSync(join(REPO_ROOT, page), 'utf8')),
  );
}

export interface ShellResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The folders a reader's clone has that the docs' commands read. */
const CLONE_FOLDERS = ['device-protocol', 'firmware-host', 'hardware', 'simulators', 'test'];

/**
 * A reader's shell: a temporary folder standing for the clone (its folders
 * linked, so `simulators/scenarios/…` and `test/fixtures/…` resolve and what
 * a command writes lands in the temporary folder), `tableside` on the PATH.
 */
export class ReaderShell {
  readonly dir: string;
  private readonly env: NodeJS.ProcessEnv;
  private readonly background: ChildProcess[] = [];
  /** Variables the reader has set for the commands that follow. */
  readonly extraEnv: Record<string, string> = {};

  constructor(prefix = 'tableside-doc-') {
    this.dir = tempDir(prefix);
    for (const folder of CLONE_FOLDERS) {
      symlinkSync(join(REPO_ROOT, folder), join(this.dir, folder), 'dir');
    }
    const bin = tempDir('tableside-doc-bin-');
    const shim = join(bin, 'tableside');
    // The entry's own loader, if any, is resolved here: the shell's folder has no node_modules.
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    const args = cliEntryArgs(tsx).map((arg) => `'${arg}'`);
    writeFileSync(shim, `#!/bin/sh\nexec '${process.execPath}' ${args.join(' ')} "$@"\n`);
    chmodSync(shim, 0o755);
    this.env = {
      ...process.env,
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      TABLESIDE_LOG_LEVEL: 'warn',
    };
  }

  /** Runs a command to its end (bash, pipefail), at most `timeoutMs`. */
  run(command: string, options: { input?: string; timeoutMs?: number } = {}): ShellResult {
    const result = spawnSync('bash', ['-o', 'pipefail', '-c', command], {
      cwd: this.dir,
      env: { ...this.env, ...this.extraEnv },
      encoding: 'utf8',
      timeout: options.timeoutMs ?? 60_000,
      ...(options.input === undefined ? {} : { input: options.input }),
    });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  }

  /** Starts a command in its own process group (a trailing `&` dropped); `output()` is what it printed so far. */
  start(command: string): { child: ChildProcess; output: () => string } {
    const child = spawn('bash', ['-c', `exec ${command.replace(/&\s*$/, '').trim()}`], {
      cwd: this.dir,
      env: { ...this.env, ...this.extraEnv },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.background.push(child);
    let printed = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
    });
    return { child, output: () => printed };
  }

  /** Ends one command `start` started (its whole process group) and waits until it is gone. */
  async end(child: ChildProcess): Promise<void> {
    const at = this.background.indexOf(child);
    if (at >= 0) this.background.splice(at, 1);
    if (groupGone(child.pid!)) return;
    process.kill(-child.pid!, 'SIGTERM');
    await until(
      () => groupGone(child.pid!),
      `the process group of ${child.spawnargs.join(' ')}`,
      30_000,
    );
  }

  /** Ends what `start` started, last first, and waits until each is gone. */
  async stop(): Promise<void> {
    for (const child of [...this.background].reverse()) await this.end(child);
  }
}

/** No process of the group is left (signal 0 tests for one and sends nothing). */
export function groupGone(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return false;
  } catch {
    return true;
  }
}

/** The events a journal folder holds (a line being written at its end is left for later). */
export async function journalEvents(dir: string): Promise<DomainEvent[]> {
  const events: DomainEvent[] = [];
  if (!existsSync(dir)) return events;
  try {
    for await (const record of readJournalRecords(dir)) {
      if (record.kind === 'event') events.push(record.data as DomainEvent);
    }
  } catch {
    // A line being written right now: the records before it are what there is.
  }
  return events;
}
