/**
 * The Pi runs `node dist/firmware-host/cli.js` with no tsx and no dev
 * dependencies. The package's own build script, aimed at a temporary folder
 * (test/helpers/built-cli.ts: the run's build, which the suite's CLI children
 * run too, or one of this file's own on a run from the sources), and the
 * built CLI run with plain node.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_CLI_ENV, buildInto } from '../../helpers/built-cli.ts';

/** The built CLI, and the folder its build went to (dist/ on the Pi). */
let cli = '';
let out = '';
/** A folder of this file's own, when the run made no build. */
let ownBuild: string | undefined;

function node(args: string[], input?: string) {
  return spawnSync(process.execPath, [cli, ...args], {
    cwd: out,
    encoding: 'utf8',
    input,
    env: { ...process.env, NODE_OPTIONS: '', TABLESIDE_LOG_LEVEL: 'warn' },
  });
}

beforeAll(() => {
  const built = process.env[BUILT_CLI_ENV];
  if (built) {
    cli = built;
  } else {
    ownBuild = mkdtempSync(join(tmpdir(), 'tableside-build-'));
    cli = buildInto(ownBuild, { typeCheck: true });
  }
  out = dirname(dirname(cli));
}, 180_000);

afterAll(() => {
  if (ownBuild) rmSync(ownBuild, { recursive: true, force: true });
});

describe('the built CLI under plain node', () => {
  it('prints its help', () => {
    const result = node(['--help']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('Usage: tableside');
    for (const command of ['run', 'diag', 'encode', 'rulesets'])
      expect(result.stdout).toContain(command);
  });

  it('encodes a frame', () => {
    const result = node(['encode', 'SH', '1', 'CARD', 'AS', 'red', 'down']);
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\$SH,1,CARD,AS,red,down\*[0-9A-F]{4}$/);
  });

  it('lists the rulesets', () => {
    const result = node(['rulesets']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('tdc-baccarat-no-commission');
    expect(result.stdout).toContain('peru-triple-shot');
  });

  it('finds its non-code assets (the built-in pin map)', () => {
    expect(existsSync(join(out, 'hardware', 'console', 'pin-maps', 'nano-default.json'))).toBe(
      true,
    );
    const result = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const m = await import(${JSON.stringify(join(out, 'hardware', 'console', 'pin-map.js'))}); console.log(typeof m.defaultPinMap);`,
      ],
      { encoding: 'utf8' },
    );
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toBe('function');
  });

  it('contains no TypeScript source and no import of a .ts file', () => {
    const grep = spawnSync('grep', ['-rlE', "from '[^']+\\.ts'", out], {
      encoding: 'utf8',
    });
    expect(grep.stdout.trim()).toBe('');
  });
});
