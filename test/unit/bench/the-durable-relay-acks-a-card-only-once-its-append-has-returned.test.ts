/**
 * The bench's durable relay (issue 36's baseline) is only a fair floor if it
 * does what a daemon that never loses an ACKed card must: the card is on the
 * disk before its ACK leaves and before it is published. The relay's work
 * (`relay-cards.mjs`) is driven here with a real link session on both ends,
 * a transport and publisher standing in for the pty and the broker, and a
 * store whose append the test completes by hand.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { type LinkAction, LinkSession } from '../../../device-protocol/link.ts';
import type { CardMessage } from '../../../device-protocol/messages.ts';
import { relayCards } from '../../bench/relay-cards.mjs';
import { shoeHello } from '../../helpers/device-hello.ts';
import { until } from '../../helpers/until.ts';

const card: CardMessage = { type: 'CARD', card: 'KH', back: 'red', face: 'up' };

class FakeTransport extends EventEmitter {
  readonly written: string[] = [];
  async write(chunk: Buffer): Promise<void> {
    this.written.push(chunk.toString('latin1'));
  }
}

const lines = (actions: LinkAction[]) =>
  actions.flatMap((action) => (action.kind === 'send' ? [action.line] : []));

function relay(durable: boolean) {
  const transport = new FakeTransport();
  const published: string[] = [];
  const appended: string[] = [];
  const pending: (() => void)[] = [];
  const session = new LinkSession({
    localTalker: 'HO',
    peerTalker: 'SH',
    ...(durable ? { deferAck: ['CARD'] } : {}),
  });
  relayCards({
    session,
    transport: transport as never,
    publisher: { publish: (_topic: string, payload: string) => published.push(payload) } as never,
    cardTopic: 'bench/durable-1/events/card',
    ...(durable
      ? {
          store: {
            append: (line: string) =>
              new Promise<void>((resolve) => {
                appended.push(line);
                pending.push(resolve);
              }),
          },
        }
      : {}),
  });
  const shoe = new LinkSession({ localTalker: 'SH', peerTalker: 'HO' });
  const feed = (actions: LinkAction[]) => {
    for (const line of lines(actions)) transport.emit('data', Buffer.from(line, 'latin1'));
  };
  feed(shoe.send(shoeHello(), 0));
  // The host's ACK of the HELLO back to the shoe, which holds its events until then.
  for (const line of transport.written) shoe.receiveBytes(line, 0);
  expect(shoe.helloAcknowledged).toBe(true);
  const acks = () => transport.written.filter((line) => /,ACK,/.test(line));
  return { transport, published, appended, pending, shoe, feed, acks };
}

describe('the durable relay', () => {
  it('appends a card, and only once the append has returned ACKs and publishes it', async () => {
    const lane = relay(true);
    const acksAfterHello = lane.acks().length;
    lane.feed(lane.shoe.send(card, 1));
    await until(() => lane.appended.length === 1, 'the card appended');
    expect(JSON.parse(lane.appended[0]!)).toMatchObject({ card: 'KH', back: 'red', face: 'up' });
    expect(lane.acks()).toHaveLength(acksAfterHello);
    expect(lane.published).toEqual([]);

    lane.pending.shift()!();
    await until(() => lane.published.length === 1, 'the card published');
    expect(lane.acks()).toHaveLength(acksAfterHello + 1);
    expect(JSON.parse(lane.published[0]!)).toMatchObject({ type: 'card', card: 'KH' });
  });

  it('against the bare relay, which ACKs and publishes at once and writes nothing', () => {
    const lane = relay(false);
    const acksAfterHello = lane.acks().length;
    lane.feed(lane.shoe.send(card, 1));
    expect(lane.appended).toEqual([]);
    expect(lane.acks()).toHaveLength(acksAfterHello + 1);
    expect(lane.published).toHaveLength(1);
  });
});
