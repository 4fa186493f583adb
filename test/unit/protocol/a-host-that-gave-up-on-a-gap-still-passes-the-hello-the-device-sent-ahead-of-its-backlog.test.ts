/**
 * PROTOCOL.md § 3.8: a 1.2 device's HELLO, PING and PONG run ahead of
 * its backlog, and the host's order skips their seqs when it reaches them.
 * When the host gave up on a gap (an event far past the one it waited for,
 * `order_gap`), it forgot those seqs too: reaching the seq of the device's
 * HELLO it NAKed it `missing`, and the PING the device fills such a hole
 * with is a copy of a seq already received, ACKed and never passed. The
 * order waited there for good (found by the whole-endpoint fuzz, a shoe
 * restarting with its outbox behind a backlog).
 */
import { expect, it } from 'vitest';
import { encodeFrame } from '../../../device-protocol/frame.ts';
import { type LinkAction, LinkSession } from '../../../device-protocol/link.ts';
import { type Message, messageFrame } from '../../../device-protocol/messages.ts';
import { shoeHello } from '../../helpers/device-hello.ts';

const line = (seq: number, message: Message) => encodeFrame(messageFrame('SH', seq, message));
const cardAt = (seq: number) => line(seq, { type: 'CARD', card: 'AS', back: 'red', face: 'down' });
const deliveredSeqs = (actions: readonly LinkAction[]) =>
  actions.flatMap((action) => (action.kind === 'deliver' ? [action.seq] : []));

it('a host that gave up on a gap still passes the HELLO the device sent ahead of its backlog', () => {
  const host = new LinkSession({ localTalker: 'HO', peerTalker: 'SH' });
  // The device restarted: its HELLO took seq 100, ahead of the backlog it kept (seq 1, then 80 on).
  expect(deliveredSeqs(host.receiveBytes(line(100, shoeHello('1.2')), 0))).toEqual([100]);
  expect(deliveredSeqs(host.receiveBytes(cardAt(1), 1))).toEqual([1]);
  // Far past the next seq (2): the host stops waiting and goes on from 80.
  const gap = host.receiveBytes(cardAt(80), 2);
  expect(gap).toContainEqual(expect.objectContaining({ kind: 'discarded', reason: 'order_gap' }));
  for (let seq = 81; seq < 100; seq++) {
    expect(deliveredSeqs(host.receiveBytes(cardAt(seq), 3))).toEqual([seq]);
  }
  // The order reaches the HELLO's seq: passed, not waited for.
  expect(deliveredSeqs(host.receiveBytes(cardAt(101), 4))).toEqual([101]);
});
