/**
 * Issue 17, item 2: alarms once published the values of face-down cards
 * (`wrong_back_colour`: "7H has a green back"; `card_after_shoe_end`). A
 * consumer subscribed to `#` on a real mosquitto watches a whole shoe dealt
 * face down with faults that raise alarms about cards (a wrong back colour,
 * a foreign card with a grey back) and one card found face up.
 * No payload may name a card that was not exposed: a card is exposed by a
 * card event showing it face up at its index (Punto Banco turns its cards),
 * and an alarm about one card may name only that card, if it was exposed.
 */
import { connectAsync, type MqttClient } from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { skipReason, socatMissing, until } from './helpers/environment.ts';
import { E2eTable } from './helpers/table.ts';

const missing = skipReason(socatMissing());
const CARD_CODE = /\b[2-9TJQKA][SHDC]\b/g;

describe.skipIf(missing !== undefined)('no payload on the broker names an unexposed card', () => {
  let table: E2eTable | undefined;
  let everything: MqttClient | undefined;
  afterEach(async () => {
    await everything?.endAsync();
    everything = undefined;
    await table?.close();
    table = undefined;
  });

  it('a whole shoe dealt face down with alarms about cards leaks no card value', async () => {
    table = await E2eTable.create('no-unexposed-card');
    const t = table;
    const payloads: Array<{ topic: string; text: string }> = [];
    everything = await connectAsync(t.broker.url, { protocolVersion: 4 });
    everything.on('message', (topic, payload) =>
      payloads.push({ topic, text: payload.toString() }),
    );
    await everything.subscribeAsync('#', { qos: 1 });
    await t.startDaemon();
    const shoe = t.startShoe({
      seed: 1717,
      rate: 400,
      steps: '  - shuffle\n  - lid: closed\n  - deal: rest\n',
      faults: ['wrong-colour=30', 'foreign=60', 'face-up=90'],
    });
    await shoe.whenDone();
    await until(
      () => t.consumer.ofType('card').length >= t.dealtCards().length,
      'every card event',
      30_000,
    );
    const alarms = t.consumer.ofType('alarm');
    const kinds = new Set(alarms.map((alarm) => alarm.kind));
    expect(kinds).toContain('wrong_back_colour');
    expect(kinds).toContain('face_up_card');

    // A card is exposed by a card event that shows it face up, at its index in the shoe.
    const parsed = payloads.map(({ topic, text }) => {
      try {
        return { topic, text, body: JSON.parse(text) as Record<string, unknown> };
      } catch {
        return { topic, text, body: {} as Record<string, unknown> };
      }
    });
    const faceUpAt = new Map<unknown, string>();
    for (const { body } of parsed) {
      if (body.type === 'card' && body.face === 'up') faceUpAt.set(body.index, String(body.card));
    }
    const everExposed = new Set(faceUpAt.values());
    const leaks: string[] = [];
    for (const { topic, text, body } of parsed) {
      for (const code of text.match(CARD_CODE) ?? []) {
        // An event about one card in the shoe may name that card only if it was shown face up.
        const aboutOne = body.index !== undefined && body.type !== 'card';
        const ok = aboutOne ? faceUpAt.get(body.index) === code : everExposed.has(code);
        if (!ok) leaks.push(`${topic}: ${code} in ${text}`);
      }
    }
    expect(leaks).toEqual([]);
    // The alarms were published, only without the values.
    const wrongBack = alarms.find((alarm) => alarm.kind === 'wrong_back_colour')!;
    expect(wrongBack).toMatchObject({ card: null, hidden: true });
  }, 90_000);
});
