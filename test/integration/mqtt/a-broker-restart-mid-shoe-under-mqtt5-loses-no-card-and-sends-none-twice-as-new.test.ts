/**
 * mosquitto (with persistence, as deployed) restarts while a shoe is dealt
 * under MQTT 5. MQTT.js keeps no copy of the events in flight (the journal
 * is the durable store): the bridge resends from its journal cursor after
 * the reconnect. A consumer on a persistent session gets every card; a card
 * it gets twice comes with the same seq and the same bytes, so deduping by
 * seq is all a consumer does, and nothing ever arrives twice as new.
 */
import mqtt from 'mqtt';
import { expect, it } from 'vitest';
import {
  BASE,
  cleanupAfterEach,
  dealCards,
  mosquittoMissing,
  sleep,
  startMqtt5Table,
  TABLE,
  waitFor,
} from './support.ts';

const noMosquitto = mosquittoMissing();
const cleanup = cleanupAfterEach();

const CARDS = 60;

it.skipIf(noMosquitto)(
  'every card arrives, and a card received twice has the same seq and bytes',
  async () => {
    const { broker, store, bridge } = await startMqtt5Table(cleanup, {
      broker: { persistence: true },
      bridge: { backoff: { initialMs: 100, maxMs: 300 } },
    });

    const received: { seq: number; text: string }[] = [];
    const consumer = cleanup.later(
      mqtt.connect(broker.url, {
        protocolVersion: 5,
        clientId: 'floor-system',
        clean: false,
        reconnectPeriod: 100,
        properties: { sessionExpiryInterval: 600 },
      }),
      (c) => c.endAsync(true),
    );
    consumer.on('message', (_topic, payload) => {
      const text = payload.toString();
      received.push({ seq: (JSON.parse(text) as { seq: number }).seq, text });
    });
    await new Promise((resolve) => consumer.once('connect', resolve));
    await consumer.subscribeAsync(`${BASE}/${TABLE}/events/card`, { qos: 1 });
    await waitFor(() => bridge.isConnected, 'the bridge to connect');

    // Deal on while the broker goes down and comes back.
    const dealing = (async () => {
      for (let index = 0; index < CARDS; index++) {
        await dealCards(store.journal, 1, index);
        // fixed wait: emulated timing: the dealer's pace (a card every 10 ms), so the broker restart falls mid-shoe
        await sleep(10);
      }
    })();
    await waitFor(() => received.length >= 15, 'the first cards');
    await broker.stop();
    const journaledAtStop = store.journal.lastSeq;
    // fixed wait: emulated timing: the broker stays down for 400 ms while cards are dealt
    await sleep(400);
    await broker.start();
    await dealing;
    // The restart fell mid-shoe: cards were still to be dealt.
    expect(journaledAtStop).toBeLessThan(store.journal.lastSeq);

    await waitFor(() => bridge.acknowledgedSeq === store.journal.lastSeq, 'the broker to have all');
    await waitFor(() => new Set(received.map((m) => m.seq)).size === CARDS, `all ${CARDS} cards`);
    expect(bridge.connections).toBeGreaterThanOrEqual(2);

    const bySeq = new Map<number, string>();
    for (const message of received) {
      const earlier = bySeq.get(message.seq);
      if (earlier !== undefined) expect(message.text).toBe(earlier);
      bySeq.set(message.seq, message.text);
    }
    const cards = [...bySeq.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, text]) => (JSON.parse(text) as { index: number }).index);
    expect(cards).toEqual(Array.from({ length: CARDS }, (_, index) => index));
    // Only what was in flight at the restart can come twice.
    expect(received.length - CARDS).toBeLessThanOrEqual(32);
  },
  30_000,
);
