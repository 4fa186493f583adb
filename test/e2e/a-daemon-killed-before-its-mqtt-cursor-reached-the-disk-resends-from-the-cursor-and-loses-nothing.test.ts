import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { skipReason, socatMissing, until } from './helpers/environment.ts';
import { E2eTable, publishedCards } from './helpers/table.ts';

const missing = skipReason(socatMissing());

/** The seq of every event message the consumer received, duplicates included, in arrival order. */
function eventSeqs(table: E2eTable): number[] {
  return table.consumer.messages
    .filter((message) => message.topic.includes('/events/'))
    .map((message) => (JSON.parse(message.payload) as { seq: number }).seq);
}

const cursorPath = (table: E2eTable) => join(table.journalDir, 'mqtt-cursor.json');

function cursorOnDisk(table: E2eTable): number {
  return (JSON.parse(readFileSync(cursorPath(table), 'utf8')) as { seq: number }).seq;
}

describe.skipIf(missing !== undefined)(
  'a daemon killed before its MQTT cursor reached the disk resends from the cursor and loses nothing',
  () => {
    let table: E2eTable | undefined;
    afterEach(async () => {
      await table?.close();
      table = undefined;
    });

    it('kill -9 right after an event arrived: the restart publishes again from the cursor on disk, every card once after deduplication', async () => {
      table = await E2eTable.create('cursor');
      const t = table;
      await t.startDaemon();
      const shoe = t.startShoe({
        seed: 16,
        rate: 25,
        steps: '  - shuffle\n  - lid: closed\n  - deal: 240\n',
      });
      // Dealing well under way: the cursor has reached the disk at least once (every 5 s).
      await until(
        () => existsSync(cursorPath(t)) && t.consumer.ofType('card').length >= 30,
        'the cursor on disk and 30 cards',
        30_000,
        () => t.describe(),
      );
      // Kill the moment an event arrives: the broker had it, the cursor on disk cannot.
      const arrived = eventSeqs(t).length;
      await until(
        () => eventSeqs(t).length > arrived,
        'an event',
        30_000,
        () => t.describe(),
        1,
      );
      await t.killDaemon('SIGKILL');
      const seenAtKill = eventSeqs(t);
      const highestAtKill = Math.max(...seenAtKill);
      const cursorAtKill = cursorOnDisk(t);
      // Not per event: the cursor on disk is behind what the consumer already has.
      expect(cursorAtKill).toBeGreaterThan(0);
      expect(cursorAtKill).toBeLessThan(highestAtKill);

      await t.startDaemon();
      await shoe.whenDone();
      const dealt = t.dealtCards();
      expect(dealt).toHaveLength(240);
      await until(
        () => t.consumer.ofType('card').length >= dealt.length,
        `${dealt.length} card events`,
        30_000,
        () => t.describe(),
      );

      // Resent from the cursor: every event past it that had arrived before the kill arrived again.
      const all = eventSeqs(t);
      const after = all.slice(seenAtKill.length);
      for (const seq of seenAtKill.filter((seq) => seq > cursorAtKill))
        expect(after, `event ${seq} sent again after the restart`).toContain(seq);
      // Nothing at or before the cursor went again.
      expect(after.filter((seq) => seq <= cursorAtKill)).toEqual([]);
      expect(t.consumer.duplicates).toBeGreaterThan(0);

      // Deduplicated by seq, the consumer has every card once, in the shoe's order.
      expect(t.consumer.malformed).toEqual([]);
      expect(t.consumer.outOfOrder).toEqual([]);
      const cards = publishedCards(t.consumer);
      expect(cards.map((card) => card.index)).toEqual(dealt.map((_, position) => position));

      // A clean stop writes the cursor through to the last event acknowledged before it. An
      // event the stop itself journals (its link's close) may be acknowledged after the
      // bridge has gone: it is sent again at the next start, as any event past the cursor.
      const beforeStop = Math.max(...eventSeqs(t));
      await t.killDaemon('SIGTERM');
      expect(cursorOnDisk(t)).toBeGreaterThanOrEqual(beforeStop);
      expect(cursorOnDisk(t)).toBeLessThanOrEqual(Math.max(...eventSeqs(t)));
    }, 120_000);
  },
);
