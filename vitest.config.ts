import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import PlainSummaryReporter from './test/helpers/plain-summary-reporter.ts';
import StuckFileReporter from './test/helpers/stuck-file-reporter.ts';

const shared = {
  // A hang guard, not a speed limit (the stuck-file watchdog names a real hang): two files
  // side by side on a loaded machine can take three times as long as one alone (an 8 s e2e
  // case met a 30 s guard), and the architecture check, 8 s alone, took 35 s at load 27.
  testTimeout: 90_000,
  hookTimeout: 60_000,
  pool: 'forks',
  // A test's log lines are shown only when it fails (captured-logs.ts); a worker answers
  // the stuck-file watchdog (worker-dump.ts).
  setupFiles: ['./test/helpers/captured-logs.ts', './test/helpers/worker-dump.ts'] as string[],
} as const;

const QUICK_FOLDERS = ['test/unit', 'test/property', 'test/scenarios'];

/** A test that starts processes (the CLI run from source, mostly): it waits, so it is no quick test. */
const STARTS_PROCESSES = /from 'node:child_process'|\brunCli(Sync)?\(/;

/**
 * A test that starts a whole table in process (its journal on disk, its broker on a port,
 * two real daemons and the AsyncAPI parser in one file): seconds of waiting, no quick test.
 */
const STARTS_A_TABLE = /new TableDaemon\(/;

/** A long seeded run (a fuzz, a drill of a thousand runs): it belongs to the full run. */
const LONG_RUN = /\.(fuzz|drill)\.test\.ts$/;

/**
 * A test that changes what the whole process shares (a module mock, fake
 * timers, the environment, a global), itself or through the virtual-time
 * harness (fake timers): it gets a fresh module graph of its own. The other
 * files share their worker's modules, which saves importing the same code
 * once per file.
 */
const CHANGES_PROCESS_STATE =
  /vi\.(mock|doMock|stubGlobal|stubEnv|useFakeTimers)\(|process\.env(\.\w+|\[[^\]]+\]) =(?!=)|process\.chdir\(|globalThis\.\w+ =(?!=)|helpers\/virtual-table\.ts'/;

const INTEGRATION_FOLDERS = ['test/integration', 'test/e2e', 'test/browser', 'test/fuzz'];

/** Drills and studies of minutes (`npm run test:slow`, which CI runs after `npm test`). */
const SLOW_FOLDER = 'test/slow';

interface Lane {
  /** Files that share their worker's modules (isolate off). */
  shared: string[];
  /** Files that change what the process shares: a fresh module graph each. */
  isolated: string[];
}

function testFilesOf(folder: string): string[] {
  return readdirSync(join(import.meta.dirname, folder), { recursive: true })
    .map((name) => `${folder}/${String(name)}`)
    .filter((file) => file.endsWith('.test.ts'));
}

function sortInto(lane: Lane, file: string, text: string): void {
  (CHANGES_PROCESS_STATE.test(text) ? lane.isolated : lane.shared).push(file);
}

/**
 * The fast lane's files and the others, read from the files themselves, so
 * that no list is kept by hand: a unit, property or scenario test is quick
 * unless it starts a process or a table daemon, or is a long seeded run. In either lane a file
 * shares its worker's modules unless it changes what the process shares.
 */
function lanes(): { quick: Lane; full: Lane } {
  const quick: Lane = { shared: [], isolated: [] };
  const full: Lane = { shared: [], isolated: [] };
  for (const folder of QUICK_FOLDERS) {
    for (const file of testFilesOf(folder)) {
      const text = readFileSync(join(import.meta.dirname, file), 'utf8');
      const notQuick =
        STARTS_PROCESSES.test(text) || STARTS_A_TABLE.test(text) || LONG_RUN.test(file);
      sortInto(notQuick ? full : quick, file, text);
    }
  }
  for (const folder of INTEGRATION_FOLDERS) {
    for (const file of testFilesOf(folder)) {
      sortInto(full, file, readFileSync(join(import.meta.dirname, file), 'utf8'));
    }
  }
  return { quick, full };
}
const { quick, full } = lanes();

/** The full run's files: daemons, brokers, ptys, Chromium, long seeded runs. */
const integration = {
  ...shared,
  // Each file takes its own free ports and temp folders, so files run side by side. These
  // files mostly wait (on a daemon's start, a broker, a retransmission timer, a page), so
  // two per core keep both cores busy where one per core left them half idle.
  // TABLESIDE_TEST_WORKERS overrides it.
  maxWorkers: Number(process.env.TABLESIDE_TEST_WORKERS) || 2 * availableParallelism(),
  sequence: { groupOrder: 1 },
} as const;

export default defineConfig({
  test: {
    // Once per run, in the root (the projects do not repeat it): one temp root for everything.
    globalSetup: ['./test/helpers/temp-root.ts'],
    // The watchdog names a file whose worker went silent for good and ends that worker, so a
    // run fails with a name instead of hanging (stuck-file-reporter.ts).
    reporters: ['default', new PlainSummaryReporter(), new StuckFileReporter()],
    projects: [
      {
        // `npm run test:quick` (with quick-isolated): pure code in-process, CPU-bound: a
        // worker per core, and the files share each worker's modules (isolate off).
        test: {
          ...shared,
          name: 'quick',
          include: quick.shared,
          isolate: false,
          // temp.ts is imported once per worker here: this removes each file's folders after it.
          setupFiles: [...shared.setupFiles, './test/helpers/temp-cleanup.ts'],
          maxWorkers: availableParallelism(),
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...shared,
          name: 'quick-isolated',
          include: quick.isolated,
          maxWorkers: availableParallelism(),
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...integration,
          name: 'integration',
          // Each file its own module graph. With isolate off (each worker's modules shared
          // from file to file, a third of the lane's CPU saved) a worker now and then sits
          // idle from its start and never runs its first file, the run never ending; the
          // libuv pool is not it (sixteen pool threads, all idle, hung the same way).
          include: [...full.shared, ...full.isolated],
        },
      },
      {
        // `npm run test:slow`: drills and studies of minutes, left out of `npm test` by its
        // project filter and run by .ci/run after it.
        test: { ...integration, name: 'slow', include: testFilesOf(SLOW_FOLDER) },
      },
    ],
  },
});
