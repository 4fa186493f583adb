/**
 * `tableside sim wheel --key FILE` as a child process: the wheel shows its
 * key's fingerprint (what a technician compares when pairing), proves that
 * key to a wheel driver paired with it over a real pty pair, and every game
 * arrives authenticated, with no alarm.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keyFingerprint } from '../../../device-protocol/auth/keys.ts';
import { DeviceDriver, type Observation } from '../../../firmware-host/drivers/driver.ts';
import type { DomainEvent } from '../../../firmware-host/table/events.ts';
import { createKeyFile } from '../../../hardware/keys/device-key.ts';
import { SerialTransport } from '../../../hardware/transports/serial.ts';
import { runCli } from '../../helpers/cli.ts';
import { PtyPair, socatMissing } from './pty.ts';

const missing = socatMissing();
if (missing) console.warn(`skipped: ${missing}`);

describe.skipIf(missing !== undefined)(
  'tableside sim wheel with a key file proves it to a paired wheel driver over a pty pair',
  () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    it('every game arrives over an authenticated line, with no alarm', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'tableside-sim-wheel-key-'));
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      const keyFile = join(dir, 'wheel.key');
      const publicKey = await (await createKeyFile(keyFile, 'ed25519')).publicKey();
      const pair = new PtyPair();
      await pair.start();
      cleanups.push(() => pair.kill());
      const driver = new DeviceDriver({
        name: 'wheel',
        kind: 'wheel',
        transport: new SerialTransport({ path: pair.a, baudRate: 115_200 }),
        pairedKey: publicKey,
        timing: { heartbeatMs: 200, offlineAfterMs: 1_000 },
      });
      cleanups.push(() => driver.stop());
      const observations: Observation[] = [];
      const alarms: DomainEvent[] = [];
      driver.on('record', (observation) => {
        observations.push(observation);
        observation.ack();
      });
      driver.on('alarm', (alarm) => alarms.push(alarm));
      driver.start();
      const sim = runCli([
        'sim',
        'wheel',
        '--link',
        pair.b,
        '--seed',
        '31',
        '--games',
        '3',
        '--pace',
        '5',
        '--betting',
        '5',
        '--key',
        keyFile,
      ]);
      const result = await sim.done;
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain(`device key fingerprint ${keyFingerprint(publicKey)}`);
      const summary = JSON.parse(result.stdout.trim()) as {
        games: Array<{ number: number | null }>;
      };
      expect(summary.games).toHaveLength(3);
      const spins = observations.flatMap((o) => (o.record.t === 'spin' ? [o.record] : []));
      expect(spins.map((spin) => spin.number)).toEqual(summary.games.map((game) => game.number));
      expect(alarms).toEqual([]);
      expect(driver.status().auth).toMatchObject({
        pairing: 'paired',
        state: 'authenticated',
        deviceFingerprint: keyFingerprint(publicKey),
        refused: {},
      });
    });
  },
);
