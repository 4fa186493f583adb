import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CardCode } from '../../../device-protocol/cards.ts';
import type { MqttBridge } from '../../../firmware-host/mqtt/bridge.ts';
import type { BridgeRequest } from '../../../firmware-host/mqtt/requests.ts';
import { startTestBroker, type TestBroker } from '../../helpers/broker.ts';
import { startTcpRelay } from '../../helpers/tcp-relay.ts';
import {
  BASE,
  cardEvent,
  makeBridge,
  openStore,
  Recorder,
  TABLE,
  tempDir,
  waitFor,
} from './support.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function broker(options: Parameters<typeof startTestBroker>[0] = {}): Promise<TestBroker> {
  const started = await startTestBroker(options);
  cleanups.push(() => started.close());
  return started;
}

async function recorder(url: string, options = {}) {
  const started = await Recorder.connect(url, options);
  cleanups.push(() => started.close());
  return started;
}

async function store(dir = tempDir()) {
  const opened = await openStore(dir);
  cleanups.push(() => opened.journal.close());
  return { ...opened, dir };
}

async function running(bridge: MqttBridge) {
  cleanups.push(() => bridge.stop());
  await bridge.start();
  await waitFor(() => bridge.isConnected, 'the bridge to connect');
  return bridge;
}

const CARDS: CardCode[] = ['9H', '2C', 'TD', '7S', 'KH', 'AS', '4D', '6C'];

beforeAll(async () => {
  // Fail early with a clear message if no broker can be started at all.
  const probe = await startTestBroker();
  console.info(`[bridge tests] broker: ${probe.kind}`);
  await probe.close();
});

