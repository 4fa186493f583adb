/**
 * PROTOCOL.md § 5.2: while the host waits for a device's PROOF it drops the
 * device's events. A device without a key sends them right after its HELLO
 * is ACKed, before its `PROOF,none` crosses the CHALLENGE; the host then
 * NAKs each one it dropped (`before_proof`) as soon as the handshake is over,
 * so the device sends it again at once instead of after its ACK timeout.
 */
import { describe, expect, it } from 'vitest';
import { DeviceAuth } from '../../../device-protocol/auth/device-side-auth.ts';
import {
  HostEndpoint,
  type HostEndpointAction,
} from '../../../device-protocol/endpoint/host-endpoint.ts';
import { encodeFrame, messageFrame, parseFrameLine } from '../../../device-protocol/index.ts';
import type { CardMessage } from '../../../device-protocol/messages.ts';
import { freshHandshakeSecrets, processHostKey } from '../../../hardware/keys/device-key.ts';
import { shoeHello } from '../../helpers/device-hello.ts';

const HELLO = shoeHello('1.7');
const frame = (seq: number, message: Parameters<typeof messageFrame>[2]): string =>
  encodeFrame(messageFrame('SH', seq, message));

/** The host's end of the line, as a driver runs it, and what it did. */
function hostEnd() {
  const host = new HostEndpoint({
    peer: 'SH',
    hostKey: processHostKey(),
    fresh: freshHandshakeSecrets,
  });
  const written: string[] = [];
  const delivered: string[] = [];
  const dropped: number[] = [];
  const reports: string[] = [];
  const take = (actions: HostEndpointAction[]) => {
    for (const action of actions) {
      if (action.kind === 'write') written.push(action.line);
      else if (action.kind === 'deliver') delivered.push(action.message.type);
      else if (action.kind === 'auth') {
        reports.push(action.report.kind);
        if (action.report.kind === 'dropped') dropped.push(action.report.seq ?? -1);
      }
    }
  };
  const receive = (line: string, now: number) => take(host.receive(line, now));
  /** The seqs asked for again: NAKs `before_proof` written since `from`. */
  const askedAgain = (from = 0) =>
    written
      .slice(from)
      .map((line) => parseFrameLine(line))
      .flatMap((event) =>
        event.kind === 'frame' &&
        event.frame.type === 'NAK' &&
        event.frame.fields[1] === 'before_proof'
          ? [Number(event.frame.fields[0])]
          : [],
      );
  return { host, receive, written, delivered, dropped, reports, askedAgain };
}

function proofNoneFor(challengeLine: string): string {
  const device = new DeviceAuth({ talker: 'SH', fresh: freshHandshakeSecrets });
  device.helloSent(HELLO);
  const proof = device.incoming(parseFrameLine(challengeLine)).find((a) => a.kind === 'write');
  if (proof?.kind !== 'write') throw new Error('the keyless device wrote no PROOF');
  expect(proof.line).toContain('PROOF,none');
  return proof.line;
}

describe('events dropped while the host awaited the PROOF', () => {
  it('are asked for again, each once, as soon as the PROOF came', () => {
    const { receive, written, delivered, dropped, reports, askedAgain } = hostEnd();
    receive(frame(7, HELLO), 0);
    expect(reports).toContain('challenging');
    const challenge = written.find((line) => line.includes('CHALLENGE'));
    expect(challenge).toBeDefined();
    // Two cards before the PROOF, one of them twice: dropped, not delivered.
    const card = (code: CardMessage['card']): CardMessage => ({
      type: 'CARD',
      card: code,
      back: 'red',
      face: 'down',
    });
    receive(frame(8, card('AS')), 1);
    receive(frame(9, card('KD')), 1);
    receive(frame(8, card('AS')), 2);
    // The HELLO itself waits for the handshake's end too (PROTOCOL.md § 5.2).
    expect(delivered).toEqual([]);
    expect(askedAgain()).toEqual([]);
    receive(proofNoneFor(challenge!), 3);
    expect(delivered).toEqual(['HELLO']);
    expect(reports.at(-1)).toBe('unauthenticated');
    expect(askedAgain()).toEqual([8, 9]);
    expect(dropped).toEqual([8, 9, 8]);
  });

  it('are not NAKed when they arrive corrupted, but counted and asked for once the PROOF came', () => {
    const { host, receive, written, delivered, askedAgain } = hostEnd();
    receive(frame(7, HELLO), 0);
    const challenge = written.find((line) => line.includes('CHALLENGE'));
    // A card whose CRC no longer matches (its head still reads SH,8), and a line
    // whose head is gone: the link session would NAK both, and the copies it asked
    // for would be dropped too (a NAK without seq sends everything again).
    const corrupted = '$SH,8,CARD,AS,red,dawn*0000\r\n';
    const headless = '$XH,9,PONG*0000\r\n';
    const before = written.length;
    receive(corrupted, 1);
    receive(headless, 1);
    expect(delivered).toEqual([]);
    expect(written.length).toBe(before);
    expect(host.stats.discarded.bad_crc + host.stats.discarded.malformed).toBe(2);
    receive(proofNoneFor(challenge!), 3);
    expect(askedAgain()).toEqual([8]);
    // Once the handshake is over, a corrupted line goes to the link session, to be NAKed.
    const after = written.length;
    receive(corrupted, 4);
    expect(written.slice(after).map((line) => line.split('*')[0])).toEqual([
      expect.stringMatching(/^\$HO,\d+,NAK,8,bad_crc$/),
    ]);
  });

  it('are not asked for after a new HELLO: the device sends everything again by itself', () => {
    const { receive, written, askedAgain } = hostEnd();
    receive(frame(7, HELLO), 0);
    receive(frame(8, { type: 'CARD', card: 'AS', back: 'red', face: 'down' } as CardMessage), 1);
    const from = written.length;
    receive(frame(9, HELLO), 2);
    const challenge = written.slice(from).find((line) => line.includes('CHALLENGE'));
    receive(proofNoneFor(challenge!), 3);
    expect(askedAgain()).toEqual([]);
  });
});
