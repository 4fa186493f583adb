/**
 * A roulette wheel on a real pty, the real daemon (`tableside run`) and a
 * real mosquitto: eleven games with one fault each in some of them, then
 * closing time requested over MQTT and counted down to a closed table.
 * Every spin reaches the consumer on `events/spin` in order, each fault
 * raises exactly its alarm with the article, the impossible number the
 * reader misread is refused without losing the game, and the journal
 * replays to the same events.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatPublicKey } from '../../device-protocol/auth/keys.ts';
import { getRouletteRuleset } from '../../firmware-host/games/rulesets.ts';
import { readJournalRecords } from '../../firmware-host/journal/journal.ts';
import { deviceKey, generatedSigner } from '../../hardware/keys/device-key.ts';
import { SerialTransport } from '../../hardware/transports/serial.ts';
import { SimulatedWheel } from '../../simulators/wheel.ts';
import type { WheelGame } from '../../simulators/wheel-plan.ts';
import { startTestBroker, type TestBroker } from '../helpers/broker.ts';
import { PtyPair } from '../integration/hardware/pty-pair.ts';
import { Consumer } from './helpers/consumer.ts';
import { type CliProcess, startDaemon, tempDir, writeConfig } from './helpers/daemon.ts';
import { skipReason, socatMissing, until } from './helpers/environment.ts';

const missing = skipReason(socatMissing());
const RULESET = 'bulgaria-roulette';
const TABLE = 'e2e-wheel';

/** The alarm each game's fault must raise (game number → alarm kind); others none. */
const FAULTS: Record<number, { fault: string; alarm: string }> = {
  3: { fault: 'same-direction', alarm: 'rotor_same_direction' },
  4: { fault: 'ball-with-rotor', alarm: 'ball_with_rotor' },
  5: { fault: 'few-revolutions', alarm: 'few_revolutions' },
  6: { fault: 'chip', alarm: 'no_spin' },
  7: { fault: 'dropped-ball', alarm: 'result_without_spin' },
  8: { fault: 'misread', alarm: 'device_fault' },
  9: { fault: 'no-close', alarm: 'spin_without_close' },
  10: { fault: 'noise', alarm: '' },
};
const GAMES = 11;

