/**
 * A PROOF garbled on the line so that its CRC still matches (several bytes
 * changed: one in 65,536 such lines) no longer decodes: the host quarantines
 * the shoe at once (`bad_proof`). It used to forget the CHALLENGE too, and a
 * shoe whose HELLO was ACKed never says HELLO again: quarantined for good,
 * its cards held. The host keeps asking, slowly, as for a PROOF that never
 * came (PROTOCOL.md § 5.2): the same CHALLENGE gets the same PROOF, intact
 * this time, and the shoe deals. Pure parts on a simulated line (auth-pair.ts).
 */
import { describe, expect, it } from 'vitest';
import { encodeFrame, parseFrameLine } from '../../../device-protocol/frame.ts';
import { AuthPair } from '../../property/protocol/auth-pair.ts';

/** The PROOF with its signature cut short, re-framed: a valid CRC over broken fields. */
function garbled(line: string): string {
  const event = parseFrameLine(line);
  if (event.kind !== 'frame') throw new Error(`not a frame: ${line}`);
  const fields = [...event.frame.fields];
  fields[4] = fields[4]!.slice(0, 40);
  return encodeFrame({ ...event.frame, fields });
}

describe('a paired shoe whose PROOF was garbled past its CRC', () => {
  it('is quarantined, challenged again, and then journals every card once, in order', async () => {
    const pair = await AuthPair.create();
    let proofs = 0;
    pair.fault = ({ type, line }) => (type === 'PROOF' && proofs++ === 0 ? garbled(line) : line);
    pair.open();
    for (let index = 0; index < 3; index++) pair.deal();
    pair.runUntil(100);
    expect(pair.hostAuth.state).toBe('failed');
    expect(pair.alarms).toEqual([expect.stringMatching(/^device_quarantined: .*bad proof/)]);

    pair.runUntil(10_000);
    expect(pair.hostAuth.state).toBe('authenticated');
    expect(pair.stored).toEqual(pair.expected);
    expect(pair.shoeSettled).toBe(true);
    // One alarm for the one bad PROOF, and one when the good PROOF lifted the quarantine.
    expect(pair.alarms).toEqual([
      expect.stringMatching(/^device_quarantined: .*bad proof/),
      expect.stringMatching(/^device_requalified: shoe proved its paired key again/),
    ]);
  });
});
