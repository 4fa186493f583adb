/**
 * The suite's rule for socat, mosquitto, Chromium and the other tools it
 * drives: a test that lacks one skips and says why, except under
 * TABLESIDE_REQUIRE_TOOLS=1 (.ci/run), where it fails, so a green CI run
 * means every test ran. And every test asks through the one gate.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { REPO_ROOT } from '../../helpers/cli.ts';
import { missingTool, skipReason } from '../../helpers/tools.ts';

const saved = process.env.TABLESIDE_REQUIRE_TOOLS;
afterEach(() => {
  if (saved === undefined) delete process.env.TABLESIDE_REQUIRE_TOOLS;
  else process.env.TABLESIDE_REQUIRE_TOOLS = saved;
  vi.restoreAllMocks();
});

describe('a missing tool', () => {
  it('outside CI skips the test and prints why', () => {
    delete process.env.TABLESIDE_REQUIRE_TOOLS;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const reason = missingTool(false, 'frobnicator is not installed: the frob test needs it');
    expect(reason).toBe('frobnicator is not installed: the frob test needs it');
    expect(warn).toHaveBeenCalledWith(
      'skipped: frobnicator is not installed: the frob test needs it',
    );
    expect(skipReason(undefined, reason)).toBe(reason);
  });

  it('under TABLESIDE_REQUIRE_TOOLS=1 fails, naming the tool and the variable', () => {
    process.env.TABLESIDE_REQUIRE_TOOLS = '1';
    expect(() => missingTool(false, 'frobnicator is not installed')).toThrow(
      /frobnicator is not installed; TABLESIDE_REQUIRE_TOOLS=1 makes a missing tool fail/,
    );
  });

  it('that is present lets the test run either way', () => {
    process.env.TABLESIDE_REQUIRE_TOOLS = '1';
    expect(missingTool(true, 'never said')).toBeUndefined();
    expect(skipReason(undefined, undefined)).toBeUndefined();
  });
});

/** Probing for a tool by hand would skip quietly in CI: only test/helpers/tools.ts may. */
const DIRECT_PROBES = [
  /\bmosquittoPath\(\)/,
  /\bhasCommand\(/,
  /\bSOCAT\b/,
  /existsSync\((SCRIPT|CHROMIUM)\)/,
  /\[skip\]/,
];
// The helpers that implement the tools (socat, the broker, the gate) and the benches, which are no tests.
const ALLOWED = new Set([
  'test/helpers/tools.ts',
  'test/helpers/socat.ts',
  'test/helpers/broker.ts',
  'test/unit/suite/a-missing-tool-skips-outside-ci-and-fails-under-tableside-require-tools.test.ts',
]);

function testSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'bench' ? [] : testSources(path);
    return entry.name.endsWith('.ts') ? [relative(REPO_ROOT, path)] : [];
  });
}

describe('every test', () => {
  it('asks for its tools through test/helpers/tools.ts, never probing by hand', () => {
    const offenders = testSources(join(REPO_ROOT, 'test'))
      .filter((file) => !ALLOWED.has(file))
      .flatMap((file) => {
        const text = readFileSync(join(REPO_ROOT, file), 'utf8');
        return DIRECT_PROBES.filter((probe) => probe.test(text)).map(
          (probe) => `${file}: ${probe.source}`,
        );
      });
    expect(offenders).toEqual([]);
  });
});
