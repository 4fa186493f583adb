/**
 * A card costs the daemon and the broker one socket write, not two: the
 * retained snapshot (and roads, and journal head) set by a durable listener
 * that runs before the bridge's goes out in the bridge's write of the
 * events, after them. Set outside a durable turn, it still goes out, at the
 * end of the turn. Counted on the bridge's real TCP socket to a real broker.
 */
import { Socket } from 'node:net';
import { afterEach, expect, it } from 'vitest';
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
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

/** Every write a socket to `port` hands the kernel, as the bytes of its chunks joined. */
function recordSocketWrites(port: number): { writes: Buffer[]; restore: () => void } {
  const writes: Buffer[] = [];
  const prototype = Socket.prototype as unknown as {
    _writev: (chunks: { chunk: Buffer | string }[], cb: () => void) => void;
    _write: (chunk: Buffer | string, encoding: BufferEncoding, cb: () => void) => void;
  };
  const { _writev, _write } = prototype;
  const toPort = (socket: Socket) => socket.remotePort === port;
  prototype._writev = function (this: Socket, chunks, cb) {
    if (toPort(this)) writes.push(Buffer.concat(chunks.map(({ chunk }) => Buffer.from(chunk))));
    return _writev.call(this, chunks, cb);
  };
  prototype._write = function (this: Socket, chunk, encoding, cb) {
    if (toPort(this)) writes.push(Buffer.from(chunk));
    return _write.call(this, chunk, encoding, cb);
  };
  return {
    writes,
    restore: () => {
      prototype._writev = _writev;
      prototype._write = _write;
    },
  };
}

/** A journal, its bridge (not started) and a consumer of every table topic, on a real broker. */
async function tableOnABroker() {
  const broker = await startTestBroker();
  cleanups.push(() => broker.close());
  const { journal, cursor } = await openStore(tempDir());
  cleanups.push(() => journal.close());
  const consumer = await Recorder.connect(broker.url);
  cleanups.push(() => consumer.close());
  return { broker, journal, consumer, bridge: makeBridge(broker.url, { journal, cursor }) };
}

it('sends the snapshot set as a card becomes durable in the same write as its event, after it', async () => {
  const { broker, journal, consumer, bridge } = await tableOnABroker();
  // The daemon's listener: registered before the bridge starts, as TableDaemon does.
  let dealt = 0;
  journal.onDurable(() => bridge.setState({ shoe: { dealt } }));
  cleanups.push(() => bridge.stop());
  await bridge.start();
  await waitFor(() => bridge.isConnected, 'the bridge to connect');
  await waitFor(
    () => consumer.messages.some((message) => message.text === 'online'),
    'bridge/state online',
  );

  const recorded = recordSocketWrites(Number(new URL(broker.url).port));
  cleanups.push(async () => recorded.restore());
  dealt = 1;
  await journal.append([{ kind: 'event', data: cardEvent('9H', 0) }]);
  await waitFor(() => bridge.acknowledgedSeq >= journal.lastSeq, 'the card to be acknowledged');
  recorded.restore();

  const carrying = (text: string) => recorded.writes.filter((write) => write.includes(text));
  const eventTopic = `${BASE}/${TABLE}/events/card`;
  const stateTopic = `${BASE}/${TABLE}/state`;
  expect(carrying(eventTopic)).toHaveLength(1);
  const [write] = carrying(eventTopic);
  expect(write!.includes(stateTopic)).toBe(true);
  expect(write!.indexOf(eventTopic)).toBeLessThan(write!.indexOf(stateTopic));
  // Nothing else went out for the card: its event and the snapshot, one write.
  expect(recorded.writes.filter((each) => each.includes(stateTopic))).toHaveLength(1);

  await waitFor(
    () =>
      consumer.messages.some(
        (message) => message.topic === stateTopic && message.text.includes('"dealt":1'),
      ),
    'the snapshot at the consumer',
  );
  const order = consumer.messages
    .filter((message) => message.topic === eventTopic || message.text.includes('"dealt":1'))
    .map((message) => message.topic);
  expect(order).toEqual([eventTopic, stateTopic]);
});

it('still sends a snapshot set outside a durable turn, once, with the latest value', async () => {
  const { journal, consumer, bridge } = await tableOnABroker();
  cleanups.push(() => bridge.stop());
  await bridge.start();
  await waitFor(() => bridge.isConnected, 'the bridge to connect');

  const stateTopic = `${BASE}/${TABLE}/state`;
  bridge.setState({ shoe: { dealt: 1 } });
  bridge.setState({ shoe: { dealt: 2 } });
  await waitFor(
    () => consumer.messages.some((message) => message.topic === stateTopic),
    'the snapshot at the consumer',
  );
  await journal.append([{ kind: 'event', data: cardEvent('2C', 1) }]);
  await waitFor(() => bridge.acknowledgedSeq >= journal.lastSeq, 'the card to be acknowledged');
  // Only the latest of two set in one turn: a view, not a log.
  expect(
    consumer.messages.filter((message) => message.topic === stateTopic).map((each) => each.text),
  ).toEqual([JSON.stringify({ shoe: { dealt: 2 } })]);
});
