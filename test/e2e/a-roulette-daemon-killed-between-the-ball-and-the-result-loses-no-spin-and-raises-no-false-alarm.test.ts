/**
 * The daemon is killed (kill -9) after the wheel's ROTOR and BALL were
 * ACKed and before its RESULT: the rotor and the ball were journaled before
 * their ACK, so the restarted daemon still knows the spin under way, and the
 * result the wheel sends again completes it: no spin lost, none doubled, no
 * "result with no spin" alarm, the game numbers continuous.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatPublicKey } from '../../device-protocol/auth/keys.ts';
import { readJournalRecords } from '../../firmware-host/journal/journal.ts';
import { deviceKey, generatedSigner } from '../../hardware/keys/device-key.ts';
import { SerialTransport } from '../../hardware/transports/serial.ts';
import { SimulatedWheel } from '../../simulators/wheel.ts';
import { startTestBroker, type TestBroker } from '../helpers/broker.ts';
import { PtyPair } from '../integration/hardware/pty-pair.ts';
import { Consumer } from './helpers/consumer.ts';
import { type CliProcess, startDaemon, tempDir, writeConfig } from './helpers/daemon.ts';
import { skipReason, socatMissing, until } from './helpers/environment.ts';

const missing = skipReason(socatMissing());
const TABLE = 'e2e-wheel-kill';

describe.skipIf(missing !== undefined)(
  'a roulette daemon killed between the ball and the result loses no spin and raises no false alarm',
  () => {
    let dir: string | undefined;
    let broker: TestBroker | undefined;
    let pty: PtyPair | undefined;
    let consumer: Consumer | undefined;
    const daemons: CliProcess[] = [];
    let wheel: SimulatedWheel | undefined;
    afterEach(async () => {
      await wheel?.stop().catch(() => undefined);
      for (const daemon of daemons.splice(0)) await daemon.kill('SIGKILL');
      await consumer?.close();
      await pty?.stop();
      await broker?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('completes the spin under way after the restart with the rotor and ball it journaled', async () => {
      dir = tempDir('wheel-kill');
      broker = await startTestBroker();
      pty = new PtyPair(dir);
      await pty.start();
      const journalDir = join(dir, 'journal');
      // Paired, as on a live table: the wheel proves its own key.
      const key = await deviceKey(generatedSigner('ed25519'));
      const config = writeConfig(dir, {
        table: TABLE,
        ruleset: 'tdc-roulette',
        devices: {
          wheel: { kind: 'wheel', transport: pty.a, key: formatPublicKey(key.publicKey) },
        },
        mqtt: { url: broker.url, baseTopic: 'tableside', keepalive: 5 },
        journal: { dir: journalDir },
      });
      const c = await Consumer.connect({ url: broker.url, root: `tableside/${TABLE}` });
      consumer = c;
      const describeAll = () => daemons.map((d) => d.describe()).join('\n=== next run ===\n');
      const first = startDaemon(config);
      daemons.push(first);
      await until(() => c.value('bridge/state') === 'online', 'online', 30_000, describeAll);

      const w = new SimulatedWheel({
        transport: new SerialTransport({ path: pty.b, baudRate: 115_200 }),
        seed: 12,
        key,
        reconnect: { initialDelayMs: 50, maxDelayMs: 300 },
      });
      wheel = w;
      w.start();
      await w.playGame();
      await w.whenSettled();
      await until(() => c.ofType('spin').length === 1, 'the first spin', 20_000, describeAll);

      // Game 2, slowly: ROTOR, then BALL, then (after the kill) NOMOREBETS and RESULT.
      const wrote: string[] = [];
      w.on('wrote', (line) => wrote.push(line));
      const second = w.playGame(2_500);
      await until(
        () => wrote.some((line) => line.includes(',BALL,')) && w.pending.inFlight === 0,
        'the rotor and the ball ACKed',
        20_000,
        describeAll,
      );
      expect(wrote.some((line) => line.includes(',RESULT,'))).toBe(false);
      await first.kill('SIGKILL');

      const restarted = startDaemon(config);
      daemons.push(restarted);
      const game2 = await second;
      await w.whenSettled();
      await until(() => c.ofType('spin').length === 2, 'the second spin', 30_000, describeAll);
      await w.playGame();
      await w.whenSettled();
      await until(() => c.ofType('spin').length === 3, 'the third spin', 20_000, describeAll);

      const spins = c.ofType('spin');
      expect(spins.map((spin) => spin.number)).toEqual(w.played.map((game) => game.number));
      expect(spins[1]).toMatchObject({ game: 2, number: game2.number, rotor: game2.rotor });
      expect(spins.map((spin) => spin.game)).toEqual([1, 2, 3]);
      expect(c.ofType('alarm'), describeAll()).toEqual([]);

      await restarted.kill('SIGTERM');
      const parts: unknown[] = [];
      const inputs: Array<Record<string, unknown>> = [];
      for await (const record of readJournalRecords(journalDir)) {
        if (record.kind === 'meta' && record.data.type === 'spin_part') parts.push(record.data);
        if (record.kind === 'input') inputs.push(record.data as Record<string, unknown>);
      }
      expect(parts.length).toBeGreaterThanOrEqual(6);
      expect(inputs.filter((input) => input.t === 'spin')).toHaveLength(3);
    }, 120_000);
  },
);
