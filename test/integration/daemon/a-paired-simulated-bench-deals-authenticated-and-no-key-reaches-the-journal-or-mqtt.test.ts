/**
 * A bench run paired (protocol 1.4): the config names the shoe's public key
 * and the simulated shoe's key file; the table deals rounds with every
 * frame authenticated and no alarm, and neither key appears in the journal
 * or on the broker (only fingerprints do). A key file the config names but
 * that is missing stops the table at start, saying which.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { formatPublicKey, keyFingerprint } from '../../../device-protocol/auth/keys.ts';
import { resolveConfig } from '../../../firmware-host/config/loader.ts';
import { TableDaemon } from '../../../firmware-host/daemon/table-daemon.ts';
import type { JournalRecord } from '../../../firmware-host/journal/record.ts';
import { createKeyFile } from '../../../hardware/keys/device-key.ts';
import { freePort } from '../../helpers/ports.ts';
import { until } from '../../helpers/until.ts';

const cleanup: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tableside-paired-bench-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function benchConfig(dir: string, port: number, shoe: Record<string, unknown>) {
  return resolveConfig(
    {
      table: 'paired',
      ruleset: 'tdc-baccarat-no-commission',
      devices: { shoe: { kind: 'shoe', transport: 'simulate', ...shoe } },
      mqtt: { url: 'embedded', port },
      journal: { dir: join(dir, 'journal'), rotateDaily: false },
      simulation: { cardIntervalMs: 0, roundIntervalMs: 0, seed: 77 },
    },
    { env: {} },
  ).config;
}

describe('a paired simulated bench', () => {
  it('deals rounds with every frame authenticated, and no key reaches the journal or MQTT', async () => {
    const dir = await tempDir();
    const keyFile = join(dir, 'shoe.key');
    const signer = await createKeyFile(keyFile, 'ed25519');
    const publicKey = await signer.publicKey();
    const port = await freePort();
    const config = benchConfig(dir, port, { keyFile, key: formatPublicKey(publicKey) });
    const daemon = new TableDaemon({ config });
    const journaled: JournalRecord[] = [];
    daemon.on('journaled', (records) => journaled.push(...records));
    await daemon.start();
    let stopped = false;
    const stop = async () => {
      if (!stopped) await daemon.stop();
      stopped = true;
    };
    cleanup.push(stop);
    const payloads: string[] = [];
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 0 });
    cleanup.push(() => client.endAsync());
    client.on('message', (topic, payload) => payloads.push(`${topic} ${payload.toString('utf8')}`));
    await client.subscribeAsync('#', { qos: 1 });

    const results = () =>
      journaled.filter((r) => r.kind === 'event' && (r.data as { type: string }).type === 'result');
    await until(() => results().length >= 2, 'two results journaled');
    const status = daemon.deviceStatus()[0]!;
    await stop();

    expect(results().length).toBeGreaterThanOrEqual(2);
    const alarms = journaled.filter(
      (r) => r.kind === 'event' && (r.data as { type: string }).type === 'alarm',
    );
    expect(alarms).toEqual([]);
    expect(status.auth).toMatchObject({
      pairing: 'paired',
      state: 'authenticated',
      deviceFingerprint: keyFingerprint(publicKey),
    });
    expect(status.auth.refused).toEqual({});

    const pem = await readFile(keyFile, 'utf8');
    const privateBody = pem.split('\n').slice(1, -2).join('');
    const secrets = [privateBody, Buffer.from(publicKey.raw).toString('base64url'), 'PRIVATE KEY'];
    const journalText = (
      await Promise.all(
        (
          await readdir(join(dir, 'journal'))
        ).map((name) => readFile(join(dir, 'journal', name), 'utf8')),
      )
    ).join('\n');
    expect(journalText.length).toBeGreaterThan(0);
    expect(payloads.length).toBeGreaterThan(0);
    for (const secret of secrets) {
      expect(journalText).not.toContain(secret);
      expect(payloads.join('\n')).not.toContain(secret);
    }
  }, 40_000);

  it('does not start when a key file the config names is missing, and says which', async () => {
    const dir = await tempDir();
    const missing = join(dir, 'nowhere.key');
    const daemon = new TableDaemon({
      config: benchConfig(dir, await freePort(), { keyFile: missing }),
    });
    cleanup.push(() => daemon.stop());
    await expect(daemon.start()).rejects.toThrow(
      `device shoe: device key file ${missing} does not exist; the config asks for it, so the table does not start without it`,
    );
  });
});
