import { afterEach, describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../firmware-host/table/events.ts';
import { skipReason, socatMissing, until } from './helpers/environment.ts';
import { E2eTable, publishedCards } from './helpers/table.ts';

const missing = skipReason(socatMissing());

const SEED = 808;
const CARDS = 60;
const CARD_CODE = /^(?:[2-9TJQKA][SHDC]|JK)$/;

/** The longest run of card codes in any array of a JSON value. */
function longestCardList(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  const own = Array.isArray(value)
    ? value.filter((item) => typeof item === 'string' && CARD_CODE.test(item)).length
    : 0;
  return Math.max(own, ...children.map(longestCardList));
}

function hasKey(value: unknown, key: string): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((item) => hasKey(item, key));
  return Object.entries(value).some(([name, item]) => name === key || hasKey(item, key));
}

describe.skipIf(missing !== undefined)(
  'a card-reading shuffler order never reaches the broker',
  () => {
    let table: E2eTable | undefined;
    afterEach(async () => {
      await table?.close();
      table = undefined;
    });

    it('journals the order, verifies the dealt cards against it, and publishes only what left the shoe', async () => {
      table = await E2eTable.create('shuffler-order', { shuffler: true });
      const t = table;
      await t.startDaemon();
      // The shuffler reports the shoe it made (with its order); the shoe deals that same shoe.
      t.startShuffler(SEED);
      await until(
        () => t.consumer.ofType('shoe_start').length === 1,
        'the shuffler to start the shoe',
      );
      const shoe = t.startShoe({
        seed: SEED,
        rate: 200,
        steps: `  - shuffle\n  - deal: ${CARDS}\n`,
      });
      await shoe.whenDone();
      await until(() => t.consumer.ofType('card').length >= CARDS, `${CARDS} card events`);

      const dealt = t.dealtCards();
      const cards = publishedCards(t.consumer);
      expect(cards.map((card) => card.index)).toEqual(dealt.map((_, position) => position));
      cards.forEach((published, position) => {
        if (!published.hidden) expect(published.card).toBe(dealt[position]!.card);
      });
      // Dealt as the shuffler said: no sequence alarm.
      expect(t.consumer.ofType('alarm')).toEqual([]);
      expect(JSON.parse(t.consumer.value('state') ?? '{}')).toMatchObject({
        shoe: { shufflerOrder: 'verified' },
      });

      // The journal holds the order (the daemon had it to give away) ...
      const shuffle = (await t.journal()).find(
        (record) => record.kind === 'input' && (record.data as { t: string }).t === 'shuffle',
      );
      expect(shuffle?.data).toMatchObject({ order: expect.any(Array) });
      expect((shuffle?.data as { order: string[] } | undefined)?.order).toHaveLength(416);
      // ... and no message carried it, under any key or as a list of cards.
      for (const message of t.consumer.messages) {
        let body: unknown;
        try {
          body = JSON.parse(message.payload);
        } catch {
          continue;
        }
        expect(hasKey(body, 'order'), message.topic).toBe(false);
        expect(longestCardList(body), message.topic).toBeLessThanOrEqual(6);
      }
      const types = new Set(t.consumer.events.map((event) => event.type as DomainEvent['type']));
      expect(types).toEqual(new Set(['shoe_start', 'card', 'round_start', 'result']));
    });
  },
);
