/**
 * An MQTT 5 broker refuses an event (here a mosquitto ACL that forgets
 * `events/alarm`: PUBACK 0x87 Not authorized). The bridge names the refusal
 * in the log and the cursor stays before the event, while the table
 * journals on. Events already in flight behind it may reach consumers
 * first; after each reconnect the bridge resends from the cursor, so once
 * the ACL is fixed (and mosquitto reloaded) the event arrives, followed again, in seq order, by
 * everything after it: nothing is lost, and a consumer deduping by seq has
 * every event once.
 */
import { expect, it } from 'vitest';
import {
  aclFile,
  BASE,
  cleanupAfterEach,
  dealCards,
  mosquittoMissing,
  sleep,
  startMqtt5Table,
  TABLE,
  v5Recorder,
  waitFor,
} from './support.ts';

const noMosquitto = mosquittoMissing();
const cleanup = cleanupAfterEach();

it.skipIf(noMosquitto)(
  'logs PUBACK 0x87 for the event, holds the cursor before it, and resends from it once allowed',
  async () => {
    const root = `${BASE}/${TABLE}`;
    const acl = aclFile([
      `topic readwrite ${root}/bridge/#`,
      `topic readwrite ${root}/events/card`,
      `topic read ${root}/#`,
    ]);
    // Persistence and a persistent consumer session: the subscription outlives the
    // broker restart below, so nothing the bridge resends races the resubscription.
    const { broker, store, bridge, captured } = await startMqtt5Table(cleanup, {
      broker: { aclFile: acl.path, persistence: true },
      bridge: { backoff: { initialMs: 200, maxMs: 400 } },
    });
    const consumer = await v5Recorder(cleanup, broker.url, {
      clientId: 'floor-system-acl',
      clean: false,
      properties: { sessionExpiryInterval: 600 },
    });
    await dealCards(store.journal, 2);
    await waitFor(() => consumer.events().length === 2, 'the first 2 cards');

    const [alarm] = await store.journal.append([
      { kind: 'event', data: { type: 'alarm', kind: 'foreign_card', message: 'a foreign back' } },
    ]);
    await dealCards(store.journal, 2, 2);
    await waitFor(
      () => captured.problems().some((message) => message.includes('PUBACK 0x87')),
      'the refusal in the log',
    );
    expect(captured.problems()).toContainEqual(
      `the broker refused event ${alarm!.seq} on ${root}/events/alarm: PUBACK 0x87 Not authorized; it stays in the journal and is sent again after a reconnect`,
    );
    // fixed wait: nothing happens: no later log line may call the connection's close a refusal: only time shows it
    await sleep(1000);
    // Only the broker's refusals are called refusals (not the connection closing after one).
    const refusals = captured.problems().filter((m) => m.startsWith('the broker refused event'));
    expect(refusals.every((message) => message.includes('PUBACK 0x87 Not authorized'))).toBe(true);
    expect(bridge.acknowledgedSeq).toBeLessThan(alarm!.seq);
    expect(consumer.events().map((event) => event.type)).not.toContain('alarm');
    expect(store.journal.lastSeq).toBeGreaterThan(alarm!.seq);

    // The ACL fixed and reloaded (SIGHUP): the alarm, then the cards after it.
    acl.write([`topic readwrite ${root}/#`]);
    broker.reload!();
    await waitFor(() => consumer.events().length === 5, 'the alarm');
    const seqs = consumer.events().map((event) => event.seq as number);
    expect(new Set(seqs).size).toBe(5);
    // The resend after the fix: the alarm, then the cards after it, in seq order.
    const resent = consumer.messages
      .filter((message) => message.topic.startsWith(`${root}/events/`))
      .map((message) => JSON.parse(message.text).seq as number);
    const from = resent.indexOf(alarm!.seq);
    expect(resent.slice(from)).toEqual([...resent.slice(from)].sort((x, y) => x - y));
    expect(resent.slice(from).at(-1)).toBe(Math.max(...seqs));
    await waitFor(() => bridge.acknowledgedSeq === store.journal.lastSeq, 'the cursor at the end');
  },
  30_000,
);
