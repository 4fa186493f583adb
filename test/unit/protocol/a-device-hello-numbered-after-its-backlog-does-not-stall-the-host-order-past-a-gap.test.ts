/**
 * Found by the link endpoint fuzz (test/fuzz/, seed 1886): a shoe that
 * restarts with events its outbox read back but never sent queues them
 * before its line opens, so its HELLO takes the seq after all of them. The
 * host delivers that HELLO ahead of the order and skips its seq when the
 * order reaches it; but when events arrive so far past a missing seq that
 * the host gives up waiting (`order_gap`), it forgot the HELLO's seq, and
 * then waited for it for ever: the shoe fills the hole with a PING the host
 * takes for a copy of the HELLO, and its window never drains.
 */
import { describe, expect, it } from 'vitest';
import { encodeFrame } from '../../../device-protocol/frame.ts';
import { type LinkAction, LinkSession } from '../../../device-protocol/link.ts';
import { type Message, messageFrame } from '../../../device-protocol/messages.ts';

const HELLO: Message = {
  type: 'HELLO',
  model: 'TS-SHOE-2',
  serial: 'SH0042',
  protocol: '1.2',
  firmware: '2.3.1',
  firmwareSha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
};
const card = (seq: number): Message => ({
  type: 'CARD',
  card: (['AS', 'KH', 'QD', '2C'] as const)[seq % 4]!,
  back: 'red',
  face: 'down',
});

describe('a device HELLO numbered after its backlog', () => {
  it('is skipped when the order reaches it, after the host gave up on a gap', () => {
    const host = new LinkSession({ localTalker: 'HO', peerTalker: 'SH', deferAck: ['CARD'] });
    const delivered: number[] = [];
    const from = (seq: number, message: Message) => {
      const actions: LinkAction[] = host.receiveBytes(
        encodeFrame(messageFrame('SH', seq, message)),
        seq,
      );
      for (const action of actions) {
        if (action.kind === 'deliver' && action.message.type === 'CARD') delivered.push(action.seq);
      }
    };
    // Restored: seq 1 went out before the restart; 45-76 were queued before the HELLO (77).
    from(77, HELLO);
    from(1, card(1));
    for (let seq = 45; seq <= 76; seq++) from(seq, card(seq));
    expect(delivered).toEqual([1, ...Array.from({ length: 32 }, (_, index) => 45 + index)]);
    // The first event dealt after the HELLO.
    from(78, card(78));
    expect(delivered.at(-1)).toBe(78);
  });
});
