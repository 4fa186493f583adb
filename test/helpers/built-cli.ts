/**
 * The CLI the tests start as a child process, built once per run (vitest
 * global setup): `tsc` of the package's build config without its type check
 * (`npm run typecheck` does that), plus the files the build script copies,
 * into the run's temp root. A child then starts in plain node, as the Pi runs
 * `dist/`, instead of loading every module through tsx's loader (three times
 * the CPU per child; the suite starts a few hundred).
 *
 * `TABLESIDE_TEST_FROM_SOURCE=1` keeps the children on the sources (tsx), and
 * a run of the quick lane alone builds nothing (it starts no CLI).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
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
  const out = join(root, BUILT_CLI_FOLDER);
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--noCheck', '--outDir', out], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  // What `npm run build` copies besides the code.
  for (const assets of ['hardware/console/pin-maps', 'firmware-host/web/public']) {
    cpSync(join(REPO_ROOT, assets), join(out, assets), { recursive: true });
  }
  // The games' browser modules (each game's web/public/): all of a game's folder but its code.
  cpSync(join(REPO_ROOT, 'firmware-host/games'), join(out, 'firmware-host/games'), {
    recursive: true,
    filter: (path) => !path.endsWith('.ts'),
  });
  // As in the repository: the package's type (ES modules) and its dependencies.
  copyFileSync(join(REPO_ROOT, 'package.json'), join(out, 'package.json'));
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(out, 'node_modules'), 'dir');
  return join(out, 'firmware-host/cli.js');
}

/** How to start the `tableside` CLI in a child: node's arguments before the CLI's own. */
export function cliEntryArgs(tsxLoader = 'tsx'): string[] {
  const built = process.env[BUILT_CLI_ENV];
  return built ? [built] : ['--import', tsxLoader, join(REPO_ROOT, 'firmware-host/cli.ts')];
}
