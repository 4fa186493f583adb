import { afterEach, describe, expect, it } from 'vitest';
import { DeviceDriver, type Observation } from '../../../firmware-host/drivers/driver.ts';
import type { DomainEvent } from '../../../firmware-host/table/events.ts';
import { SerialTransport } from '../../../hardware/transports/serial.ts';
import { runCli, runCliSync } from '../../helpers/cli.ts';
import { PtyPair, socatMissing } from './pty.ts';

const missing = socatMissing();
if (missing) console.warn(`skipped: ${missing}`);

describe.skipIf(missing !== undefined)(
  'tableside sim wheel as a child process spins its games to a wheel driver over a pty pair',
  () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    it('the driver receives each game as records, the chip as a no-spin and the misread refused with an alarm', async () => {
      const pair = new PtyPair();
      await pair.start();
      cleanups.push(() => pair.kill());
      const driver = new DeviceDriver({
        name: 'wheel',
        kind: 'wheel',
        transport: new SerialTransport({ path: pair.a, baudRate: 115_200 }),
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
        '21',
        '--games',
        '5',
        '--pace',
        '5',
        '--betting',
        '5',
        '--fault',
        'chip=2',
        '--fault',
        'misread=4',
        '--fault',
        'corrupt-bytes=0.2',
      ]);
      const result = await sim.done;
      expect(result.code, result.stderr).toBe(0);
      const summary = JSON.parse(result.stdout.trim()) as {
        games: Array<{ game: number; number: number | null; rotor: string; faults: string[] }>;
      };
      expect(summary.games).toHaveLength(5);

      const records = observations.map((observation) => observation.record);
      const spins = records.filter((record) => record.t === 'spin');
      expect(spins.map((spin) => (spin as { number: number }).number)).toEqual(
        summary.games.filter((game) => game.number !== null).map((game) => game.number),
      );
      for (const spin of spins)
        expect(spin).toMatchObject({ rotor: expect.any(String), ball: expect.any(String) });
      expect(records.filter((record) => record.t === 'no_spin')).toEqual([
        expect.objectContaining({ reason: 'foreign_object', rotor: summary.games[1]!.rotor }),
      ]);
      expect(records.filter((record) => record.t === 'no_more_bets')).toHaveLength(5);
      expect(alarms).toEqual([
        expect.objectContaining({
          kind: 'device_fault',
          fault: 'invalid_message',
          frame: 'RESULT',
        }),
      ]);
    });

    it('refuses an unknown wheel fault naming the ones there are, and lists them', () => {
      const bad = runCliSync([
        'sim',
        'wheel',
        '--link',
        'tcp://127.0.0.1:1',
        '--fault',
        'wobble=2',
      ]);
      expect(bad.status).toBe(2);
      expect(bad.stderr).toMatch(/unknown wheel fault "wobble".*same-direction.*chip/);
      const list = runCliSync(['sim', 'wheel', '--list-faults']);
      expect(list.status).toBe(0);
      for (const name of [
        'same-direction=G',
        'ball-with-rotor=G',
        'few-revolutions=G',
        'chip=G',
        'dropped-ball=G',
        'misread=G',
        'no-close=G',
        'noise=G',
      ]) {
        expect(list.stdout).toContain(name);
      }
    });
  },
);
