import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkPassword } from '../../../firmware-host/trust/password.ts';
import { cliEntryArgs } from '../../helpers/built-cli.ts';
import { REPO_ROOT, runCliSync } from '../../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'tableside-key-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { TABLESIDE_LOG_LEVEL: 'warn' };

describe('tableside key', () => {
  it('generates a mode-600 key, prints only its public half, and never overwrites it', () => {
    const path = join(dir, 'alice.pem');
    const made = runCliSync(['key', 'generate', '--out', path], { env });
    expect(made.status, made.stderr).toBe(0);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(made.stdout).toMatch(/public key:\s+ed25519:[A-Za-z0-9+/]{43}=/);
    expect(made.stdout).toMatch(/fingerprint: [0-9a-f]{4}(-[0-9a-f]{4}){3}/);
    const secret = readFileSync(path, 'utf8').split('\n')[1]!;
    expect(made.stdout + made.stderr).not.toContain(secret);

    const again = runCliSync(['key', 'generate', '--out', path], { env });
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/the file exists \(a key is never overwritten\)/);
    expect(readFileSync(path, 'utf8').split('\n')[1]).toBe(secret);

    const shown = runCliSync(['key', 'public', path], { env });
    expect(shown.stdout.split('\n')[0]).toBe(made.stdout.split('\n')[1]);
  });

  it('hashes a password read on stdin, and refuses a short one', async () => {
    const run = (input: string) =>
      spawnSync(process.execPath, [...cliEntryArgs(), 'key', 'password'], {
        cwd: REPO_ROOT,
        input,
        encoding: 'utf8',
        env: { ...process.env, ...env },
      });
    const hashed = run('correct horse battery\n');
    expect(hashed.status, hashed.stderr).toBe(0);
    const hash = hashed.stdout.trim();
    expect(hash).toMatch(/^scrypt:[A-Za-z0-9+/]+=*:[A-Za-z0-9+/]+=*$/);
    expect(hash).not.toContain('correct horse');
    expect(await checkPassword('correct horse battery', hash)).toBe(true);
    expect(await checkPassword('correct horse battery!', hash)).toBe(false);
    const short = run('abc\n');
    expect(short.status).toBe(1);
    expect(short.stderr).toMatch(/8 characters or more/);
  });
});
