/**
 * Issue 28: the suite waits on conditions (test/helpers/until.ts); a fixed
 * wait stays only with a `// fixed wait: <kind>: <why>` reason above it
 * (test/architecture/fixed-waits.ts). This prints the count by kind, the
 * figure the closing note quotes.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  fixedWaits,
  summarizeFixedWaits,
  UNTIL_FILE,
  unexplainedFixedWaits,
} from '../../architecture/fixed-waits.ts';
import { REPO_ROOT } from '../../helpers/cli.ts';

/** The check and the benchmark are not tests; planted waits below are not the suite's. */
const NOT_SCANNED = ['test/architecture', 'test/bench', relative(REPO_ROOT, import.meta.filename)];

function testFiles(dir: string): string[] {
  return readdirSync(join(REPO_ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (NOT_SCANNED.includes(path)) return [];
    if (statSync(join(REPO_ROOT, path)).isDirectory()) return testFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

const SUITE = new Map(
  testFiles('test').map((file) => [file, readFileSync(join(REPO_ROOT, file), 'utf8')]),
);

const planted = (source: string[]) =>
  new Map([['test/integration/planted.test.ts', source.join('\n')]]);

describe('fixed waits', () => {
  it('every fixed wait in the suite says why a condition cannot replace it', () => {
    const waits = fixedWaits(SUITE);
    console.log(summarizeFixedWaits(waits));
    for (const wait of waits) console.log(`  ${wait.where} [${wait.kind}] ${wait.reason}`);
    expect(unexplainedFixedWaits(SUITE)).toEqual([]);
  });

  it.each([
    ['a timed promise', 'await new Promise((resolve) => setTimeout(resolve, 300));'],
    ['a while loop polling by hand', 'while (!done) await new Promise((r) => setTimeout(r, 20));'],
    ["a browser page's fixed wait", 'await page.waitForTimeout(300);'],
  ])('fails on %s without a reason', (_kind, line) => {
    expect(unexplainedFixedWaits(planted(['// Let it happen.', line]))).toEqual([
      `test/integration/planted.test.ts:2: ${line}`,
    ]);
  });

  it('fails on a pause inside an async block that is no helper', () => {
    const tree = planted([
      'const dealing = (async () => {',
      '  while (await sim.step()) await new Promise((resolve) => setTimeout(resolve, 2));',
      '})();',
    ]);
    expect(unexplainedFixedWaits(tree)).toHaveLength(1);
  });

  it('passes a wait with a reason of a known kind on the comment lines above', () => {
    const waits = fixedWaits(
      planted([
        '// fixed wait: nothing happens: a refused frame must draw no ACK,',
        '// and nothing but time can show it',
        'await new Promise((resolve) => setTimeout(resolve, 300));',
      ]),
    );
    expect(waits).toEqual([
      {
        where: 'test/integration/planted.test.ts:3',
        code: 'await new Promise((resolve) => setTimeout(resolve, 300));',
        kind: 'nothing happens',
        reason: 'a refused frame must draw no ACK,',
      },
    ]);
  });

  it('fails on a reason of a kind it does not know', () => {
    const tree = planted([
      '// fixed wait: it felt right',
      'await new Promise((resolve) => setTimeout(resolve, 300));',
    ]);
    expect(unexplainedFixedWaits(tree)).toHaveLength(1);
  });

  it('counts each awaited call of a waiting helper, with the reason on the helper', () => {
    const tree = new Map([
      [
        'test/helpers/pause.ts',
        [
          '/** Lets messages that would arrive do so. */',
          '// fixed wait: nothing happens: no message must arrive, only time shows it',
          'export function settle(ms = 500): Promise<void> {',
          '  return new Promise((resolve) => setTimeout(resolve, ms));',
          '}',
          'export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));',
        ].join('\n'),
      ],
      [
        'test/integration/planted.test.ts',
        [
          "import { settle, sleep } from '../helpers/pause.ts';",
          'await settle(300);',
          "// fixed wait: emulated timing: the beam is broken for a dealer's 50 ms",
          'await sleep(50);',
          'await sleep(10);',
          'await table.settle();',
        ].join('\n'),
      ],
    ]);
    expect(fixedWaits(tree).map(({ where, kind }) => [where, kind])).toEqual([
      ['test/integration/planted.test.ts:2', 'nothing happens'],
      ['test/integration/planted.test.ts:4', 'emulated timing'],
      ['test/integration/planted.test.ts:5', null],
    ]);
  });

  it("does not count until's own poll interval", () => {
    const tree = new Map([[UNTIL_FILE, readFileSync(join(REPO_ROOT, UNTIL_FILE), 'utf8')]]);
    expect(readFileSync(join(REPO_ROOT, UNTIL_FILE), 'utf8')).toMatch(
      /setTimeout\(resolve, pollMs\)/,
    );
    expect(fixedWaits(tree)).toEqual([]);
  });
});
