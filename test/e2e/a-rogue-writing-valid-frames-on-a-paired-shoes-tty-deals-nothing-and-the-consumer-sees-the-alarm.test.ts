/**
 * A paired shoe (protocol 1.4) deals a shoe through the real daemon over a
 * socat pty to a real mosquitto while a rogue, tapped into the same cable,
 * writes perfectly framed CARD frames with valid CRCs but no key. Not one
 * rogue card is dealt or published; the consumer sees the shoe's cards, in
 * order, and `device_unauthenticated` alarms; the device status shows the
 * shoe authenticated with its key's fingerprint, and no key reaches MQTT.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { keyFingerprint } from '../../device-protocol/auth/keys.ts';
import { encodeFrame } from '../../device-protocol/frame.ts';
import { deviceKey, generatedSigner } from '../../hardware/keys/device-key.ts';
import { skipReason, socatMissing, until } from './helpers/environment.ts';
import { E2eTable, publishedCards } from './helpers/table.ts';

const missing = skipReason(socatMissing());
const CARDS = 60;

describe.skipIf(missing !== undefined)(
  "a rogue writing valid frames on a paired shoe's tty deals nothing",
  () => {
    let table: E2eTable | undefined;
    let rogue: NodeJS.Timeout | undefined;
    afterEach(async () => {
      clearInterval(rogue);
      await table?.close();
      table = undefined;
    });

    it('publishes only the shoe’s cards and raises the alarm on MQTT', async () => {
      const key = await deviceKey(generatedSigner('ed25519'));
      table = await E2eTable.create('rogue', { shoeKey: key });
      const t = table;
      await t.startDaemon();
      const shoe = t.startShoe({
        seed: 41,
        rate: 40,
        steps: `  - shuffle\n  - lid: closed\n  - deal: ${CARDS}\n`,
      });
      await shoe.whenReady();
      await until(() => t.consumer.ofType('shoe_start').length === 1, 'the shoe to start');
      expect(shoe.authenticated).toBe(true);

      // The tap: aces of spades face up, right grammar, right CRC, seqs near the shoe's own.
      let injected = 0;
      rogue = setInterval(() => {
        if (!shoe.link.isOpen) return;
        injected++;
        const line = encodeFrame({
          talker: 'SH',
          seq: 200 + injected,
          type: 'CARD',
          fields: ['AS', 'red', 'up'],
        });
        shoe.link.write(Buffer.from(line, 'latin1')).catch(() => undefined);
      }, 45);
      await shoe.whenDone();
      clearInterval(rogue);

      const dealt = t.dealtCards();
      expect(dealt).toHaveLength(CARDS);
      await until(
        () => t.consumer.ofType('card').length >= CARDS,
        `${CARDS} card events`,
        30_000,
        () => t.describe(),
      );
      const cards = publishedCards(t.consumer);
      expect(cards).toHaveLength(CARDS);
      cards.forEach((published, position) => {
        if (!published.hidden) expect(published.card).toBe(dealt[position]!.card);
      });
      expect(t.consumer.outOfOrder).toEqual([]);

      expect(injected).toBeGreaterThan(10);
      const alarms = t.consumer.ofType('alarm');
      expect(alarms.length).toBeGreaterThan(0);
      for (const alarm of alarms) {
        expect(alarm).toMatchObject({
          kind: 'device_unauthenticated',
          device: 'shoe',
          reason: 'missing_mac',
        });
      }

      const health = await t.consumer.request('health_check', { transaction: 'after-rogue' });
      const device = (health.data as { devices: Array<Record<string, unknown>> }).devices[0]!;
      expect(device.quarantined).toBeUndefined();
      expect(device.auth).toMatchObject({
        pairing: 'paired',
        state: 'authenticated',
        deviceFingerprint: keyFingerprint(key.publicKey),
      });
      expect((device.auth as { refused: Record<string, number> }).refused.missing_mac).toBe(
        injected,
      );
      const everything = t.consumer.messages.map((m) => m.payload).join('\n');
      expect(everything).not.toContain(Buffer.from(key.publicKey.raw).toString('base64url'));
    });
  },
);
