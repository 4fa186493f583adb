/**
 * Issue 24, item 5: under a flood of 1 MB requests the daemon's MQTT
 * connection dropped and 187 of them were never answered. Now a request
 * over REQUEST_MAX_BYTES (16 KiB) is refused by its size before it is read
 * (`too_large`), each one is answered, the table stays online and takes the
 * next request; on mosquitto and on the embedded broker.
 */
import { connectAsync } from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { skipReason, socatMissing, until } from './helpers/environment.ts';
import { type BrokerKind, RequestTable } from './helpers/request-table.ts';

const missing = skipReason(socatMissing());
const FLOOD = 120;
const MEGABYTE = 1024 * 1024;

describe.skipIf(missing !== undefined)(
  'a flood of one-megabyte MQTT requests is refused by size and each is answered',
  () => {
    let table: RequestTable | undefined;
    afterEach(async () => {
      await table?.close();
      table = undefined;
    });

    it.each(['mosquitto', 'embedded'] as const)('on %s', async (broker: BrokerKind) => {
      const t = await RequestTable.create(`flood-${broker}`, {
        broker,
        game: 'cards',
        signed: true,
      });
      table = t;
      const consumer = await t.start();
      const from = consumer.messages.length;
      const flooder = await connectAsync(t.url, { protocolVersion: 4, reconnectPeriod: 0 });
      try {
        // Well-formed JSON, a megabyte each: the size alone refuses it.
        const payload = JSON.stringify({ reason: 'x'.repeat(MEGABYTE) });
        await Promise.all(
          Array.from({ length: FLOOD }, () =>
            flooder.publishAsync(`${t.root}/bridge/request/new_shoe`, payload, { qos: 1 }),
          ),
        );
      } finally {
        await flooder.endAsync(true).catch(() => undefined);
      }
      const answers = () =>
        consumer.messages
          .slice(from)
          .filter((m) => m.topic === `${t.root}/bridge/response/new_shoe`)
          .map((m) => JSON.parse(m.payload) as Record<string, unknown>);
      await until(
        () => answers().length >= FLOOD,
        `${FLOOD} answers`,
        120_000,
        () => `${answers().length} answers\n${t.describe()}`,
      );
      expect(answers()).toHaveLength(FLOOD);
      for (const answer of answers()) {
        expect(answer).toMatchObject({ status: 'error', code: 'too_large' });
        expect(String(answer.error)).toMatch(/bytes refused unread: at most 16384 bytes/);
      }
      // The connection held throughout: no `offline`, and no `online` again after a reconnect.
      expect(
        consumer.messages.slice(from).filter((m) => m.topic === `${t.root}/bridge/state`),
      ).toEqual([]);
      const health = await consumer.request('health_check', {
        raw: t.signed('health_check', { transaction: 'after' }),
      });
      expect(health).toMatchObject({ status: 'ok', transaction: 'after' });
      const inputs = (await t.journal()).filter((r) => r.kind === 'input');
      expect(
        inputs.filter((r) => String((r.data as { src?: string }).src).startsWith('mqtt')),
      ).toEqual([]);
      const alarms = consumer.ofType('alarm').filter((a) => a.kind === 'request_refused');
      expect(alarms.length).toBeGreaterThan(0);
      expect(alarms.every((a) => a.code === 'too_large')).toBe(true);
    });
  },
);