describe.skipIf(missing !== undefined)(
  'a roulette wheel spun through the daemon publishes every spin and alarms each fault once',
  () => {
    let dir: string | undefined;
    let broker: TestBroker | undefined;
    let pty: PtyPair | undefined;
    let consumer: Consumer | undefined;
    let daemon: CliProcess | undefined;
    let wheel: SimulatedWheel | undefined;
    afterEach(async () => {
      await wheel?.stop().catch(() => undefined);
      await daemon?.kill('SIGKILL');
      await consumer?.close();
      await pty?.stop();
      await broker?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('publishes the spins in order with their alarms, closes after three games, and journals it all', async () => {
      dir = tempDir('wheel');
      broker = await startTestBroker();
      pty = new PtyPair(dir);
      await pty.start();
      const journalDir = join(dir, 'journal');
      // Paired, as on a live table: the wheel proves its own key.
      const key = await deviceKey(generatedSigner('ed25519'));
      const config = writeConfig(dir, {
        table: TABLE,
        ruleset: RULESET,
        devices: {
          wheel: { kind: 'wheel', transport: pty.a, key: formatPublicKey(key.publicKey) },
        },
        mqtt: { url: broker.url, baseTopic: 'tableside', keepalive: 5 },
        journal: { dir: journalDir },
      });
      const c = await Consumer.connect({ url: broker.url, root: `tableside/${TABLE}` });
      consumer = c;
      const d = startDaemon(config);
      daemon = d;
      // `online` is retained before `bridge/info`, in its own packet: wait for both.
      await until(
        () => c.value('bridge/state') === 'online' && c.value('bridge/info') !== undefined,
        'the daemon online and its bridge/info',
        30_000,
        () => d.describe(),
      );
      expect(JSON.parse(c.value('bridge/info') ?? '{}')).toMatchObject({
        game: 'roulette',
        ruleset: RULESET,
        devices: { wheel: { kind: 'wheel' } },
        requests: expect.arrayContaining(['no_more_bets', 'closing']),
      });

      const w = new SimulatedWheel({
        transport: new SerialTransport({ path: pty.b, baudRate: 115_200 }),
        seed: 5,
        key,
        minRevolutions: getRouletteRuleset(RULESET).spin.minBallRevolutions.value,
        faults: Object.entries(FAULTS).map(([game, { fault }]) => `${fault}=${game}`),
      });
      wheel = w;
      w.start();
      await until(
        () => c.value('devices/wheel/availability') === 'online',
        'the wheel online',
        20_000,
        () => d.describe(),
      );

      const games: WheelGame[] = [];
      for (let game = 1; game <= GAMES; game++) {
        games.push(await w.playGame());
        await w.whenSettled();
        // Each game ends in a new game on the table: one game_start per game played.
        await until(
          () => c.ofType('game_start').length >= game,
          `game ${game} done`,
          20_000,
          () => d.describe(),
        );
      }

      // Closing time over MQTT: three last games, counted down, then the table closes.
      const response = await c.request('closing', { transaction: 'close-1' });
      expect(response).toMatchObject({ transaction: 'close-1', status: 'ok' });
      for (let more = 1; more <= 3; more++) {
        games.push(await w.playGame());
        await w.whenSettled();
      }
      await until(
        () => c.ofType('table_closed').length === 1,
        'the table closed',
        20_000,
        () => d.describe(),
      );

      expect(c.malformed).toEqual([]);
      const trace = () =>
        c.events
          .map((e) => `${e.seq} ${e.type} ${String(e.kind ?? '')} ${String(e.game ?? '')}`)
          .join('\n');
      expect(c.outOfOrder, trace()).toEqual([]);
      // Every spin that counted, in order, on events/spin, with its colour.
      const spins = c.ofType('spin');
      const counted = games.filter(
        (game) => !['chip', 'dropped-ball'].some((f) => game.faults.includes(f as never)),
      );
      expect(spins.map((spin) => spin.number)).toEqual(counted.map((game) => game.number));
      for (const spin of spins) {
        expect(spin.topic).toBe('spin');
        expect(['red', 'black', 'green']).toContain(spin.colour);
      }
      // Each fault raised exactly its alarm, in its own game, citing a rule; legal games none.
      const alarms = c.ofType('alarm');
      for (let game = 1; game <= GAMES + 3; game++) {
        const expected = FAULTS[game]?.alarm;
        const raised = alarms.filter((alarm) =>
          alarm.kind === 'device_fault' ? game === 8 : alarm.game === game,
        );
        expect(
          raised.map((alarm) => alarm.kind),
          `game ${game}\n${trace()}\n${d.describe()}`,
        ).toEqual(expected ? [expected] : []);
        if (expected && expected !== 'device_fault') expect(raised[0]!.rule).toMatch(/§|practice/);
      }
      expect(alarms.find((alarm) => alarm.kind === 'device_fault')?.message).toMatch(
        /RESULT.*37.*0-36/,
      );
      // The two voided games were replaced by new ones (003 § 11(5)).
      expect(c.ofType('game_voided').map((event) => event.game)).toEqual([6, 7]);
      expect(c.ofType('games_left').map((event) => event.left)).toEqual([2, 1]);
      // The retained state: the last numbers and the closed table.
      const state = JSON.parse(c.value('state') ?? '{}');
      expect(state.roulette).toMatchObject({ closed: true, spins: counted.length, voided: 2 });
      expect(state.roulette.lastNumbers.slice(0, 3)).toEqual(
        counted
          .slice(-3)
          .map((game) => game.number)
          .reverse(),
      );

      // The journal holds the spin records the driver put together; nothing was lost.
      await daemon.kill('SIGTERM');
      daemon = undefined;
      const inputs: Array<Record<string, unknown>> = [];
      for await (const record of readJournalRecords(journalDir)) {
        if (record.kind === 'input') inputs.push(record.data as Record<string, unknown>);
      }
      expect(inputs.filter((input) => input.t === 'spin').map((input) => input.number)).toEqual(
        games.filter((game) => !game.faults.includes('chip')).map((game) => game.number),
      );
      expect(inputs.filter((input) => input.t === 'no_spin')).toHaveLength(1);
      expect(inputs.filter((input) => input.t === 'closing')).toHaveLength(1);
    }, 120_000);
  },
);
