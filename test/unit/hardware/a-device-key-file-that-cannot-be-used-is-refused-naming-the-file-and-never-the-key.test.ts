/**
 * Device key files (PROTOCOL.md § 5.1): a usable one loads and signs; one
 * that is missing, readable by others, not a private key, or a key of
 * another type is refused with a message naming the file and what is wrong,
 * and never the key. Creating one never overwrites an existing file.
 */
import { generateKeyPairSync } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyDigestSignature } from '../../../device-protocol/auth/keys.ts';
import { isHardwareError } from '../../../hardware/errors.ts';
import { createKeyFile, loadKeyFile } from '../../../hardware/keys/device-key.ts';

const dir = mkdtempSync(join(tmpdir(), 'tableside-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function refusal(path: string): Promise<string> {
  const error = await loadKeyFile(path).catch((caught: unknown) => caught);
  expect(isHardwareError(error) && error.code).toBe('key_file');
  return (error as Error).message;
}

describe('device key files', () => {
  it('creates a key file readable by its owner only, loads it and signs with it', async () => {
    for (const type of ['ed25519', 'p256'] as const) {
      const path = join(dir, `${type}.key`);
      const created = await createKeyFile(path, type);
      expect(statSync(path).mode & 0o777).toBe(0o600);
      const loaded = await loadKeyFile(path);
      expect(loaded.keyType).toBe(type);
      const digest = new Uint8Array(32).fill(5);
      expect(
        verifyDigestSignature(await created.publicKey(), digest, await loaded.sign(digest)),
      ).toBe(true);
      expect(JSON.stringify({ loaded })).not.toMatch(/PRIVATE/);
      await expect(createKeyFile(path, type)).rejects.toThrow(
        `device key file ${path} exists already`,
      );
    }
  });

  it('refuses a missing file, one readable by others, one that is not a key, and a key of another type', async () => {
    const missing = join(dir, 'missing.key');
    expect(await refusal(missing)).toBe(`device key file ${missing} does not exist`);

    const open = join(dir, 'open.key');
    await createKeyFile(open, 'ed25519');
    chmodSync(open, 0o644);
    expect(await refusal(open)).toBe(
      `device key file ${open} is readable by others (mode 644): chmod 600 it`,
    );

    const text = join(dir, 'text.key');
    writeFileSync(text, 'not a key\n', { mode: 0o600 });
    expect(await refusal(text)).toBe(`device key file ${text} is not a PEM private key`);

    const rsa = join(dir, 'rsa.key');
    const pem = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({
      format: 'pem',
      type: 'pkcs8',
    }) as string;
    writeFileSync(rsa, pem, { mode: 0o600 });
    const message = await refusal(rsa);
    expect(message).toBe(`device key file ${rsa} holds a rsa key; expected Ed25519 or ECDSA P-256`);
    expect(message).not.toContain(pem.split('\n')[1]!);
  });
});
