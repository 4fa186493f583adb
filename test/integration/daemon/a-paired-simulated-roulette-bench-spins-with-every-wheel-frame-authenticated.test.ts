/**
 * A roulette bench run paired (protocol 1.4 within the wheel's 1.5): the
 * config names the simulated wheel's key file and its public key; the
 * simulated croupier spins through a wheel that proves that key, so the
 * wheel's line is authenticated, its spins are journaled and nothing is
 * alarmed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatPublicKey, keyFingerprint } from '../../../device-protocol/auth/keys.ts';
import { resolveConfig } from '../../../firmware-host/config/loader.ts';
import { TableDaemon } from '../../../firmware-host/daemon/table-daemon.ts';
import type { JournalRecord } from '../../../firmware-host/journal/record.ts';
import type { DomainEvent } from '../../../firmware-host/table/events.ts';
import { createKeyFile } from '../../../hardware/keys/device-key.ts';
import { freePort } from '../../helpers/ports.ts';
import { until } from '../../helpers/until.ts';

const cleanup: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe('a paired simulated roulette bench', () => {
  it('spins with the wheel authenticated and raises no alarm', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tableside-paired-roulette-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const keyFile = join(dir, 'wheel.key');
    const publicKey = await (await createKeyFile(keyFile, 'ed25519')).publicKey();
    const { config } = resolveConfig(
      {
        table: 'paired-roulette',
        ruleset: 'tdc-roulette',
        devices: {
          wheel: {
            kind: 'wheel',
            transport: 'simulate',
            keyFile,
            key: formatPublicKey(publicKey),
          },
        },
        mqtt: { url: 'embedded', port: await freePort() },
        journal: { dir: join(dir, 'journal'), rotateDaily: false },
        simulation: { cardIntervalMs: 5, roundIntervalMs: 10, seed: 5 },
      },
      { env: {} },
    );
    const daemon = new TableDaemon({ config });
    const events: DomainEvent[] = [];
    daemon.on('journaled', (records: readonly JournalRecord[]) => {
      for (const record of records) if (record.kind === 'event') events.push(record.data);
    });
    await daemon.start();
    let stopped = false;
    const stop = async () => {
      if (!stopped) await daemon.stop();
      stopped = true;
    };
    cleanup.push(stop);
    const spins = () => events.filter((event) => event.type === 'spin').length;
    await until(() => spins() >= 3, 'three spins');
    const status = daemon.deviceStatus()[0]!;
    await stop();

    expect(spins()).toBeGreaterThanOrEqual(3);
    expect(events.filter((event) => event.type === 'alarm')).toEqual([]);
    expect(status.auth).toMatchObject({
      pairing: 'paired',
      state: 'authenticated',
      deviceFingerprint: keyFingerprint(publicKey),
      refused: {},
    });
  }, 40_000);
});
