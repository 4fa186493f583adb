/**
 * Issue 34 item 5: after a cable pull the genuine shoe sends again, without
 * a MAC, what it owes from the old connection (PONGs to the host's PINGs)
 * before its new session has keys. Those raised `device_unauthenticated`
 * ("PONG 305 carries no MAC") against the genuine shoe. A frame that deals
 * nothing is dropped quietly now (PROTOCOL.md § 5.4); a rogue's unsealed
 * CARD is still refused with an alarm. Virtual time (auth-pair.ts).
 */
import { describe, expect, it } from 'vitest';
import { encodeFrame } from '../../../device-protocol/frame.ts';
import { messageFrame } from '../../../device-protocol/messages.ts';
import { AuthPair } from '../../property/protocol/auth-pair.ts';
import { card } from '../../property/protocol/window-drill.ts';

const unauthenticated = (pair: AuthPair) =>
  pair.alarms.filter((alarm) => alarm.startsWith('device_unauthenticated'));

describe('a re-seated cable', () => {
  it('raises no security alarm, while a rogue unsealed card still does', async () => {
    const pair = await AuthPair.create();
    pair.open();
    pair.runUntil(500);
    pair.deal();
    pair.runUntil(990);
    // The host PINGs at 1 s; the shoe's PONG is on its way back when the cable is pulled.
    let pulled = false;
    pair.onWrite = ({ from, type }) => {
      if (!pulled && from === 'shoe' && type === 'PONG') {
        pulled = true;
        pair.pull();
      }
    };
    pair.runUntil(1_100);
    expect(pulled).toBe(true);
    pair.onWrite = () => undefined;
    pair.runUntil(3_000);
    pair.plug();
    // The shoe's end reopens first: its HELLO and what it owes, PONG included, unsealed.
    // Its first HELLO goes into a port not yet reading: the PONG reaches the host before any.
    let helloLost = false;
    pair.fault = ({ to, type, line }) => {
      if (!helloLost && to === 'host' && type === 'HELLO') {
        helloLost = true;
        return undefined;
      }
      return line;
    };
    pair.shoeOpens();
    pair.runUntil(3_002);
    const resentPong = pair.written.some(
      (w) => w.from === 'shoe' && w.type === 'PONG' && w.at >= 3_000 && !w.line.includes(',~'),
    );
    expect(resentPong).toBe(true);
    expect(helloLost).toBe(true);
    pair.deal();
    pair.runUntil(15_000);
    expect(pair.stored).toEqual(pair.expected);
    expect(unauthenticated(pair)).toEqual([]);

    pair.rogueWrites(encodeFrame(messageFrame('SH', 900, card(60))));
    pair.runUntil(16_000);
    expect(unauthenticated(pair)).toHaveLength(1);
    expect(unauthenticated(pair)[0]).toContain('missing mac');
  });
});
