/**
 * With `protocolVersion: 5` every event carries the Content Type
 * `application/json`, the Payload Format Indicator (UTF-8) and its journal
 * seq as the user property `seq`, so a consumer can dedupe or route without
 * parsing. A 3.1.1 consumer on the same mosquitto gets the same payloads.
 */
import { expect, it } from 'vitest';
import {
  brokerFor,
  cleanupAfterEach,
  dealCards,
  mosquittoMissing,
  Recorder,
  startMqtt5Bridge,
  v5Recorder,
  waitFor,
} from './support.ts';

const noMosquitto = mosquittoMissing();
const cleanup = cleanupAfterEach();

it.skipIf(noMosquitto)(
  'every event has content type application/json, the UTF-8 indicator and its seq as a user property',
  async () => {
    const broker = await brokerFor(cleanup);
    const v5 = await v5Recorder(cleanup, broker.url);
    const v311 = cleanup.later(await Recorder.connect(broker.url), (r) => r.close());
    const { store } = await startMqtt5Bridge(cleanup, broker.url);
    await store.journal.append([
      { kind: 'event', data: { type: 'shoe_start', decks: 8, backs: ['red'], cards: 416 } },
      { kind: 'event', data: { type: 'round_start', round: 1 } },
    ]);
    await dealCards(store.journal, 6);
    await waitFor(() => v5.events().length === 8 && v311.events().length === 8, '8 events each');

    const eventMessages = v5.messages.filter((message) => message.topic.includes('/events/'));
    expect(eventMessages).toHaveLength(8);
    for (const message of eventMessages) {
      const seq = (JSON.parse(message.text) as { seq: number }).seq;
      expect(message.properties).toMatchObject({
        contentType: 'application/json',
        payloadFormatIndicator: true,
        userProperties: { seq: String(seq) },
      });
    }
    const seqs = eventMessages.map((message) => Number(message.properties?.userProperties?.seq));
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    expect(new Set(seqs).size).toBe(8);
    // The inputs between the cards are not published: their seqs are skipped.
    expect(seqs[3]! - seqs[2]!).toBe(2);
    // The 3.1.1 consumer: the same bytes, no properties.
    const v311Events = v311.messages.filter((message) => message.topic.includes('/events/'));
    expect(v311Events.map((message) => message.text)).toEqual(
      eventMessages.map((message) => message.text),
    );
    expect(v311Events.every((message) => message.properties === undefined)).toBe(true);
    const first = JSON.parse(eventMessages[2]!.text);
    expect(Object.keys(first).slice(0, 3)).toEqual(['seq', 'ts', 'type']);
    expect(first).toMatchObject({ seq: seqs[2], type: 'card', card: '9H', face: 'up' });
  },
);
