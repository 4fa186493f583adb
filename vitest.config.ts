import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import PlainSummaryReporter from './test/helpers/plain-summary-reporter.ts';

const shared = {
  testTimeout: 30_000,
  hookTimeout: 30_000,
  pool: 'forks',
} as const;

const QUICK_FOLDERS = ['test/unit', 'test/property', 'test/scenarios'];

/** A test that starts processes (the CLI run from source, mostly): it waits, so it is no quick test. */
const STARTS_PROCESSES = /from 'node:child_process'|\brunCli(Sync)?\(/;

/** A long seeded run (a fuzz, a drill of a thousand runs): it belongs to the full run. */
const LONG_RUN = /\.(fuzz|drill)\.test\.ts$/;

/**
 * A test that changes what the whole process shares (a module mock, fake
 * timers, the environment, a global): it gets a fresh module graph of its
 * own. The other quick files share their worker's modules, which saves
 * importing the same code once per file.
 */
const CHANGES_PROCESS_STATE =
  /vi\.(mock|doMock|stubGlobal|stubEnv|useFakeTimers)\(|process\.env(\.\w+|\[[^\]]+\]) =|process\.chdir\(|globalThis\.\w+ =/;

/**
 * The fast lane's files and the others, read from the files themselves, so
 * that no list is kept by hand: a unit, property or scenario test is quick
 * unless it starts a process or is a long seeded run.
 */
function lanes(): { shared: string[]; isolated: string[]; slow: string[] } {
  const shared: string[] = [];
  const isolated: string[] = [];
  const slow: string[] = [];
  for (const folder of QUICK_FOLDERS) {
    for (const name of readdirSync(join(import.meta.dirname, folder), { recursive: true })) {
      const file = `${folder}/${String(name)}`;
      if (!file.endsWith('.test.ts')) continue;
      const text = readFileSync(join(import.meta.dirname, file), 'utf8');
      if (STARTS_PROCESSES.test(text) || LONG_RUN.test(file)) slow.push(file);
      else (CHANGES_PROCESS_STATE.test(text) ? isolated : shared).push(file);
    }
  }
  return { shared, isolated, slow };
}
const { shared: quickShared, isolated: quickIsolated, slow } = lanes();

export default defineConfig({
  test: {
    // Once per run, in the root (the projects do not repeat it): one temp root for everything.
    globalSetup: ['./test/helpers/temp-root.ts'],
    reporters: ['default', new PlainSummaryReporter()],
    projects: [
      {
        // `npm run test:quick` (with quick-isolated): pure code in-process, CPU-bound: a
        // worker per core, and the files share each worker's modules (isolate off).
        test: {
          ...shared,
          name: 'quick',
          include: quickShared,
          isolate: false,
          // temp.ts is imported once per worker here: this removes each file's folders after it.
          setupFiles: ['./test/helpers/temp-cleanup.ts'],
          maxWorkers: availableParallelism(),
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...shared,
          name: 'quick-isolated',
          include: quickIsolated,
          maxWorkers: availableParallelism(),
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...shared,
          // A hang guard, not a speed limit: these tests wait on conditions, and two files side
          // by side on a loaded machine (daemons, brokers, Chromium) can take three times as long
          // as one alone (an 8 s e2e case met the 30 s guard under load).
          testTimeout: 90_000,
          hookTimeout: 60_000,
          name: 'integration',
          include: [
            'test/integration/**/*.test.ts',
            'test/e2e/**/*.test.ts',
            'test/browser/**/*.test.ts',
            'test/slow/**/*.test.ts',
            'test/fuzz/**/*.test.ts',
            ...slow,
          ],
          // Each file takes its own free ports and temp folders, so files run side by side. These
          // files mostly wait (on a daemon's start, a broker, a retransmission timer, a page), so
          // two per core keep both cores busy where one per core left them half idle (the e2e
          // folder took 0.8x the time at four workers as at two, in one run on this 2-core
          // machine). TABLESIDE_TEST_WORKERS overrides it.
          maxWorkers: Number(process.env.TABLESIDE_TEST_WORKERS) || 2 * availableParallelism(),
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
