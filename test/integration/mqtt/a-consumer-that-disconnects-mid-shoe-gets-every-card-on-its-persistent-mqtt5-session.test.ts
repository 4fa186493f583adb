/**
 * A consumer on a persistent MQTT 5 session (Clean Start 0, a Session
 * Expiry Interval, QoS 1) goes away mid-shoe and comes back: mosquitto
 * queued what the table published meanwhile, so it receives every card,
 * each once, in order, and the table never noticed.
 */
import mqtt, { type MqttClient } from 'mqtt';
import { expect, it } from 'vitest';
import {
  BASE,
  cleanupAfterEach,
  dealCards,
  mosquittoMissing,
  startMqtt5Table,
  TABLE,
  v5Client,
  waitFor,
} from './support.ts';

const noMosquitto = mosquittoMissing();
const cleanup = cleanupAfterEach();

it.skipIf(noMosquitto)(
  'receives the cards published while it was away once it resumes its session',
  async () => {
    const { broker, store, bridge } = await startMqtt5Table(cleanup);

    const session = {
      clientId: 'pit-boss-screen',
      clean: false,
      properties: { sessionExpiryInterval: 600 },
    };
    const cards: { seq: number; card: string }[] = [];
    const listen = (client: MqttClient) =>
      client.on('message', (_topic, payload, packet) => {
        const event = JSON.parse(payload.toString()) as { seq: number; card: string };
        expect(packet.properties?.userProperties?.seq).toBe(String(event.seq));
        cards.push({ seq: event.seq, card: event.card });
      });
    const consumer = await v5Client(broker.url, session);
    listen(consumer);
    await consumer.subscribeAsync(`${BASE}/${TABLE}/events/card`, { qos: 1 });

    await dealCards(store.journal, 4);
    await waitFor(() => cards.length === 4, 'the first 4 cards');
    await consumer.endAsync();

    // Dealt while the consumer is away; the table publishes on as usual.
    await dealCards(store.journal, 6, 4);
    await waitFor(() => bridge.acknowledgedSeq === store.journal.lastSeq, 'the broker to have all');
    expect(cards).toHaveLength(4);

    // Listening before the CONNACK: the queued messages follow it at once.
    const back = cleanup.later(
      mqtt.connect(broker.url, { protocolVersion: 5, reconnectPeriod: 0, ...session }),
      (c) => c.endAsync(true),
    );
    listen(back);
    const resumed = await new Promise<boolean>((resolve) =>
      back.once('connect', (connack) => resolve(connack.sessionPresent)),
    );
    expect(resumed).toBe(true);
    await waitFor(() => cards.length >= 10, 'the 6 cards dealt while away');
    await dealCards(store.journal, 1, 10);
    await waitFor(() => cards.length >= 11, 'a card dealt after');
    expect(cards.map((card) => card.card)).toEqual([
      '9H',
      '2C',
      'TD',
      '7S',
      'KH',
      'AS',
      '4D',
      '6C',
      'QS',
      '3H',
      '8D',
    ]);
    const seqs = cards.map((card) => card.seq);
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  },
);
