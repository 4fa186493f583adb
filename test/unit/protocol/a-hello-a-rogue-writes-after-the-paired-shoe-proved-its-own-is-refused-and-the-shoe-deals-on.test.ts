/**
 * Issue 24 item 6 and issue 33 item 1, the forged HELLO (PROTOCOL.md § 5.2,
 * § 5.4): HELLO carries no MAC. A rogue (or line noise that kept its CRC)
 * writes a HELLO unlike the paired shoe's after the shoe's was proven: one
 * announcing 1.2, one with a firmware hash off the allow-list, or the shoe's
 * own with a byte changed. From 1.7 a HELLO no PROOF covers changes nothing:
 * the host refuses it (an `unproven_hello` report, an alarm), a 1.7 one after
 * a CHALLENGE the shoe answers for its own HELLO; the shoe deals on, nothing
 * of the rogue's is dealt, and nothing is quarantined. Virtual time, the
 * pure parts as the driver composes them (auth-pair.ts).
 */
import { describe, expect, it } from 'vitest';
import { encodeFrame, parseFrameLine } from '../../../device-protocol/frame.ts';
import { type HelloMessage, messageFrame } from '../../../device-protocol/messages.ts';
import { AuthPair, SHOE_HELLO } from '../../property/protocol/auth-pair.ts';
import { card } from '../../property/protocol/window-drill.ts';

/** The shoe's HELLO with one byte of its firmware version changed and its CRC made right. */
function garbledHello(): string {
  const event = parseFrameLine(encodeFrame(messageFrame('SH', 0, SHOE_HELLO)));
  if (event.kind !== 'frame') throw new Error('the HELLO does not parse');
  const fields = event.frame.fields.map((field) => (field === '2.3.1' ? '2.3.7' : field));
  return encodeFrame({ ...event.frame, fields });
}

const ROGUE_HELLOS: Array<[string, () => string]> = [
  ['announcing 1.2', () => encodeFrame(messageFrame('SH', 0, { ...SHOE_HELLO, protocol: '1.2' }))],
  [
    'with a firmware hash off the allow-list',
    () =>
      encodeFrame(
        messageFrame('SH', 0, { ...SHOE_HELLO, firmwareSha256: 'f'.repeat(64) } as HelloMessage),
      ),
  ],
  ['garbled past its CRC', garbledHello],
];

const isHelloNak = (line: string) => /^\$HO,\d+,NAK,\d*,hello\*/.test(line);

/** A paired shoe on a clean line, its firmware allowed, that has dealt three cards. */
async function dealingPair(): Promise<AuthPair> {
  const pair = await AuthPair.create();
  pair.allowedFirmware = { [SHOE_HELLO.model]: [SHOE_HELLO.firmwareSha256] };
  pair.open();
  for (let dealt = 0; dealt < 3; dealt++) {
    pair.deal();
    pair.runUntil(pair.now + 50);
  }
  pair.runUntil(pair.now + 1_000);
  expect(pair.stored).toEqual(pair.expected);
  expect(pair.hostAuth.state).toBe('authenticated');
  return pair;
}

describe('a paired shoe whose ACKed HELLO a rogue replaced', () => {
  it.each(ROGUE_HELLOS)('by a HELLO %s has it refused and deals on', async (_, rogueHello) => {
    const pair = await dealingPair();
    const forgedAt = pair.now;
    pair.rogueWrites(rogueHello());
    // The rogue's cards (blue backs: the shoe deals red ones) after its HELLO.
    for (let seq = 1; seq <= 3; seq++) {
      pair.rogueWrites(encodeFrame(messageFrame('SH', seq, card(52 + seq))));
    }
    pair.runUntil(forgedAt + 100);
    for (let dealt = 0; dealt < 3; dealt++) {
      pair.deal();
      pair.runUntil(pair.now + 50);
    }
    pair.runUntil(forgedAt + 40_000);

    expect(pair.hostAuth.state).toBe('authenticated');
    expect(pair.stored).toEqual(pair.expected);
    expect(pair.stored.filter((dealt) => dealt.endsWith('/blue'))).toEqual([]);
    expect(pair.refused).toEqual([]);
    expect(pair.shoeSettled).toBe(true);
    expect(pair.hostAuth.refused.unproven_hello).toBe(1);
    expect(pair.alarms.filter((alarm) => alarm.startsWith('device_quarantined'))).toEqual([]);
    // Nothing to ask again: the shoe's own HELLO stands.
    expect(pair.written.filter((w) => w.from === 'host' && isHelloNak(w.line))).toEqual([]);
  });

  it('stays quarantined when it proves its key with a HELLO whose firmware is not allowed', async () => {
    const pair = await AuthPair.create();
    pair.allowedFirmware = { [SHOE_HELLO.model]: ['0'.repeat(64)] };
    pair.open();
    for (let dealt = 0; dealt < 3; dealt++) {
      pair.deal();
      pair.runUntil(pair.now + 50);
    }
    pair.runUntil(pair.now + 60_000);
    expect(pair.hostAuth.state).toBe('authenticated');
    expect(pair.stored).toEqual([]);
    expect(pair.refused).toEqual(pair.expected);
    // A verdict on a proven HELLO: nothing to ask again.
    expect(pair.written.filter((w) => w.from === 'host' && isHelloNak(w.line))).toEqual([]);
  });
});
