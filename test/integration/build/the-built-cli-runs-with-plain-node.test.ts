/**
 * The Pi runs `node dist/firmware-host/cli.js` with no tsx and no dev
 * dependencies. This builds with the package's own build script into a
 * temporary folder and runs the built CLI with plain node.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = join(import.meta.dirname, '../../..');
const out = mkdtempSync(join(tmpdir(), 'tableside-build-'));
const cli = join(out, 'dist', 'firmware-host', 'cli.js');

function node(args: string[], input?: string) {
  return spawnSync(process.execPath, [cli, ...args], {
    cwd: out,
    encoding: 'utf8',
    input,
    env: { ...process.env, NODE_OPTIONS: '', TABLESIDE_LOG_LEVEL: 'warn' },
  });
}

beforeAll(() => {
  const build = (
    JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
      scripts: { build: string };
    }
  ).scripts.build;
  // The package's own build script, aimed at the temporary folder instead of dist/.
  const script = build
    .replace(
      'tsc -p tsconfig.build.json',
      `tsc -p tsconfig.build.json --outDir ${join(out, 'dist')}`,
    )
    .replaceAll("'dist/", `'${join(out, 'dist')}/`);
  execFileSync('sh', ['-c', script], {
    cwd: repo,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, PATH: `${join(repo, 'node_modules', '.bin')}:${process.env.PATH}` },
  });
  // "type": "module" comes from package.json; dependencies from the repo's node_modules.
  cpSync(join(repo, 'package.json'), join(out, 'package.json'));
  symlinkSync(join(repo, 'node_modules'), join(out, 'node_modules'));
}, 180_000);

afterAll(() => {
  rmSync(out, { recursive: true, force: true });
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
    expect(
      existsSync(join(out, 'dist', 'hardware', 'console', 'pin-maps', 'nano-default.json')),
    ).toBe(true);
    const result = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const m = await import(${JSON.stringify(join(out, 'dist', 'hardware', 'console', 'pin-map.js'))}); console.log(typeof m.defaultPinMap);`,
      ],
      { encoding: 'utf8' },
    );
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toBe('function');
  });

  it('contains no TypeScript source and no import of a .ts file', () => {
    const grep = spawnSync('grep', ['-rlE', "from '[^']+\\.ts'", join(out, 'dist')], {
      encoding: 'utf8',
    });
    expect(grep.stdout.trim()).toBe('');
  });
});
