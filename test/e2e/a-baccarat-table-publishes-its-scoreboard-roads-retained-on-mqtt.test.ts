/**
 * A scoreboard display that is not ours draws the roads from MQTT: a
 * baccarat table keeps `<base>/<table>/roads` retained, the same roads as
 * `tableside roads` gives for the shoe's results so far, with pair counts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  type Coup,
  computeRoads,
  coupFromOutcome,
} from '../../firmware-host/games/cards/baccarat/roads.ts';
import { Consumer } from './helpers/consumer.ts';
import { until } from './helpers/environment.ts';
import { WebTable } from './helpers/web-table.ts';

describe('a baccarat table publishes its scoreboard roads retained on MQTT', () => {
  let table: WebTable | undefined;
  let consumer: Consumer | undefined;
  afterEach(async () => {
    await consumer?.close();
    await table?.stop();
    consumer = table = undefined;
  });

  it('keeps the roads of the shoe in play retained, equal to the roads of the journaled results', async () => {
    table = await WebTable.start('roads-mqtt', { cardIntervalMs: 5, roundIntervalMs: 10 });
    const port = /"url":"mqtt:\/\/127\.0\.0\.1:(\d+)"/.exec(table.daemon.stderr)?.[1];
    expect(port, table.daemon.describe()).toBeDefined();
    const root = `tableside/${table.table}`;
    consumer = await Consumer.connect({ url: `mqtt://127.0.0.1:${port}`, root });
    await until(
      () =>
        (JSON.parse(consumer!.value('roads') ?? '{"bead_plate":[]}').bead_plate.length ?? 0) >= 20,
      '20 coups on the roads topic',
      30_000,
      () => table!.daemon.describe(),
    );
    // A late subscriber gets the latest roads at once, retained.
    const late = await Consumer.connect({ url: `mqtt://127.0.0.1:${port}`, root });
    try {
      await until(() => late.retainedSince('roads', 0) !== undefined, 'the retained roads');
      const roads = JSON.parse(late.retainedSince('roads', 0)!.payload);
      const coups: Coup[] = [];
      for (const record of await table.journal()) {
        if (record.kind !== 'event' || record.seq > roads.seq) continue;
        const event = record.data as { type: string; outcome?: Record<string, unknown> };
        if (event.type === 'shoe_start') coups.length = 0;
        if (event.type === 'result') coups.push(coupFromOutcome(event.outcome!)!);
      }
      const { counts, ...expected } = computeRoads(coups);
      expect(roads).toMatchObject({ ...expected, counts });
      expect(roads.bead_plate.length).toBe(coups.length);
      expect(Object.keys(roads)).toEqual(
        expect.arrayContaining([
          'big_road',
          'big_eye_boy',
          'small_road',
          'cockroach_pig',
          'bead_plate',
          'next',
        ]),
      );
    } finally {
      await late.close();
    }
  });
});
