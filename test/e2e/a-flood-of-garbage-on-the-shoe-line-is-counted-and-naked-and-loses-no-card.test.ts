import { afterEach, describe, expect, it } from 'vitest';
import { createRandom, type Random } from '../../simulators/random.ts';
import { skipReason, socatMissing, until } from './helpers/environment.ts';
import { E2eTable, publishedCards } from './helpers/table.ts';

const missing = skipReason(socatMissing());

const CARDS = 120;

/** Line noise of several kinds: random bytes, an over-long line, a frame with a bad CRC, stray delimiters. */
function garbage(random: Random): Buffer {
  switch (random.int(5)) {
    case 0:
      return Buffer.from(
        Array.from({ length: 300 + random.int(200) }, () => 0x21 + random.int(90)),
      );
    case 1:
      return Buffer.from('$SH,7,CARD,AS,red,down*0000\r\n', 'latin1');
    case 2:
      return Buffer.from('\r\n\r\n$$$,,,**\r\n', 'latin1');
    default:
      return Buffer.from(Array.from({ length: 1 + random.int(60) }, () => random.int(256)));
  }
}

describe.skipIf(missing !== undefined)(
  'a flood of garbage on the shoe line is counted and NAKed and loses no card',
  () => {
    let table: E2eTable | undefined;
    let flood: NodeJS.Timeout | undefined;
    afterEach(async () => {
      clearInterval(flood);
      await table?.close();
      table = undefined;
    });

    it('keeps the table running and publishes every card once, in order', async () => {
      table = await E2eTable.create('garbage');
      const t = table;
      await t.startDaemon();
      const shoe = t.startShoe({
        seed: 31,
        rate: 60,
        steps: `  - shuffle\n  - lid: closed\n  - deal: ${CARDS}\n`,
      });
      await shoe.whenReady();
      await until(() => t.consumer.ofType('shoe_start').length === 1, 'the shoe to start');

      // Noise written into the device end between the simulator's frames.
      const random = createRandom(7).fork('line noise');
      let bursts = 0;
      flood = setInterval(() => {
        if (!shoe.link.isOpen) return;
        bursts++;
        shoe.link.write(garbage(random)).catch(() => undefined);
      }, 15);
      await shoe.whenDone();
      clearInterval(flood);

      const dealt = t.dealtCards();
      expect(dealt).toHaveLength(CARDS);
      await until(
        () => t.consumer.ofType('card').length >= CARDS,
        `${CARDS} card events`,
        30_000,
        () => t.describe(),
      );
      const consumer = t.consumer;
      expect(consumer.outOfOrder).toEqual([]);
      const cards = publishedCards(consumer);
      expect(cards.map((card) => card.index)).toEqual(dealt.map((_, position) => position));
      cards.forEach((published, position) => {
        if (!published.hidden) expect(published.card).toBe(dealt[position]!.card);
      });
      expect(consumer.ofType('alarm')).toEqual([]);

      // The daemon counted the noise and NAKed what looked like frames, and is still up.
      const health = await consumer.request('health_check', { transaction: 'after-flood' });
      expect(health.status).toBe('ok');
      const device = (health.data as { devices: Array<Record<string, unknown>> }).devices[0]!;
      const counters = device.counters as Record<string, number>;
      expect(bursts).toBeGreaterThan(20);
      expect(counters.badLines! + counters.crcErrors!).toBeGreaterThan(0);
      expect(counters.naksSent).toBeGreaterThan(0);
      expect(device.availability).toBe('online');
      expect(shoe.stats.retransmitted).toBeGreaterThan(0);
      expect(t.daemon?.running).toBe(true);
    });
  },
);
