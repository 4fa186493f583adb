/**
 * Issue 24 item 6, the sequence the line captures showed (PROTOCOL.md § 5.2):
 * a paired 1.4 shoe's PROOF arrives corrupted, so the host keeps challenging
 * that connection's HELLO; the cable is pulled twice in quick succession (the
 * shoe's HELLO of the first reopen goes into the dead line); on the next
 * connection the shoe sends that unacknowledged HELLO again, and the host's
 * CHALLENGE of the old HELLO reaches it before the host has read the new
 * one. The shoe answered that stale CHALLENGE and derived session keys, so it
 * refused the host's plain ACK of its HELLO; each retransmission of the
 * unchanged HELLO then started another handshake with another plain ACK, and
 * no card was journaled again, through further pulls and a daemon restart.
 *
 * Pure parts on a simulated line with a virtual clock (auth-pair.ts).
 */
import { describe, expect, it } from 'vitest';
import { createRandom } from '../../../simulators/random.ts';
import { AuthPair } from '../../property/protocol/auth-pair.ts';
import { corrupt } from '../../property/protocol/window-drill.ts';

async function stuckSequence() {
  const pair = await AuthPair.create();
  const random = createRandom(24).float;
  let corruptProofs = true;
  pair.fault = ({ type, line }) =>
    type === 'PROOF' && corruptProofs ? corrupt(line, random) : line;
  pair.open();
  for (let index = 0; index < 3; index++) pair.deal();
  pair.runUntil(100);
  // The PROOF arrived corrupted: the host still waits for it, the shoe holds its cards.
  expect(pair.hostAuth.state).toBe('handshake');
  expect(pair.stored).toEqual([]);

  // Pulled; the shoe's end reopens into the dead line: a new HELLO, lost.
  pair.pull();
  pair.runUntil(150);
  pair.shoeOpens();
  pair.runUntil(400);
  // Plugged again: the shoe sends that HELLO again (it was never ACKed). The host reads
  // it 150 ms late, so its CHALLENGE of the old HELLO, sent again on its timer at 500 ms,
  // reaches the shoe first.
  pair.plug();
  pair.hop = (to) => (to === 'host' ? 150 : 1);
  pair.shoeOpens();
  pair.runUntil(600);
  // The CHALLENGE of the first connection's HELLO went out again while the new HELLO was on its way.
  const challenges = pair.written.filter((line) => line.type === 'CHALLENGE');
  const stale = challenges.find((line) => line.at > 400 && line.at < 550);
  expect(stale?.line).toBe(challenges[0]!.line);
  pair.hop = () => 1;
  corruptProofs = false;
  return pair;
}

describe('a paired shoe whose HELLO met a stale CHALLENGE', () => {
  it('has that HELLO ACKed and journals every card it held, once and in order', async () => {
    const pair = await stuckSequence();
    pair.runUntil(10_000);
    expect(pair.shoeHelloAcknowledged).toBe(true);
    expect(pair.hostAuth.state).toBe('authenticated');
    expect(pair.stored).toEqual(pair.expected);
    expect(pair.shoeSettled).toBe(true);
    // Not a HELLO a few hundred times: a handful at most.
    expect(
      pair.written.filter((line) => line.type === 'HELLO' && line.from === 'shoe').length,
    ).toBeLessThan(10);
  });

  it('recovers after a daemon restart in the middle of it too', async () => {
    const pair = await stuckSequence();
    pair.runUntil(1_500);
    pair.restartHost();
    pair.hostOpens();
    pair.runUntil(12_000);
    expect(pair.shoeHelloAcknowledged).toBe(true);
    expect(pair.stored).toEqual(pair.expected);
    expect(pair.shoeSettled).toBe(true);
  });
});
