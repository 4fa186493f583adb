import { defineConfig } from 'vitest/config';
import PlainSummaryReporter from './test/helpers/plain-summary-reporter.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['./test/helpers/temp-root.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    reporters: ['default', new PlainSummaryReporter()],
  },
});
