/**
 * The CLI the tests start as a child process, built once per run (vitest
 * global setup) by the package's own build script without its type check
 * (`npm run typecheck` does that), into the run's temp root. A child then starts in plain node, as the Pi runs
 * `dist/`, instead of loading every module through tsx's loader (three times
 * the CPU per child; the suite starts a few hundred).
 *
 * `TABLESIDE_TEST_FROM_SOURCE=1` keeps the children on the sources (tsx), and
 * a run of the quick lane alone builds nothing (it starts no CLI).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

/** Set for the workers and their children: the built CLI's entry. */
export const BUILT_CLI_ENV = 'TABLESIDE_TEST_BUILT_CLI';
/** Its folder's name in the run's temp root (temp-root.ts leaves it out of the leftovers). */
export const BUILT_CLI_FOLDER = 'built-cli';

const REPO_ROOT = join(import.meta.dirname, '../..');

/** `--project quick …` only: the fast lane starts no CLI child. */
function quickLaneOnly(argv: readonly string[]): boolean {
  const projects = argv.flatMap((arg, index) =>
    arg === '--project'
      ? [argv[index + 1] ?? '']
      : arg.startsWith('--project=')
        ? [arg.slice(10)]
        : [],
  );
  return projects.length > 0 && projects.every((name) => name.startsWith('quick'));
}

/** Builds into `root`; returns the built CLI's path, or undefined when children stay on the sources. */
export function buildCliForRun(root: string): string | undefined {
  if (process.env.TABLESIDE_TEST_FROM_SOURCE === '1' || quickLaneOnly(process.argv))
    return undefined;
  return buildInto(join(root, BUILT_CLI_FOLDER), { typeCheck: false });
}

/**
 * The package's own build script (package.json's `build`: tsc and the files it copies)
 * aimed at `out` in place of dist/, with the package's type (ES modules) and its
 * dependencies beside it as in the repository; returns the built CLI's path.
 * `typeCheck: false` adds tsc's --noCheck (`npm run typecheck` checks the types).
 */
export function buildInto(out: string, options: { typeCheck: boolean }): string {
  const build = (
    JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      scripts: { build: string };
    }
  ).scripts.build;
  const tsc = 'tsc -p tsconfig.build.json';
  if (!build.includes(tsc) || !build.includes("'dist/")) {
    throw new Error(`package.json's build script no longer reads "${tsc} … 'dist/…": ${build}`);
  }
  const script = build
    .replace(tsc, `${tsc}${options.typeCheck ? '' : ' --noCheck'} --outDir ${out}`)
    .replaceAll("'dist/", `'${out}/`);
  execFileSync('sh', ['-c', script], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, PATH: `${join(REPO_ROOT, 'node_modules', '.bin')}:${process.env.PATH}` },
  });
  copyFileSync(join(REPO_ROOT, 'package.json'), join(out, 'package.json'));
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(out, 'node_modules'), 'dir');
  return join(out, 'firmware-host/cli.js');
}

/** How to start the `tableside` CLI in a child: node's arguments before the CLI's own. */
export function cliEntryArgs(tsxLoader = 'tsx'): string[] {
  const built = process.env[BUILT_CLI_ENV];
  return built ? [built] : ['--import', tsxLoader, join(REPO_ROOT, 'firmware-host/cli.ts')];
}
