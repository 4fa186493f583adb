/**
 * The floor guidance (docs/integrator/fleet.md): consumer instances share
 * `$share/<group>/tableside/+/events/#` on a Mosquitto that runs the shipped
 * ACL. Two tables' accounts publish events; two consumer instances (the
 * consumer account, two client ids) each get part of each table, together
 * every event once, each instance's part of a table in order.
 */
import { connectAsync, type MqttClient } from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { commandMissing, mosquittoMissing, skipReason } from '../../helpers/tools.ts';
import { until } from '../../helpers/until.ts';
import { Cleanup, startBrokerWithShippedAcl, tempDir } from '../trust/support.ts';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());
const missing = skipReason(
  mosquittoMissing('shared subscriptions through the shipped ACL need it'),
  commandMissing('mosquitto_passwd', 'the shipped ACL needs its password file'),
);

const PASSWORDS = {
  'table-t1': 'table-one-secret',
  'table-t2': 'table-two-secret',
  'consumer-pit': 'consumer-secret',
};
const EVENTS_PER_TABLE = 20;

describe.skipIf(missing)(
  'two consumer accounts sharing a subscription through the shipped ACL get each event of two tables once',
  () => {
    it('splits the events between the instances, loses none and repeats none', async () => {
      const dir = tempDir(cleanup, 'tableside-fleet-acl-');
      const broker = await startBrokerWithShippedAcl(cleanup, dir, PASSWORDS);
      const connect = async (username: keyof typeof PASSWORDS, clientId: string) => {
        const client: MqttClient = await connectAsync(broker.url, {
          username,
          password: PASSWORDS[username],
          clientId,
          clean: false,
          reconnectPeriod: 0,
        });
        cleanup.add(() => client.endAsync(true));
        return client;
      };

      const received: { instance: number; table: string; seq: number }[] = [];
      for (const instance of [0, 1]) {
        const consumer = await connect('consumer-pit', `consumer-pit-${instance + 1}`);
        consumer.on('message', (topic, payload) => {
          const { seq } = JSON.parse(payload.toString()) as { seq: number };
          received.push({ instance, table: topic.split('/')[1]!, seq });
        });
        const granted = await consumer.subscribeAsync('$share/tms/tableside/+/events/#', {
          qos: 1,
        });
        expect(granted.map((grant) => grant.qos)).toEqual([1]);
      }
      const tables = [
        { id: 't1', client: await connect('table-t1', 'tableside-t1') },
        { id: 't2', client: await connect('table-t2', 'tableside-t2') },
      ];
      // One table's events after the other's: the broker hands out events, not tables.
      for (const { id, client } of tables) {
        for (let seq = 1; seq <= EVENTS_PER_TABLE; seq++) {
          await client.publishAsync(`tableside/${id}/events/card`, JSON.stringify({ seq }), {
            qos: 1,
          });
        }
      }
      await until(() => received.length >= 2 * EVENTS_PER_TABLE, 'every event', 5_000);
      // fixed wait: nothing happens: no event may arrive twice: only time shows it
      await new Promise((resolve) => setTimeout(resolve, 200));

      expect(received).toHaveLength(2 * EVENTS_PER_TABLE);
      for (const { id } of tables) {
        const seqs = received.filter((event) => event.table === id).map((event) => event.seq);
        expect([...seqs].sort((a, b) => a - b)).toEqual(
          Array.from({ length: EVENTS_PER_TABLE }, (_, index) => index + 1),
        );
        for (const instance of [0, 1]) {
          const share = received
            .filter((event) => event.table === id && event.instance === instance)
            .map((event) => event.seq);
          // Each instance's part of a table is in order, and part of it, not all.
          expect(share.length).toBeGreaterThan(0);
          expect(share.length).toBeLessThan(EVENTS_PER_TABLE);
          expect(share).toEqual([...share].sort((a, b) => a - b));
        }
      }
    });
  },
);
