/**
 * vitest global setup: every run gets one temporary root, and every temp
 * folder a test, a daemon child or a mosquitto makes (through os.tmpdir())
 * lands inside it. Teardown names what the tests left behind, so a leak is
 * seen and fixed, and removes the root, so a run never litters the machine's
 * temp dir even when a test dies before its own cleanup.
 */
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STARTED_BY } from './broker.ts';
import { BUILT_CLI_ENV, BUILT_CLI_FOLDER, buildCliForRun } from './built-cli.ts';
import { WORKER_LABELS } from './stuck-files.ts';

export default function setup(): () => void {
  const outer = tmpdir();
  const root = mkdtempSync(join(outer, 'tableside-test-run-'));
  // mosquitto started as root drops to its own user, which must reach its config below here.
  chmodSync(root, 0o755);
  process.env.TMPDIR = root;
  const builtCli = buildCliForRun(root);
  if (builtCli) process.env[BUILT_CLI_ENV] = builtCli;
  return () => {
    delete process.env[BUILT_CLI_ENV];
    // tsx keeps its compile cache in the temp dir (tsx-UID): a cache, not a test's leftovers.
    // …and the CLI built for the run's children (built-cli.ts), and the workers' names of
    // their files (worker-dump.ts).
    const left = readdirSync(root).filter(
      (name) => !/^tsx-\d+$/.test(name) && name !== BUILT_CLI_FOLDER && name !== WORKER_LABELS,
    );
    if (left.length > 0) {
      const names = [...new Set(left.map((name) => name.replace(/[-_]?[A-Za-z0-9]{6}$/, '-*')))];
      process.stdout.write(
        `temp: the tests left ${left.length} entries in their temp root (${names.slice(0, 8).join(', ')}${names.length > 8 ? ', …' : ''}); removed\n`,
      );
      for (const name of left) {
        const owner = startedBy(join(root, name));
        if (owner) process.stdout.write(`temp: ${name} was started by ${owner}\n`);
      }
    }
    rmSync(root, { recursive: true, force: true });
    process.env.TMPDIR = outer;
  };
}

/** The test named in a left-behind broker folder (broker.ts writes it), if any. */
function startedBy(path: string): string | undefined {
  try {
    return readFileSync(join(path, STARTED_BY), 'utf8').trim();
  } catch {
    return undefined;
  }
}
