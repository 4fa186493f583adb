/**
 * The retained `state` snapshot follows the table: the bridge takes it (its
 * `state` option: the daemon's session snapshot) with each batch of events
 * that brings it to the journal's end and publishes it in that batch's
 * socket write, so a card costs one write to the broker and one wake-up for
 * its answers, not two (issue 27 item 6). A connect publishes it too, and a
 * snapshot the guard refuses (a shuffler order) is withheld, the events not.
 * A real broker; the bridge's socket is watched for its writes.
 */
import type { MqttClient } from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import type { MqttBridge } from '../../../firmware-host/mqtt/bridge.ts';
import { startTestBroker } from '../../helpers/broker.ts';
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
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Every chunk list the bridge's socket was handed in one write, as text. */
function socketWrites(bridge: MqttBridge): string[] {
  const stream = (bridge as unknown as { client: MqttClient }).client.stream as unknown as {
    _write(chunk: Buffer, encoding: string, done: () => void): void;
    _writev(chunks: { chunk: Buffer }[], done: () => void): void;
  };
  const writes: string[] = [];
  const write = stream._write.bind(stream);
  const writev = stream._writev.bind(stream);
  stream._write = (chunk, encoding, done) => {
    writes.push(chunk.toString('latin1'));
    write(chunk, encoding, done);
  };
  stream._writev = (chunks, done) => {
    writes.push(chunks.map(({ chunk }) => chunk.toString('latin1')).join(''));
    writev(chunks, done);
  };
  return writes;
}

async function table(snapshot: () => Record<string, unknown>) {
  const broker = await startTestBroker();
  cleanups.push(() => broker.close());
  const consumer = await Recorder.connect(broker.url);
  cleanups.push(() => consumer.close());
  const { journal, cursor } = await openStore(tempDir());
  cleanups.push(() => journal.close());
  const bridge = makeBridge(broker.url, { journal, cursor }, { state: snapshot });
  cleanups.push(() => bridge.stop());
  await bridge.start();
  await waitFor(() => bridge.isConnected, 'the bridge to connect');
  return { bridge, consumer, journal };
}

const states = (consumer: Recorder) =>
  consumer.on('state').map((message) => JSON.parse(message.text) as Record<string, unknown>);

describe("the table's retained state", () => {
  it('is published at connect and in the same socket write as the events that changed it', async () => {
    let dealt = 0;
    const { bridge, consumer, journal } = await table(() => ({ shoe: { dealt } }));
    await waitFor(() => states(consumer).length > 0, 'the state published at connect');
    expect(states(consumer).at(-1)).toEqual({ shoe: { dealt: 0 } });
    const atConnect = states(consumer).length;

    const writes = socketWrites(bridge);
    dealt = 1;
    await journal.append([
      { kind: 'input', data: { t: 'card', card: '9H', back: 'red', face: 'up' } },
      { kind: 'event', data: cardEvent('9H', 0) },
    ]);
    await waitFor(() => states(consumer).length > atConnect, 'the state after the card');
    expect(states(consumer).slice(atConnect)).toEqual([{ shoe: { dealt: 1 } }]);
    expect(consumer.events().map((event) => event.card)).toEqual(['9H']);
    const together = writes.filter(
      (text) =>
        text.includes(`${BASE}/${TABLE}/events/card`) && text.includes(`${BASE}/${TABLE}/state`),
    );
    expect(together).toHaveLength(1);
    // The event first: a consumer of both sees the card before the view that counts it.
    expect(together[0]!.indexOf('/events/card')).toBeLessThan(together[0]!.indexOf('/state'));
  });

  it('is withheld when it carries a shuffler order, and the events still go out', async () => {
    const { consumer, journal } = await table(() => ({ shoe: { order: ['AS'] } }));
    await journal.append([{ kind: 'event', data: cardEvent('2C', 0) }]);
    await waitFor(() => consumer.events().length === 1, 'the card event');
    expect(consumer.on('state')).toEqual([]);
    expect(consumer.messages.some((message) => message.text.includes('order'))).toBe(false);
  });
});
