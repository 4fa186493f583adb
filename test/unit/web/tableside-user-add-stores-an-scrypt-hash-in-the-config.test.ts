/** `tableside user add`, run as a child process with the password on stdin. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../firmware-host/config/loader.ts';
import { verifyPassword } from '../../../firmware-host/web/passwords.ts';
import { cliEntryArgs } from '../../helpers/built-cli.ts';
import { REPO_ROOT } from '../../helpers/cli.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function userAdd(args: string[], password: string) {
  const result = spawnSync(process.execPath, [...cliEntryArgs(), 'user', 'add', ...args], {
    cwd: REPO_ROOT,
    input: `${password}\n`,
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('tableside user add stores an scrypt hash in the config', () => {
  it('adds users under web.users, keeping the file and its comments, never the password', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tableside-user-'));
    dirs.push(dir);
    const file = join(dir, 'table.yaml');
    writeFileSync(file, '# the pit table\ntable: pit-7 # by the door\n');
    expect(
      userAdd(['alice', '--role', 'supervisor', '--config', file], 'alice-at-the-pit'),
    ).toMatchObject({
      status: 0,
      stdout: `alice (supervisor) added to ${file}; restart the daemon to apply\n`,
    });
    expect(userAdd(['bob', '--role', 'viewer', '--config', file], 'bob-watches-only').status).toBe(
      0,
    );
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('# the pit table');
    expect(text).toContain('table: pit-7 # by the door');
    expect(text).not.toContain('alice-at-the-pit');
    const { config } = await loadConfig({ file });
    expect(config.web?.users.alice?.role).toBe('supervisor');
    expect(await verifyPassword('alice-at-the-pit', config.web!.users.alice!.password)).toBe(true);
    expect(await verifyPassword('bob-watches-only', config.web!.users.bob!.password)).toBe(true);
    // Replacing a user's password keeps one entry.
    expect(userAdd(['bob', '--role', 'supervisor', '--config', file], 'bob-promoted').status).toBe(
      0,
    );
    const again = await loadConfig({ file });
    expect(Object.keys(again.config.web!.users)).toEqual(['alice', 'bob']);
    expect(again.config.web!.users.bob!.role).toBe('supervisor');
  });

  it('refuses a bad role, a bad name, a short password or no config file, writing nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tableside-user-'));
    dirs.push(dir);
    const file = join(dir, 'table.json');
    writeFileSync(file, '{"table":"t"}\n');
    const cases: Array<[string[], string, string]> = [
      [
        ['carol', '--role', 'admin', '--config', file],
        'long-enough',
        '--role "admin": expected viewer or supervisor',
      ],
      [['no/slash', '--role', 'viewer', '--config', file], 'long-enough', 'user name "no/slash"'],
      [['carol', '--role', 'viewer', '--config', file], 'short', 'at least 8 characters'],
    ];
    for (const [args, password, message] of cases) {
      const result = userAdd(args, password);
      expect(result.status).toBe(2);
      expect(result.stderr).toContain(message);
    }
    expect(readFileSync(file, 'utf8')).toBe('{"table":"t"}\n');
    const none = spawnSync(
      process.execPath,
      [...cliEntryArgs(), 'user', 'add', 'x', '--role', 'viewer'],
      {
        cwd: REPO_ROOT,
        input: 'long-enough\n',
        encoding: 'utf8',
        env: { ...process.env, TABLESIDE_CONFIG: '' },
      },
    );
    expect(none.status).toBe(2);
    expect(none.stderr).toContain(
      'no configuration file: give --config FILE or set TABLESIDE_CONFIG',
    );
  });
});
