/**
 * A rogue shoe copies the genuine shoe's model and firmware hash into its
 * HELLO, which is all the firmware allow-list can check on an unpaired line.
 * Over a real socat pty to the real daemon and a real mosquitto:
 *
 * - on a live table (the shoe's key not in the config, no bench setting)
 *   none of its cards is journaled or published, whether it announces 1.0
 *   or 1.5 with `PROOF,none`; a `device_unpaired` alarm names the device and
 *   the setting, the device shows `quarantined` on its availability topic
 *   and on bridge/info;
 * - on a bench (`devices.shoe.unpaired: allow`) its cards are dealt, and
 *   the alarm is raised again at each connect.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '../../device-protocol/messages.ts';
import { skipReason, socatMissing, until } from './helpers/environment.ts';
import { E2eTable, publishedCards } from './helpers/table.ts';

const missing = skipReason(socatMissing());
const MODEL = 'SHOE-8';
const GENUINE_SHA256 = '3f1c5e0f9b2a4d6c8e7f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f';
const CARDS = 12;
const STEPS = `  - shuffle\n  - lid: closed\n  - deal: ${CARDS}\n`;

describe.skipIf(missing !== undefined)(
  "an unpaired rogue copying the shoe's model and firmware hash",
  () => {
    let table: E2eTable | undefined;
    afterEach(async () => {
      await table?.close();
      table = undefined;
    });

    it.each(['1.0', PROTOCOL_VERSION])(
      'announcing %s: is refused on a live table, deals nothing and is shown quarantined',
      async (protocolVersion) => {
        table = await E2eTable.create('unpaired-rogue', {
          pairing: 'unpaired',
          shoe: { model: MODEL, firmware: [GENUINE_SHA256] },
        });
        const t = table;
        await t.startDaemon();
        const rogue = t.startShoe({
          seed: 7,
          rate: 50,
          steps: STEPS,
          identity: { model: MODEL, firmwareSha256: GENUINE_SHA256, protocolVersion },
        });
        // Every frame it sent was answered (refused cards are ACKed and dropped).
        await rogue.whenDone();
        expect(t.dealtCards()).toHaveLength(CARDS);
        await until(
          () => t.consumer.ofType('alarm').some((alarm) => alarm.kind === 'device_unpaired'),
          'the device_unpaired alarm',
          30_000,
          () => t.describe(),
        );
        await until(
          () => t.consumer.value('devices/shoe/availability') === 'quarantined',
          'the shoe shown quarantined',
          30_000,
          () => `${t.consumer.value('devices/shoe/availability')}\n${t.describe()}`,
        );

        const alarm = t.consumer.ofType('alarm').find((a) => a.kind === 'device_unpaired')!;
        expect(alarm).toMatchObject({
          device: 'shoe',
          dealt: false,
          setting: 'devices.shoe.unpaired: allow',
          model: MODEL,
          protocol: protocolVersion,
        });
        expect(String(alarm.message)).toContain('tableside device pair shoe');
        expect(String(alarm.message)).toContain('devices.shoe.unpaired: allow');

        const info = JSON.parse(t.consumer.value('bridge/info')!) as {
          devices: Record<string, { pairing: string; quarantined: string | null }>;
        };
        expect(info.devices.shoe!.pairing).toBe('unpaired_refused');
        expect(info.devices.shoe!.quarantined).toMatch(/^unpaired: /);

        // Nothing of the rogue's reached the journal or the broker.
        const health = await t.consumer.request('health_check', { transaction: 'after-rogue' });
        const device = (health.data as { devices: Array<Record<string, unknown>> }).devices[0]!;
        expect((device.counters as { cardsRefused: number }).cardsRefused).toBe(CARDS);
        expect(publishedCards(t.consumer)).toEqual([]);
        // Nor did its lid start a shoe.
        expect(t.consumer.ofType('shoe_start')).toEqual([]);
        const journaled = (await t.journal()).filter(
          (record) =>
            (record.kind === 'input' && record.data.t === 'card') ||
            (record.kind === 'event' && record.data.type === 'card'),
        );
        expect(journaled).toEqual([]);
      },
    );

    it('on a bench that allows it, deals its cards with an alarm at each connect', async () => {
      table = await E2eTable.create('unpaired-bench', {
        pairing: 'bench',
        shoe: { model: MODEL, firmware: [GENUINE_SHA256] },
      });
      const t = table;
      await t.startDaemon();
      const identity = { model: MODEL, firmwareSha256: GENUINE_SHA256, protocolVersion: '1.0' };
      // 10 cards a second: the next connect comes more than the alarm's 1 s limit later.
      const first = t.startShoe({ seed: 8, rate: 10, steps: STEPS, identity });
      await first.whenDone();
      await until(
        () => t.consumer.ofType('card').length >= CARDS,
        `${CARDS} card events`,
        30_000,
        () => t.describe(),
      );
      expect(t.consumer.value('devices/shoe/availability')).toBe('online');
      const info = JSON.parse(t.consumer.value('bridge/info')!) as {
        devices: Record<string, { pairing: string; quarantined: string | null }>;
      };
      expect(info.devices.shoe).toMatchObject({ pairing: 'unpaired', quarantined: null });

      // The same device again on a new connection: the alarm again.
      await first.stop();
      const second = t.startShoe({ seed: 9, rate: 50, steps: '  - deal: 2\n', identity });
      await second.whenDone();
      await until(
        () => t.consumer.ofType('alarm').filter((a) => a.kind === 'device_unpaired').length >= 2,
        'a device_unpaired alarm at each connect',
        30_000,
        () => t.describe(),
      );
      const alarms = t.consumer.ofType('alarm');
      expect(alarms.map((alarm) => alarm.kind)).toEqual(['device_unpaired', 'device_unpaired']);
      for (const alarm of alarms) {
        expect(alarm).toMatchObject({
          device: 'shoe',
          dealt: true,
          setting: 'devices.shoe.unpaired: allow',
        });
      }
    });
  },
);
