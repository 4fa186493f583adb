import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import PlainSummaryReporter from './test/helpers/plain-summary-reporter.ts';

const shared = {
  testTimeout: 30_000,
  hookTimeout: 30_000,
  pool: 'forks',
} as const;

/** The fast lane (`npm run test:quick`): pure code, in-process, CPU-bound. */
const QUICK = [
  'test/unit/**/*.test.ts',
  'test/property/**/*.test.ts',
  'test/fuzz/**/*.test.ts',
  'test/scenarios/**/*.test.ts',
];

export default defineConfig({
  test: {
    // Once per run, in the root (the projects do not repeat it): one temp root for everything.
    globalSetup: ['./test/helpers/temp-root.ts'],
    reporters: ['default', new PlainSummaryReporter()],
    projects: [
      {
        test: {
          ...shared,
          name: 'quick',
          include: QUICK,
          // CPU-bound: one file per core.
          maxWorkers: availableParallelism(),
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...shared,
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: [...QUICK, 'test/bench/**'],
          // These files mostly wait: on ptys, brokers, child daemons and Chromium. Each takes
          // its own free ports and temp folders, so several run at once even on two cores.
          maxWorkers: Math.max(4, availableParallelism() * 2),
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
