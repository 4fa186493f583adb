/**
 * `tableside analyze ruleset NAME --json` for every shipped ruleset, as a
 * child process, against the output recorded before the enumerations were
 * made faster (test/fixtures/ruleset-studies/, issue 16 item 6): every count,
 * fraction and floating-point figure equal to the last digit. Only the run
 * time may differ. Slow (the full enumerations, nothing skipped); CI runs it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { rulesetNames } from '../../firmware-host/games/rulesets.ts';
import { runCliSync } from '../helpers/cli.ts';

const fixtures = fileURLToPath(new URL('../fixtures/ruleset-studies/', import.meta.url));

describe('every ruleset study matches its golden figures to the last digit', () => {
  it('has a golden study for every shipped ruleset', () => {
    const missing = rulesetNames().filter((name) => !existsSync(`${fixtures}${name}.json`));
    expect(missing).toEqual([]);
  });

  it.each([...rulesetNames()])(
    '%s: the study prints exactly the recorded figures',
    (name) => {
      const golden = readFileSync(`${fixtures}${name}.json`, 'utf8');
      const run = runCliSync(['analyze', 'ruleset', name, '--json'], { timeout: 170_000 });
      expect(run.status, run.stderr).toBe(0);
      const study = JSON.parse(run.stdout) as Record<string, unknown>;
      expect(typeof study.run_time_s).toBe('number');
      delete study.run_time_s;
      // Numbers compare exactly (counts are strings), whatever the file's layout.
      expect(study).toStrictEqual(JSON.parse(golden));
    },
    180_000,
  );
});
