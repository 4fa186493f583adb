/**
 * A requester names a Response Topic the daemon may not publish to (a
 * mosquitto ACL). mosquitto refuses that publish with PUBACK 0x87 "Not
 * authorized": the bridge logs it by name, the usual answer on
 * `bridge/response/<op>` still goes out, and the table carries on.
 */
import { expect, it } from 'vitest';
import {
  aclFile,
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
  'logs PUBACK 0x87 Not authorized for the response topic and answers on bridge/response',
  async () => {
    // Anonymous clients (everyone here): the table's topics and replies/allowed only.
    const acl = aclFile([`topic readwrite ${BASE}/#`, 'topic readwrite replies/allowed/#']);
    const { broker, store, bridge, captured } = await startMqtt5Table(cleanup, {
      broker: { aclFile: acl.path },
      bridge: { onRequest: () => ({ healthy: true }) },
    });
    await waitFor(() => bridge.isConnected, 'the bridge to connect');
    const consumer = await v5Recorder(cleanup, broker.url);

    const requester = await v5Requester(cleanup, broker.url);
    const answers: { topic: string; body: Record<string, unknown> }[] = [];
    requester.on('message', (topic, payload) =>
      answers.push({ topic, body: JSON.parse(payload.toString()) }),
    );
    await requester.subscribeAsync(['replies/#', `${BASE}/${TABLE}/bridge/response/#`], { qos: 1 });
    const ask = (transaction: string, responseTopic: string) =>
      requester.publishAsync(
        `${BASE}/${TABLE}/bridge/request/health_check`,
        JSON.stringify({ transaction }),
        { qos: 1, properties: { responseTopic, correlationData: Buffer.from(transaction) } },
      );

    await ask('forbidden-1', 'replies/forbidden/1');
    await waitFor(
      () => captured.problems().some((message) => message.includes('PUBACK 0x87')),
      'the refusal in the log',
    );
    expect(captured.problems()).toContainEqual(
      expect.stringMatching(
        /request health_check: the broker refused the answer on its response topic "replies\/forbidden\/1": PUBACK 0x87 Not authorized; it was answered on tableside\/t1\/bridge\/response\/health_check/,
      ),
    );
    expect(answers).toEqual([
      {
        topic: `${BASE}/${TABLE}/bridge/response/health_check`,
        body: { status: 'ok', data: { healthy: true }, transaction: 'forbidden-1' },
      },
    ]);

    // The connection and the table carry on: an allowed response topic, then cards.
    await ask('allowed-1', 'replies/allowed/1');
    await waitFor(() => answers.some((answer) => answer.topic === 'replies/allowed/1'), 'answer');
    expect(bridge.isConnected).toBe(true);
    expect(bridge.connections).toBe(1);
    await dealCards(store.journal, 3);
    await waitFor(() => consumer.events().length === 3, 'the 3 cards');
  },
);
