/**
 * The retained `state` of a table follows its journal: the bridge reads the
 * snapshot as its events catch up with the journal and publishes it in the
 * same socket write as those events (issue 36: one write and one wake-up of
 * the broker per card, not a second one a turn later). Real mosquitto; the
 * bridge's socket writes are read where Node hands them to the socket.
 */
import { Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
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
const cleanup = { add: (stop: () => Promise<unknown>) => cleanups.push(stop) };
afterEach(async () => {
  vi.restoreAllMocks();
  for (const stop of cleanups.splice(0).reverse()) await stop().catch(() => undefined);
});

/** Every chunk list a socket of this process wrote, as latin1 text, in order. */
function socketWrites(): string[] {
  const writes: string[] = [];
  const text = (chunk: unknown) =>
    Buffer.isBuffer(chunk) ? chunk.toString('latin1') : String(chunk);
  const writev = Socket.prototype._writev!;
  const write = Socket.prototype._write;
  vi.spyOn(Socket.prototype, '_writev').mockImplementation(function (this: Socket, chunks, done) {
    writes.push(chunks.map(({ chunk }) => text(chunk)).join(''));
    return writev.call(this, chunks, done);
  });
  vi.spyOn(Socket.prototype, '_write').mockImplementation(function (
    this: Socket,
    chunk,
    encoding,
    done,
  ) {
    writes.push(text(chunk));
    return write.call(this, chunk, encoding, done);
  });
  return writes;
}

describe('the followed table state', () => {
  it('goes out in the socket write of the card events that changed it, and is retained', async () => {
    const broker = await startTestBroker();
    cleanup.add(() => broker.close());
    const consumer = await Recorder.connect(broker.url);
    cleanup.add(() => consumer.close());
    const { journal, cursor } = await openStore(tempDir());
    cleanup.add(() => journal.close());
    const bridge = makeBridge(broker.url, { journal, cursor });
    cleanup.add(() => bridge.stop());
    let dealt = 0;
    bridge.followState(() => ({ shoe: { dealt } }));
    await bridge.start();
    await waitFor(() => bridge.isConnected, 'the bridge to connect');
    await waitFor(
      () => consumer.on('state').some((message) => message.text === '{"shoe":{"dealt":0}}'),
      'the state at connect',
    );

    const writes = socketWrites();
    for (const [index, card] of (['9H', '2C', 'TD'] as const).entries()) {
      dealt++;
      await journal.append([
        { kind: 'input', data: { t: 'card', card, back: 'red', face: 'up' } },
        { kind: 'event', data: cardEvent(card, index) },
      ]);
      await waitFor(
        () =>
          consumer.on('state').some((message) => message.text === `{"shoe":{"dealt":${dealt}}}`),
        `the state after card ${dealt}`,
      );
    }

    const cardTopic = `${BASE}/${TABLE}/events/card`;
    const stateTopic = `${BASE}/${TABLE}/state`;
    const carrying = writes.filter(
      (write) => write.includes(cardTopic) || write.includes(stateTopic),
    );
    // One write per card, each with its event first and the state it made after it.
    expect(carrying).toHaveLength(3);
    for (const [index, write] of carrying.entries()) {
      expect(write.indexOf(cardTopic)).toBeGreaterThanOrEqual(0);
      expect(write.indexOf(stateTopic)).toBeGreaterThan(write.indexOf(cardTopic));
      expect(write).toContain(`{"shoe":{"dealt":${index + 1}}}`);
    }
    // A subscriber that comes later gets the last one, retained.
    const late = await Recorder.connect(broker.url);
    cleanup.add(() => late.close());
    await waitFor(() => late.on('state').some((message) => message.retain), 'the retained state');
    expect(late.on('state').find((message) => message.retain)?.text).toBe('{"shoe":{"dealt":3}}');
  });
});
