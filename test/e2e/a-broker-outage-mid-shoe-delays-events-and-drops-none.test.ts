import { afterEach, describe, expect, it } from 'vitest';
import { mosquittoMissing, skipReason, socatMissing, until } from './helpers/environment.ts';
import { E2eTable, publishedCards } from './helpers/table.ts';

const missing = skipReason(socatMissing(), mosquittoMissing());

const OUTAGE_MS = 4_000;
const CARDS = 150;

const RETAINED = ['bridge/state', 'bridge/info', 'state', 'devices/shoe/availability'];

describe.skipIf(missing !== undefined)(
  'a broker outage mid-shoe delays events and drops none',
  () => {
    let table: E2eTable | undefined;
    afterEach(async () => {
      await table?.close();
      table = undefined;
    });

    it('every event arrives in order after mosquitto is stopped and started again, and the retained topics are republished', async () => {
      table = await E2eTable.create('outage', { persistentBroker: true });
      const t = table;
      await t.startDaemon();
      const shoe = t.startShoe({
        seed: 4242,
        rate: 40,
        steps: `  - shuffle\n  - lid: closed\n  - deal: ${CARDS}\n`,
      });
      await until(() => t.consumer.ofType('card').length >= 20, 'the first 20 cards');

      await t.broker.stop();
      const cardsBefore = t.consumer.ofType('card').length;
      // The table keeps dealing: the shoe's cards are journaled and ACKed without a broker.
      const dealtBefore = t.dealt.length;
      await until(
        () => t.dealt.length >= dealtBefore + 40 || shoe.finished,
        'the shoe to deal on while the broker is down',
      );
      // fixed wait: emulated timing: the broker stays down for the outage's length (OUTAGE_MS in all) while the shoe deals on
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, OUTAGE_MS - 1_000)));
      expect(t.consumer.ofType('card').length).toBe(cardsBefore);
      const restartedAt = t.consumer.messages.length;
      await t.broker.start();

      await shoe.whenDone();
      const dealt = t.dealtCards();
      expect(dealt).toHaveLength(CARDS);
      await until(
        () => t.consumer.ofType('card').length >= CARDS,
        `all ${CARDS} card events`,
        30_000,
        () => `${t.consumer.ofType('card').length} card events\n${t.describe()}`,
      );

      const consumer = t.consumer;
      expect(consumer.malformed).toEqual([]);
      expect(consumer.outOfOrder).toEqual([]);
      const cards = publishedCards(consumer);
      expect(cards.map((card) => card.index)).toEqual(dealt.map((_, position) => position));
      cards.forEach((published, position) => {
        if (!published.hidden) expect(published.card).toBe(dealt[position]!.card);
      });
      // Results of the coups dealt during the outage arrived too, with no seq missing.
      const results = consumer.ofType('result').map((event) => event.round as number);
      expect(results).toEqual(results.map((_, position) => position + 1));

      // On reconnecting, the bridge published its retained topics again.
      await until(
        () =>
          RETAINED.every((topic) =>
            consumer.messages.slice(restartedAt).some((m) => m.topic.endsWith(`/${topic}`)),
          ),
        'the retained topics to be published again after the restart',
      );
      expect(consumer.value('bridge/state')).toBe('online');
      expect(consumer.value('devices/shoe/availability')).toBe('online');

      // The journal never depended on the broker.
      const journaledCards = (await t.journal()).filter(
        (record) => record.kind === 'event' && (record.data as { type: string }).type === 'card',
      );
      expect(journaledCards).toHaveLength(CARDS);
    }, 60_000);
  },
);
