import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keyFingerprint } from '../../../device-protocol/auth/keys.ts';
import { hostKeyPath, tableHostKey } from '../../../firmware-host/daemon/host-key.ts';

const dir = mkdtempSync(join(tmpdir(), 'tableside-host-key-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the table's host key", () => {
  it('lives in the state folder, beside the journal folder', () => {
    expect(hostKeyPath({ journal: { dir: '/var/lib/tableside/journal' } } as never)).toBe(
      '/var/lib/tableside/host-key.pem',
    );
  });

  it('is made once (mode 600, its folder made too) and the same key is loaded after', async () => {
    const path = join(dir, 'state', 'host-key.pem');
    const made = await tableHostKey(path);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const loaded = await tableHostKey(path);
    expect(keyFingerprint(loaded.publicKey)).toBe(keyFingerprint(made.publicKey));
    expect(loaded.publicKey.type).toBe('ed25519');
  });

  it('open to others, or not a key, stops the start naming the file, and is left as it was', async () => {
    const open = join(dir, 'open.pem');
    await tableHostKey(open);
    chmodSync(open, 0o644);
    await expect(tableHostKey(open)).rejects.toThrow(
      new RegExp(`host key: device key file ${open} is readable by others`),
    );
    const garbled = join(dir, 'garbled.pem');
    writeFileSync(garbled, 'not a key\n', { mode: 0o600 });
    await expect(tableHostKey(garbled)).rejects.toThrow(/is not a PEM private key/);
    expect(statSync(garbled).size).toBe('not a key\n'.length);
  });
});
