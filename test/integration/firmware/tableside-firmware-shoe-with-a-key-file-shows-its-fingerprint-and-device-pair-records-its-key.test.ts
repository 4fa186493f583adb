/**
 * Pairing tableside's own shoe, as a technician does it, with the CLI as
 * child processes and the shoe's board the emulated StandardFirmata:
 *
 * - `tableside firmware shoe --key-file K` prints the key's fingerprint,
 *   and `tableside device pair shoe` over the shoe's line (a socat pty)
 *   sees the firmware prove that key and records it in the table config;
 * - `tableside device pair shoe` for `transport: firmware` with `keyFile`
 *   runs the firmware as the daemon would and records the same key.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatPublicKey, keyFingerprint } from '../../../device-protocol/auth/keys.ts';
import { createKeyFile } from '../../../hardware/keys/device-key.ts';
import { until } from '../../e2e/helpers/environment.ts';
import { cliEntryArgs } from '../../helpers/built-cli.ts';
import { REPO_ROOT, runCli } from '../../helpers/cli.ts';
import { tempDir } from '../../helpers/temp.ts';
import { PtyPair, socatMissing } from '../devices/pty.ts';
import { registryDocumentOf, ShoeRig } from './shoe-rig.ts';

const skip = socatMissing();

describe.skipIf(skip)('pairing the shoe firmware with a key file', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });

  async function setUp() {
    const rig = new ShoeRig();
    cleanups.push(() => rig.stop());
    await rig.startBoard();
    const registry = join(rig.directory, 'decks.json');
    writeFileSync(registry, JSON.stringify(registryDocumentOf(['red'])));
    const keyFile = join(rig.directory, 'shoe.key');
    const publicKey = await (await createKeyFile(keyFile, 'ed25519')).publicKey();
    return { rig, registry, keyFile, publicKey };
  }

  function tableConfig(dir: string, shoe: Record<string, unknown>): string {
    const file = join(dir, 'table.json');
    writeFileSync(
      file,
      JSON.stringify({
        table: 'fw-pair',
        ruleset: 'tdc-baccarat-no-commission',
        // Pairing keeps the table's host key beside the journal folder: here, not in the clone.
        journal: { dir: join(dir, 'journal') },
        devices: { shoe },
      }),
    );
    return file;
  }

  async function pair(config: string): Promise<{ code: number | null; stdout: string }> {
    const run = runCli(['device', 'pair', 'shoe', '--config', config, '--yes', '--timeout', '60']);
    cleanups.push(async () => run.kill('SIGKILL'));
    const result = await run.done;
    if (result.code !== 0) throw new Error(`device pair exited ${result.code}: ${result.stderr}`);
    return result;
  }

  it('firmware shoe --key-file prints its fingerprint and device pair records its key', async () => {
    const { rig, registry, keyFile, publicKey } = await setUp();
    const link = new PtyPair(tempDir('tableside-fw-pair-link-'));
    await link.start();
    cleanups.push(() => link.kill());
    const child = spawn(
      process.execPath,
      [
        ...cliEntryArgs(),
        'firmware',
        'shoe',
        ...['--board', rig.pty.a, '--link', link.b, '--registry', registry],
        ...['--outbox', join(rig.directory, 'cli-outbox.jsonl'), '--key-file', keyFile],
      ],
      { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    cleanups.push(async () => {
      child.kill('SIGKILL');
      await exited;
    });
    await until(
      () => stderr.includes('fingerprint'),
      'the firmware showing its key',
      30_000,
      () => stderr,
    );
    expect(stderr).toContain(`fingerprint ${keyFingerprint(publicKey)}`);

    const config = tableConfig(rig.directory, { kind: 'shoe', transport: link.a });
    const paired = await pair(config);
    expect(paired.stdout).toContain(
      `proved a ed25519 key with fingerprint ${keyFingerprint(publicKey)}`,
    );
    expect(JSON.parse(readFileSync(config, 'utf8')).devices.shoe.key).toBe(
      formatPublicKey(publicKey),
    );

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 90_000);

  it('device pair of transport firmware with keyFile runs the firmware and records its key', async () => {
    const { rig, registry, keyFile, publicKey } = await setUp();
    const config = tableConfig(rig.directory, {
      kind: 'shoe',
      transport: 'firmware',
      board: rig.pty.a,
      registry,
      keyFile,
    });
    const paired = await pair(config);
    expect(paired.stdout).toContain(`fingerprint ${keyFingerprint(publicKey)}`);
    expect(JSON.parse(readFileSync(config, 'utf8')).devices.shoe.key).toBe(
      formatPublicKey(publicKey),
    );
  }, 90_000);
});
