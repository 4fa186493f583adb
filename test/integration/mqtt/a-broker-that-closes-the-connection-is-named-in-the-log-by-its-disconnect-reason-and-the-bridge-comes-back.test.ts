/**
 * The broker's reason codes reach the log by name. mosquitto (with
 * `max_packet_size`) closes the daemon's connection with DISCONNECT 0x95
 * "Packet too large" when an answer to a request is over its limit: the
 * bridge says so, reconnects and publishes on; the CONNACK of each
 * connection is logged with its name as well.
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
  'names DISCONNECT 0x95 Packet too large in the log, comes back and keeps publishing',
  async () => {
    const { broker, store, bridge, captured } = await startMqtt5Table(cleanup, {
      broker: { extraConfig: ['max_packet_size 2048'] },
      bridge: {
        backoff: { initialMs: 100, maxMs: 200 },
        onRequest: () => ({ notes: 'x'.repeat(4096) }),
      },
    });
    await waitFor(() => bridge.isConnected, 'the bridge to connect');
    const connected = captured.records.find((record) => record.msg === 'mqtt connected');
    expect(connected).toMatchObject({ protocolVersion: 5, reason: 'CONNACK 0x00 Success' });

    const consumer = await v5Recorder(cleanup, broker.url);
    await dealCards(store.journal, 2);
    await waitFor(() => consumer.events().length === 2, 'the first 2 cards');

    const requester = await v5Requester(cleanup, broker.url);
    await requester.publishAsync(`${BASE}/${TABLE}/bridge/request/health_check`, '{}', { qos: 1 });
    await waitFor(
      () => captured.problems().some((message) => message.includes('DISCONNECT')),
      'the DISCONNECT in the log',
    );
    expect(captured.problems()).toContainEqual(
      'the broker closed the connection: DISCONNECT 0x95 Packet too large',
    );
    await waitFor(() => bridge.connections === 2 && bridge.isConnected, 'the bridge to come back');
    await dealCards(store.journal, 2, 2);
    await waitFor(() => consumer.events().length === 4, 'the next 2 cards');
    expect(consumer.events().map((event) => event.card)).toEqual(['9H', '2C', 'TD', '7S']);
  },
);
