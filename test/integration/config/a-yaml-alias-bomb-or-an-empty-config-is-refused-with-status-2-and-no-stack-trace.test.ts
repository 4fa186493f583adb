/**
 * Issue 17, item 3: a YAML alias bomb ("billion laughs") once crashed
 * `config check` and `run` with a stack trace (exit 1), and an empty or
 * `null` file passed as the simulator bench. Each is refused with status 2
 * and a message naming the file and what is wrong.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliSync } from '../../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'tableside-bad-yaml-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

/** Nine levels of nine aliases each: 9^9 strings once expanded. */
function aliasBomb(): string {
  const lines = ['a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
  let previous = 'a';
  for (const name of 'bcdefghi') {
    lines.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(', ')}]`);
    previous = name;
  }
  return `${lines.join('\n')}\n`;
}

describe('bad YAML configs', () => {
  it.each(['config check', 'run'])('%s lists an alias bomb and exits 2', (command) => {
    const file = write('bomb.yaml', aliasBomb());
    const args = command === 'run' ? ['run', '--config', file] : ['config', 'check', file];
    const result = runCliSync(args, { timeout: 30_000 });
    expect(result.status).toBe(2);
    expect(result.stderr + result.stdout).toContain('alias');
    expect(result.stderr + result.stdout).toContain(file);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it.each([
    ['empty.yaml', ''],
    ['null.yaml', 'null\n'],
    ['tilde.yaml', '~\n'],
  ])('config check refuses %s rather than taking it for the simulator bench', (name, text) => {
    const file = write(name, text);
    const result = runCliSync(['config', 'check', file], { timeout: 30_000 });
    expect(result.status).toBe(2);
    expect(result.stderr + result.stdout).toContain(`${file} is empty`);
    expect(result.stdout).not.toContain('simulate');
  });
});
