/**
 * Issue 24 item 6: a paired shoe stuck for good stayed `online` and nothing
 * was logged. Here a paired 1.4 shoe deals through the real daemon over a
 * socat pty to a real mosquitto; then every ACK the host sends it is lost on
 * its way, so it keeps sending the same cards and nothing new is taken. With
 * `stalledAfterMs: 2000` the consumer sees one `link_stalled` alarm, naming
 * the shoe, what it kept sending and its authentication, however long the
 * stall lasts; once the ACKs get through again and the dealer deals on, one
 * `link_resumed`, and every card dealt, in order.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { deviceKey, generatedSigner } from '../../hardware/keys/device-key.ts';
import { skipReason, socatMissing, until } from './helpers/environment.ts';
import { E2eTable, publishedCards } from './helpers/table.ts';

const missing = skipReason(socatMissing());
const STALLED_AFTER_MS = 2_000;

describe.skipIf(missing !== undefined)(
  'a paired shoe that keeps sending with nothing taken',
  () => {
    let table: E2eTable | undefined;
    afterEach(async () => {
      await table?.close();
      table = undefined;
    });

    it('is alarmed link_stalled once on MQTT, and link_resumed when its cards flow again', async () => {
      const key = await deviceKey(generatedSigner('ed25519'));
      table = await E2eTable.create('stalled', {
        shoeKey: key,
        shoe: { stalledAfterMs: STALLED_AFTER_MS },
      });
      const t = table;
      await t.startDaemon();
      // Stepped by the test: no card unless it deals one.
      const shoe = t.startShoe({ seed: 43, rate: 0 });
      let cardsWritten = 0;
      shoe.on('wrote', (line) => {
        if (line.includes(',CARD,')) cardsWritten++;
      });
      await shoe.whenReady();
      const alarms = (kind: string) => t.consumer.ofType('alarm').filter((a) => a.kind === kind);

      await shoe.stepMany(3);
      await until(
        () => t.consumer.ofType('card').length >= 3,
        '3 card events',
        30_000,
        () => t.describe(),
      );
      expect(shoe.authenticated).toBe(true);

      // Every ACK from the host is lost now: the shoe sends its next cards and then, for
      // ever, the oldest of them again.
      shoe.behaviours.set('lose-acks', true, '1');
      await shoe.stepMany(2);
      await until(
        () => alarms('link_stalled').length > 0,
        'link_stalled on MQTT',
        30_000,
        () => t.describe(),
      );
      // However long it lasts, once per stall: ten more copies (5 s at the shoe's 500 ms).
      const copiesAtAlarm = cardsWritten;
      await until(() => cardsWritten >= copiesAtAlarm + 10, 'the stall to go on', 30_000);
      expect(alarms('link_stalled')).toHaveLength(1);
      expect(alarms('link_stalled')[0]).toMatchObject({
        device: 'shoe',
        auth: 'authenticated',
        frames: { CARD: expect.any(Number) },
      });
      expect(alarms('link_stalled')[0]!.message).toMatch(
        /^shoe: no progress for \d+ s: it keeps sending \(CARD ×\d+/,
      );
      expect(alarms('link_resumed')).toEqual([]);

      shoe.behaviours.set('lose-acks', false);
      await shoe.stepMany(3);
      await until(
        () => alarms('link_resumed').length > 0 && t.consumer.ofType('card').length >= 8,
        'link_resumed and 8 card events',
        30_000,
        () => t.describe(),
      );
      expect(alarms('link_stalled')).toHaveLength(1);
      expect(alarms('link_resumed')).toHaveLength(1);
      expect(alarms('link_resumed')[0]).toMatchObject({ device: 'shoe' });
      expect(alarms('link_resumed')[0]!.seq).toBeGreaterThan(alarms('link_stalled')[0]!.seq);

      const dealt = t.dealtCards();
      expect(dealt).toHaveLength(8);
      const cards = publishedCards(t.consumer);
      expect(cards).toHaveLength(8);
      cards.forEach((published, position) => {
        if (!published.hidden) expect(published.card).toBe(dealt[position]!.card);
      });
      expect(t.consumer.outOfOrder).toEqual([]);
    });
  },
);
