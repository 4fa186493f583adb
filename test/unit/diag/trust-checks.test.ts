import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../firmware-host/config/loader.ts';
import { checkTrust } from '../../../firmware-host/diag/trust-checks.ts';
import {
  fingerprint,
  formatPublicKey,
  generateKeyPair,
  privateKeyPem,
} from '../../../firmware-host/trust/keys.ts';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('diag trust rows', () => {
  it('warns on a bench: unsigned requests, unsigned journal, an open embedded broker', async () => {
    const { config } = resolveConfig({}, { env: {} });
    const rows = await checkTrust(config);
    expect(rows.map((row) => [row.name, row.status])).toEqual([
      ['trust: requests', 'warn'],
      ['trust: journal key', 'warn'],
      ['trust: broker accounts', 'warn'],
    ]);
  });

  it('names supervisor and table keys by fingerprint, and fails a key file open to others', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tableside-diag-trust-'));
    dirs.push(dir);
    const supervisor = generateKeyPair();
    const table = generateKeyPair();
    const keyPath = join(dir, 'table.pem');
    await writeFile(keyPath, privateKeyPem(table.privateKey), { mode: 0o600 });
    const settings = {
      journal: { dir: join(dir, 'journal'), signingKey: keyPath },
      requests: { supervisors: { alice: formatPublicKey(supervisor.publicKey) } },
      mqtt: { users: { pit: { role: 'consumer', passwordHash: 'scrypt:AAAA:AAAA' } } },
    };
    const { config } = resolveConfig(settings, { env: {} });
    const rows = await checkTrust(config);
    expect(rows.map((row) => row.status)).toEqual(['pass', 'pass', 'pass']);
    expect(rows[0]!.detail).toContain(`alice ${fingerprint(supervisor.publicKey)}`);
    expect(rows[1]!.detail).toContain(fingerprint(table.publicKey));
    expect(JSON.stringify(rows)).not.toContain(privateKeyPem(table.privateKey).split('\n')[1]);
    await chmod(keyPath, 0o640);
    const open = await checkTrust(config);
    expect(open[1]).toMatchObject({ status: 'fail' });
    expect(open[1]!.detail).toMatch(/open to other users/);
  });
});