describe('MQTT bridge against a real broker', () => {
  it('publishes journal events in order, with seq and ts, and never the inputs', async () => {
    const mosquitto = await broker();
    const consumer = await recorder(mosquitto.url);
    const { journal, cursor } = await store();
    await running(makeBridge(mosquitto.url, { journal, cursor }));

    await journal.append([
      { kind: 'input', data: { t: 'shuffle', decks: 8, backs: ['red'], order: ['AS', 'KD'] } },
      { kind: 'event', data: { type: 'shoe_start', decks: 8, backs: ['red'], cards: 416 } },
      { kind: 'event', data: { type: 'round_start', round: 1 } },
    ]);
    for (const [index, card] of CARDS.slice(0, 4).entries()) {
      await journal.append([
        { kind: 'input', data: { t: 'card', card, back: 'red', face: 'up' } },
        { kind: 'event', data: cardEvent(card, index) },
      ]);
    }
    const [result] = await journal.append([
      { kind: 'event', data: { type: 'result', round: 1, outcome: { winner: 'banker' } } },
    ]);
    await waitFor(() => consumer.events().length === 7, '7 events');
    const events = consumer.events();
    expect(events.map((event) => [event.topic, event.type])).toEqual([
      ['events/shoe', 'shoe_start'],
      ['events/hand', 'round_start'],
      ['events/card', 'card'],
      ['events/card', 'card'],
      ['events/card', 'card'],
      ['events/card', 'card'],
      ['events/hand', 'result'],
    ]);
    const seqs = events.map((event) => event.seq as number);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(events.at(-1)).toMatchObject({ seq: result!.seq, ts: result!.ts });
    expect(events.map((event) => event.card).filter(Boolean)).toEqual(CARDS.slice(0, 4));
    // No input (and so no shuffler order) ever reached the broker.
    expect(consumer.messages.some((message) => message.text.includes('order'))).toBe(false);
    await waitFor(() => cursor.durable === result!.seq, 'the cursor to reach the last event');
  });

  it('keeps retained topics for a late subscriber', async () => {
    const mosquitto = await broker();
    const { journal, cursor } = await store();
    const bridge = await running(
      makeBridge(
        mosquitto.url,
        { journal, cursor },
        { info: { version: '0.1.0', game: 'baccarat' } },
      ),
    );
    bridge.setDeviceAvailability('shoe', 'online');
    bridge.setState({ shoe: { dealt: 12 }, hand: { player: ['9H'] } });
    await journal.append([{ kind: 'event', data: cardEvent('9H', 0) }]);
    await waitFor(() => bridge.acknowledgedSeq >= journal.lastSeq, 'the event to be acknowledged');

    const late = await recorder(mosquitto.url);
    await waitFor(
      () => late.messages.filter((message) => message.retain).length >= 4,
      'retained messages',
    );
    const retained = Object.fromEntries(
      late.messages
        .filter((message) => message.retain)
        .map((message) => [message.topic, message.text]),
    );
    expect(retained).toEqual({
      [`${BASE}/${TABLE}/bridge/state`]: 'online',
      [`${BASE}/${TABLE}/bridge/info`]: JSON.stringify({ version: '0.1.0', game: 'baccarat' }),
      [`${BASE}/${TABLE}/devices/shoe/availability`]: 'online',
      [`${BASE}/${TABLE}/state`]: JSON.stringify({ shoe: { dealt: 12 }, hand: { player: ['9H'] } }),
    });
    // Events are not retained: a late subscriber does not get old cards.
    expect(late.messages.some((message) => message.topic.includes('/events/'))).toBe(false);
  });

  it('leaves offline as its last will when its connection dies, and comes back online', async () => {
    const mosquitto = await broker();
    const consumer = await recorder(mosquitto.url);
    const { journal, cursor } = await store();
    const network = await startTcpRelay(mosquitto.url);
    cleanups.push(() => network.close());
    const bridge = await running(makeBridge(network.url, { journal, cursor }));
    await waitFor(
      () => consumer.on('bridge/state').some((message) => message.text === 'online'),
      'online',
    );

    network.cut();
    await waitFor(
      () => consumer.on('bridge/state').some((message) => message.text === 'offline'),
      'the last will',
    );
    await waitFor(() => consumer.on('bridge/state').at(-1)?.text === 'online', 'online again');
    expect(bridge.connections).toBe(2);
  });

  it('publishes offline on a clean stop', async () => {
    const mosquitto = await broker();
    const consumer = await recorder(mosquitto.url);
    const { journal, cursor } = await store();
    const bridge = await running(makeBridge(mosquitto.url, { journal, cursor }));
    await bridge.stop();
    await waitFor(() => consumer.on('bridge/state').at(-1)?.text === 'offline', 'offline');
  });

  it('loses nothing when the broker stops mid-stream, and republishes the retained topics', async () => {
    const mosquitto = await broker({ persistence: true });
    // A consumer with a persistent session, as a table-management system has.
    const consumer = await recorder(mosquitto.url, { clean: false, clientId: 'consumer-outage' });
    const { journal, cursor } = await store();
    const bridge = await running(
      makeBridge(mosquitto.url, { journal, cursor }, { info: { game: 'baccarat' } }),
    );
    bridge.setDeviceAvailability('shoe', 'online');

    const total = 40;
    let appended = 0;
    const dealing = (async () => {
      for (; appended < total; appended++) {
        await journal.append([
          { kind: 'event', data: cardEvent(CARDS[appended % CARDS.length]!, appended) },
        ]);
        // fixed wait: emulated timing: the dealer's pace (a card every 40 ms), so the outage falls mid-shoe
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
    })();
    await waitFor(() => consumer.events().length >= 10, 'the first events');
    await mosquitto.stop();
    await waitFor(() => !bridge.isConnected, 'the bridge to notice');
    const cursorDuringOutage = cursor.current;
    const appendedAtOutage = appended;
    await waitFor(() => appended >= appendedAtOutage + 10, 'ten cards dealt during the outage');
    // Nothing can be acknowledged while the broker is down.
    expect(cursor.current).toBe(cursorDuringOutage);
    expect(appended).toBeGreaterThan(15);
    await mosquitto.start();
    await dealing;
    await waitFor(() => consumer.events().length === total, `all ${total} events`, 20_000).catch(
      (error: Error) => {
        const got = consumer.events().map((event) => event.index);
        throw new Error(
          `${error.message}: got ${got.join(',')}; cursor ${cursor.current}, journal ${journal.lastSeq}, connected ${bridge.isConnected}, consumer reconnects ${consumer.reconnects}`,
        );
      },
    );
    const cards = consumer.events().map((event) => event.index);
    expect(cards).toEqual(Array.from({ length: total }, (_, index) => index));
    await waitFor(() => cursor.durable === journal.lastSeq, 'the cursor to catch up');

    const late = await recorder(mosquitto.url);
    await waitFor(
      () => late.messages.filter((message) => message.retain).length >= 3,
      'retained topics',
    );
    expect(late.on('bridge/state').at(-1)?.text).toBe('online');
    expect(late.on('devices/shoe/availability').at(-1)?.text).toBe('online');
  });

  it('republishes every retained topic after a broker restart that lost them', async () => {
    const mosquitto = await broker({ persistence: false });
    const { journal, cursor } = await store();
    const bridge = await running(
      makeBridge(mosquitto.url, { journal, cursor }, { info: { game: 'baccarat' } }),
    );
    bridge.setDeviceAvailability('shoe', 'online');
    bridge.setState({ shoe: { dealt: 3 } });
    await mosquitto.stop();
    await waitFor(() => !bridge.isConnected, 'the bridge to notice');
    await mosquitto.start();
    await waitFor(() => bridge.isConnected, 'the bridge to reconnect');
    const late = await recorder(mosquitto.url);
    await waitFor(
      () => late.messages.filter((message) => message.retain).length >= 4,
      'retained topics',
    );
    expect(late.on('bridge/state').at(-1)?.text).toBe('online');
    expect(late.on('bridge/info').at(-1)?.text).toBe('{"game":"baccarat"}');
    expect(late.on('devices/shoe/availability').at(-1)?.text).toBe('online');
    expect(late.on('state').at(-1)?.text).toBe('{"shoe":{"dealt":3}}');
  });

  it('resumes from the stored cursor after a restart of the bridge', async () => {
    const mosquitto = await broker();
    const consumer = await recorder(mosquitto.url);
    const dir = tempDir();
    let opened = await openStore(dir);
    const first = makeBridge(mosquitto.url, opened);
    await first.start();
    for (let index = 0; index < 5; index++) {
      await opened.journal.append([{ kind: 'event', data: cardEvent(CARDS[index]!, index) }]);
    }
    await waitFor(
      () => opened.cursor.durable === opened.journal.lastSeq,
      'the first five acknowledged',
    );
    const acknowledged = opened.cursor.durable;
    await first.stop();
    // Events journalled while no bridge runs (the daemon between two starts).
    await opened.journal.append([{ kind: 'event', data: cardEvent('KH', 5) }]);
    await opened.journal.close();
    const before = consumer.events().length;

    opened = await openStore(dir);
    cleanups.push(() => opened.journal.close());
    expect(opened.cursor.current).toBe(acknowledged);
    await running(makeBridge(mosquitto.url, opened));
    await opened.journal.append([{ kind: 'event', data: cardEvent('AS', 6) }]);
    await waitFor(() => consumer.events().length === before + 2, 'the two new events');
    const resumed = consumer.messages
      .filter((message) => message.topic.endsWith('/events/card'))
      .map((message) => JSON.parse(message.text).index);
    expect(resumed).toEqual([0, 1, 2, 3, 4, 5, 6]); // nothing twice, nothing missing
  });

  it('does not move the cursor while no broker acknowledges', async () => {
    const mosquitto = await broker();
    await mosquitto.stop();
    const { journal, cursor } = await store();
    const bridge = makeBridge(mosquitto.url, { journal, cursor });
    cleanups.push(() => bridge.stop());
    await bridge.start();
    await journal.append([{ kind: 'event', data: cardEvent('AS', 0) }]);
    // fixed wait: nothing happens: the cursor must not move while no broker acknowledges: only time shows it
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(cursor.current).toBe(0);
    await mosquitto.start();
    await waitFor(() => cursor.durable === journal.lastSeq, 'the cursor to move once acknowledged');
  });

  it('answers requests on bridge/response/<op>, echoing the transaction', async () => {
    const mosquitto = await broker();
    const consumer = await recorder(mosquitto.url);
    const { journal, cursor } = await store();
    const received: BridgeRequest[] = [];
    await running(
      makeBridge(
        mosquitto.url,
        { journal, cursor },
        {
          onRequest: (request) => {
            received.push(request);
            if (request.op === 'void_hand')
              throw Object.assign(new Error('no hand in play'), { code: 'no_hand' });
            if (request.op === 'health_check') return { healthy: true };
            return { accepted: true };
          },
        },
      ),
    );
    const request = (op: string, body: unknown) =>
      consumer.client.publishAsync(`${BASE}/${TABLE}/bridge/request/${op}`, JSON.stringify(body), {
        qos: 1,
      });
    await request('new_round', { transaction: 'tx-1', boxes: [1, 3] });
    await request('health_check', { transaction: 42 });
    await request('void_hand', { transaction: 'tx-3', reason: 'dealer error' });
    await waitFor(
      () =>
        consumer.messages.filter((message) => message.topic.includes('/bridge/response/'))
          .length === 3,
      'three responses',
    );
    expect(JSON.parse(consumer.on('bridge/response/new_round')[0]!.text)).toEqual({
      status: 'ok',
      data: { accepted: true },
      transaction: 'tx-1',
    });
    expect(JSON.parse(consumer.on('bridge/response/health_check')[0]!.text)).toEqual({
      status: 'ok',
      data: { healthy: true },
      transaction: 42,
    });
    expect(JSON.parse(consumer.on('bridge/response/void_hand')[0]!.text)).toEqual({
      status: 'error',
      code: 'no_hand',
      error: 'no hand in play',
      transaction: 'tx-3',
    });
    expect(received).toEqual([
      { op: 'new_round', boxes: [1, 3] },
      { op: 'health_check' },
      { op: 'void_hand', reason: 'dealer error' },
    ]);
  });

  it('answers bad requests with an error naming the problem and calls nothing', async () => {
    const mosquitto = await broker();
    const consumer = await recorder(mosquitto.url);
    const { journal, cursor } = await store();
    let calls = 0;
    await running(makeBridge(mosquitto.url, { journal, cursor }, { onRequest: () => calls++ }));
    const publish = (op: string, text: string) =>
      consumer.client.publishAsync(`${BASE}/${TABLE}/bridge/request/${op}`, text, { qos: 1 });
    await publish('new_round', '{not json');
    await publish('deal_me_an_ace', '{"transaction":"t2"}');
    await publish('player_action', '{"transaction":"t3","box":9,"action":"hit"}');
    await publish('set_ruleset', '{"transaction":"t4","ruleset":"x","extra":1}');
    await publish('void_hand', '[1,2]');
    await waitFor(
      () =>
        consumer.messages.filter((message) => message.topic.includes('/bridge/response/'))
          .length === 5,
      'five responses',
    );
    const response = (op: string) => JSON.parse(consumer.on(`bridge/response/${op}`)[0]!.text);
    expect(response('new_round')).toMatchObject({
      status: 'error',
      code: 'bad_request',
      error: expect.stringContaining('not valid JSON'),
    });
    expect(response('deal_me_an_ace')).toMatchObject({
      status: 'error',
      transaction: 't2',
      error: expect.stringContaining('unknown request "deal_me_an_ace"'),
    });
    expect(response('player_action')).toMatchObject({
      status: 'error',
      transaction: 't3',
      error: expect.stringContaining('box:'),
    });
    expect(response('set_ruleset')).toMatchObject({
      status: 'error',
      transaction: 't4',
      error: expect.stringContaining('unknown field(s) extra'),
    });
    expect(response('void_hand')).toMatchObject({
      status: 'error',
      error: 'payload must be a JSON object',
    });
    expect(calls).toBe(0);
  });

  it('never publishes an event that carries a shuffler order, nor a face-down card value', async () => {
    const mosquitto = await broker();
    const consumer = await recorder(mosquitto.url);
    const { journal, cursor } = await store();
    const withheld: number[] = [];
    const bridge = await running(makeBridge(mosquitto.url, { journal, cursor }));
    bridge.on('withheld', (seq) => withheld.push(seq));
    const [leaky, hole, after] = await journal.append([
      {
        kind: 'event',
        data: {
          type: 'alarm',
          kind: 'shuffle_suspect',
          message: 'x',
          detail: { order: ['AS', 'KD'] },
        },
      },
      { kind: 'event', data: { type: 'card', card: 'KD', to: 'dealer', face: 'down', index: 3 } },
      { kind: 'event', data: cardEvent('2C', 4) },
    ]);
    await waitFor(() => consumer.events().length === 3, 'three events');
    const [notice, hidden, next] = consumer.events();
    expect(notice).toEqual({
      seq: leaky!.seq,
      ts: leaky!.ts,
      type: 'event_withheld',
      reason: expect.stringContaining('detail.order'),
      topic: 'events/alarm',
    });
    expect(hidden).toMatchObject({
      seq: hole!.seq,
      type: 'card',
      card: null,
      hidden: true,
      to: 'dealer',
    });
    expect(next).toMatchObject({ seq: after!.seq, card: '2C' });
    expect(consumer.messages.some((message) => message.text.includes('KD'))).toBe(false);
    expect(withheld).toEqual([leaky!.seq]);
    expect(() => bridge.setState({ shuffler: { order: ['AS'] } })).toThrow(/order/);
  });
});
