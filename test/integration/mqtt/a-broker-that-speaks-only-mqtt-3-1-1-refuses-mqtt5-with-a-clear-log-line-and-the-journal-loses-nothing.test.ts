/**
 * A 3.1.1-only broker (aedes, the embedded broker) answers an MQTT 5
 * CONNECT with CONNACK 0x01 "unacceptable protocol version". The bridge
 * says so in the log, naming the setting to change, and keeps retrying;
 * the table goes on journaling. Once the daemon is set to 3.1.1, every
 * event journaled meanwhile reaches the consumer.
 */
import { expect, it } from 'vitest';
import { startEmbeddedBroker } from '../../../firmware-host/mqtt/broker.ts';
import {
  cleanupAfterEach,
  dealCards,
  makeBridge,
  Recorder,
  startMqtt5Bridge,
  waitFor,
} from './support.ts';

const cleanup = cleanupAfterEach();

it('logs the refusal by its CONNACK code, journals on, and loses nothing once on 3.1.1', async () => {
  const aedes = cleanup.later(await startEmbeddedBroker({ port: 0 }), (b) => b.close());
  const consumer = cleanup.later(await Recorder.connect(aedes.url), (r) => r.close());
  const { store, bridge: v5, captured } = await startMqtt5Bridge(cleanup, aedes.url);
  await waitFor(
    () => captured.problems().some((message) => message.includes('CONNACK 0x01')),
    'the refusal in the log',
  );
  const refusal = captured.problems().find((message) => message.includes('CONNACK 0x01'));
  expect(refusal).toMatch(
    /the broker refused the connection: CONNACK 0x01 unacceptable protocol version/,
  );
  expect(refusal).toMatch(/does not speak MQTT 5; set mqtt\.protocolVersion to 4/);

  // The table is unaffected: cards are journaled while the broker refuses.
  await dealCards(store.journal, 5);
  expect(store.journal.lastSeq).toBeGreaterThanOrEqual(10);
  await waitFor(
    () => captured.problems().filter((message) => message.includes('CONNACK 0x01')).length >= 2,
    'a retry, refused again',
  );
  expect(v5.isConnected).toBe(false);
  expect(v5.acknowledgedSeq).toBe(0);
  expect(consumer.events()).toEqual([]);
  await v5.stop();

  // Set to 3.1.1: everything journaled meanwhile goes out, in order.
  const v4 = cleanup.later(makeBridge(aedes.url, store, { protocolVersion: 4 }), (b) => b.stop());
  await v4.start();
  await waitFor(() => consumer.events().length === 5, 'the 5 cards');
  expect(consumer.events().map((event) => event.card)).toEqual(['9H', '2C', 'TD', '7S', 'KH']);
  await waitFor(() => v4.acknowledgedSeq === store.journal.lastSeq, 'the cursor at the end');
});
