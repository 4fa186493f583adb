/**
 * An answer the bridge could not get acknowledged is sent again after a
 * reconnect, so a dropped connection loses none. But an answer over a 3.1.1
 * broker's packet size is itself what the broker closes the connection for,
 * with no reason given: sent again at every reconnect, it would keep the
 * bridge from ever publishing again. It is sent twice at most, then dropped
 * and logged, and the cards flow on.
 */
import { expect, it } from 'vitest';
import {
  BASE,
  cleanupAfterEach,
  dealCards,
  mosquittoMissing,
  startMqtt5Table,
  TABLE,
  v5Recorder,
  v5Requester,
  waitFor,
} from './support.ts';

const noMosquitto = mosquittoMissing();
const cleanup = cleanupAfterEach();

it.skipIf(noMosquitto)(
  'drops an answer over a 3.1.1 broker packet size after its second try and keeps publishing',
  async () => {
    const { broker, store, bridge, captured } = await startMqtt5Table(cleanup, {
      broker: { extraConfig: ['max_packet_size 2048'] },
      bridge: {
        protocolVersion: 4,
        backoff: { initialMs: 100, maxMs: 200 },
        onRequest: () => ({ notes: 'x'.repeat(4096) }),
      },
    });
    await waitFor(() => bridge.isConnected, 'the bridge to connect');
    const consumer = await v5Recorder(cleanup, broker.url);
    await dealCards(store.journal, 2);
    await waitFor(() => consumer.events().length === 2, 'the first 2 cards');

    const requester = await v5Requester(cleanup, broker.url);
    await requester.publishAsync(`${BASE}/${TABLE}/bridge/request/health_check`, '{}', { qos: 1 });
    await waitFor(
      () => captured.records.some((record) => String(record.msg).startsWith('answer dropped')),
      'the answer to be dropped',
    );
    await waitFor(() => bridge.isConnected, 'the bridge to come back');
    const connections = bridge.connections;
    await dealCards(store.journal, 2, 2);
    await waitFor(() => consumer.events().length === 4, 'the next 2 cards');
    expect(consumer.events().map((event) => event.card)).toEqual(['9H', '2C', 'TD', '7S']);
    // The first connection and the two the answer cost: no more.
    expect(connections).toBe(3);
    expect(bridge.connections).toBe(3);
  },
);
