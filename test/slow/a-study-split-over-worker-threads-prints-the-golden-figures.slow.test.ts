/**
 * The long enumerations split over worker threads (games/cards/cli/analysis-threads.ts,
 * forced with TABLESIDE_ANALYSIS_THREADS, since from source and on a busy
 * machine the CLI keeps to one thread): the parts computed in workers add
 * up to the golden figures recorded in test/fixtures/ruleset-studies/, to
 * the last digit. Slow (a worker compiles the TypeScript); CI runs it.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCliSync } from '../helpers/cli.ts';

const fixtures = fileURLToPath(new URL('../fixtures/ruleset-studies/', import.meta.url));

describe('a study split over worker threads prints the golden figures', () => {
  it.each(['tdc-casino-holdem', 'peru-triple-shot'])(
    '%s in three parts, two of them in workers',
    (name) => {
      const run = runCliSync(['analyze', 'ruleset', name, '--json'], {
        timeout: 170_000,
        env: { TABLESIDE_ANALYSIS_THREADS: '3' },
      });
      expect(run.status, run.stderr).toBe(0);
      const study = JSON.parse(run.stdout) as Record<string, unknown>;
      delete study.run_time_s;
      expect(study).toStrictEqual(JSON.parse(readFileSync(`${fixtures}${name}.json`, 'utf8')));
    },
    180_000,
  );
});
