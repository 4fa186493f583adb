import { afterEach, describe, expect, it } from 'vitest';
import { Consumer } from './helpers/consumer.ts';
import { skipReason, socatMissing, until } from './helpers/environment.ts';
import { BASE_TOPIC, E2eTable, publishedCards, TABLE } from './helpers/table.ts';

const missing = skipReason(socatMissing());

/** The keys a card event may carry: nothing else may leak into it. */
const CARD_KEYS = [
  'seq',
  'ts',
  'type',
  'card',
  'to',
  'back',
  'face',
  'index',
  'hand',
  'hidden',
  'topic',
];

function hasKey(value: unknown, key: string): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((item) => hasKey(item, key));
  return Object.entries(value).some(([name, item]) => name === key || hasKey(item, key));
}

describe.skipIf(missing !== undefined)(
  'a Punto Banco shoe dealt through reaches the consumer card by card in order',
  () => {
    let table: E2eTable | undefined;
    afterEach(async () => {
      await table?.close();
      table = undefined;
    });

    it('publishes every card, result and shoe event with seq and ts, the retained topics, and no undealt card', async () => {
      table = await E2eTable.create('dealt-through');
      const t = table;
      await t.startDaemon();
      // Retained on connect, before any card: the table is up and so is the bridge.
      await until(
        () => t.consumer.value('devices/shoe/availability') !== undefined,
        'the shoe availability topic',
      );
      expect(t.consumer.value('bridge/state')).toBe('online');
      expect(JSON.parse(t.consumer.value('bridge/info') ?? '{}')).toMatchObject({
        table: TABLE,
        ruleset: 'tdc-baccarat-no-commission',
        game: 'punto-banco',
        devices: { shoe: { kind: 'shoe', simulated: false } },
      });

      // The shoe announces a new shoe by closing its lid, then deals all of it.
      const shoe = t.startShoe({ seed: 11, rate: 200 });
      await until(
        () => t.consumer.value('devices/shoe/availability') === 'online',
        'the shoe online',
      );
      await shoe.whenDone();
      await until(
        () => t.consumer.ofType('shoe_end').length === 1,
        'the shoe_end event',
        20_000,
        () => t.describe(),
      );
      const dealt = t.dealtCards();
      await until(
        () => t.consumer.ofType('card').length >= dealt.length,
        `${dealt.length} card events`,
      );

      const consumer = t.consumer;
      expect(consumer.malformed).toEqual([]);
      expect(consumer.outOfOrder).toEqual([]);
      // Each event with its journal seq (strictly increasing) and a timestamp.
      const seqs = consumer.events.map((event) => event.seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      for (const event of consumer.events) expect(event.ts).toBeGreaterThan(1_600_000_000_000);

      // Every card the shoe dealt, once, in the order it left the shoe.
      const cards = publishedCards(consumer);
      expect(cards).toHaveLength(dealt.length);
      cards.forEach((published, position) => {
        const physical = dealt[position]!;
        expect(published.index).toBe(position);
        if (published.hidden) {
          // A card that stays face down (a burn) is published without its value.
          expect(published.card).toBeNull();
          expect(published.face).toBe('down');
        } else {
          expect(published.card).toBe(physical.card);
        }
      });
      expect(cards.some((card) => card.hidden)).toBe(true);
      for (const event of consumer.ofType('card')) {
        expect(event.topic).toBe('card');
        for (const key of Object.keys(event)) expect(CARD_KEYS).toContain(key);
      }

      // Results on the hand topic, one per coup; the shoe's life on the shoe topic.
      const results = consumer.ofType('result');
      expect(results.length).toBeGreaterThan(50);
      expect(consumer.ofType('round_start')).toHaveLength(results.length);
      for (const event of [...results, ...consumer.ofType('round_start')]) {
        expect(event.topic).toBe('hand');
      }
      for (const type of ['shoe_start', 'last_hand', 'shoe_end']) {
        const events = consumer.ofType(type);
        expect(events, type).toHaveLength(1);
        expect(events[0]!.topic).toBe('shoe');
      }
      expect(consumer.ofType('shoe_start')[0]).toMatchObject({ decks: 8, cards: 416 });
      expect(consumer.ofType('alarm')).toEqual([]);

      // Nothing ever carried the shuffler's order, nor a value of a face-down card.
      for (const message of consumer.messages) {
        let body: unknown;
        try {
          body = JSON.parse(message.payload);
        } catch {
          continue; // online / offline
        }
        expect(hasKey(body, 'order'), message.topic).toBe(false);
      }

      // A consumer arriving now gets the retained topics.
      const late = await Consumer.connect({ url: t.broker.url, root: `${BASE_TOPIC}/${TABLE}` });
      try {
        await until(
          () =>
            ['bridge/state', 'bridge/info', 'state', 'devices/shoe/availability'].every(
              (topic) => late.retainedSince(topic, 0) !== undefined,
            ),
          'the retained topics for a late subscriber',
        );
        expect(late.value('bridge/state')).toBe('online');
        expect(late.value('devices/shoe/availability')).toBe('online');
        const state = JSON.parse(late.value('state') ?? '{}');
        expect(state).toMatchObject({ shoe: { dealt: 416, ended: expect.any(String) } });
        expect(late.events).toEqual([]); // events are not retained
      } finally {
        await late.close();
      }

      const verified = await t.verifyJournal();
      expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    });
  },
);
