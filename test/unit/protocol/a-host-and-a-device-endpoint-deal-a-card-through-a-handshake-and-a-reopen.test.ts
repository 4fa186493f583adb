/**
 * The link endpoint's contract (device-protocol/endpoint/): bytes and time
 * in, actions out. A paired device and its host, wired line to line with no
 * clock but the one passed in: the HELLOs, the handshake (the signer asked
 * by a `sign` report), a card sealed and delivered with its ACK deferred,
 * the `timer` each call reports, and the host's reopened line asking the
 * device for a HELLO again.
 */
import { describe, expect, it } from 'vitest';
import {
  DeviceEndpoint,
  type DeviceEndpointAction,
} from '../../../device-protocol/endpoint/device-endpoint.ts';
import {
  HostEndpoint,
  type HostEndpointAction,
} from '../../../device-protocol/endpoint/host-endpoint.ts';
import { parseFrameLine } from '../../../device-protocol/frame.ts';
import {
  freshHandshakeSecrets,
  generatedSigner,
  processHostKey,
} from '../../../hardware/keys/device-key.ts';
import { shoeHello } from '../../helpers/device-hello.ts';

type Action = DeviceEndpointAction | HostEndpointAction;

const lines = (actions: readonly Action[]) =>
  actions.flatMap((action) => (action.kind === 'write' ? [action.line] : []));
const typesWritten = (actions: readonly Action[]) =>
  actions.flatMap((action) => (action.kind === 'write' ? [action.type] : []));
const macOf = (line: string) => {
  const event = parseFrameLine(line);
  return event.kind === 'frame' ? event.frame.fields.at(-1) : undefined;
};

describe('a host and a device endpoint', () => {
  it('deal a card through a handshake and a reopen, on the time they are given', async () => {
    const signer = generatedSigner('ed25519');
    const publicKey = await signer.publicKey();
    const shoe = new DeviceEndpoint({
      talker: 'SH',
      hello: shoeHello('1.7'),
      publicKey,
      fresh: freshHandshakeSecrets,
    });
    const host = new HostEndpoint({
      peer: 'SH',
      link: { deferAck: ['CARD'] },
      paired: publicKey,
      fresh: freshHandshakeSecrets,
      hostKey: processHostKey(),
    });
    const reports: string[] = [];
    const delivered: Array<{ type: string; seq: number; ack: string }> = [];
    let now = 0;
    /** Carries each side's writes to the other until the line is quiet. */
    const settle = (fromShoe: readonly Action[], fromHost: readonly Action[] = []) => {
      let toHost = lines(fromShoe);
      let toShoe = lines(fromHost);
      note(fromShoe);
      note(fromHost);
      while (toHost.length > 0 || toShoe.length > 0) {
        now += 1;
        const hostDid = toHost.flatMap((line) => host.receive(line, now));
        const shoeDid = toShoe.flatMap((line) => shoe.receive(line, now));
        for (const action of shoeDid) {
          if (action.kind === 'auth' && action.report.kind === 'sign') {
            // A signer takes its time (a key file a microtask, a secure element milliseconds).
            const signature = signer.signNow(action.report.digest);
            shoeDid.push(...shoe.signed(action.report.id, signature, now + 0.5));
          }
        }
        note(hostDid);
        note(shoeDid);
        toHost = lines(shoeDid);
        toShoe = lines(hostDid);
      }
    };
    const note = (actions: readonly Action[]) => {
      for (const action of actions) {
        if (action.kind === 'auth') reports.push(action.report.kind);
        if (action.kind === 'deliver' && action.talker === 'SH') {
          delivered.push({ type: action.message.type, seq: action.seq, ack: action.ack });
        }
      }
    };

    const opened = shoe.lineOpened(now);
    expect(typesWritten(opened)).toEqual(['HELLO']);
    expect(opened.at(-1)).toEqual({ kind: 'timer', at: 500 });
    settle(opened, host.lineOpened(now));
    expect(reports).toEqual(['challenging', 'sign', 'authenticated']);
    expect(shoe.authenticated).toBe(true);
    expect(host.authState).toBe('authenticated');

    const card = shoe.send({ type: 'CARD', card: 'AS', back: 'red', face: 'down' }, now);
    const [cardLine] = lines(card);
    expect(macOf(cardLine!)).toMatch(/^~/);
    settle(card);
    expect(delivered.map((d) => `${d.type} ${d.ack}`)).toEqual(['HELLO sent', 'CARD deferred']);
    expect(shoe.pending.inFlight).toBe(1);
    // The journal holds it: the host ACKs it now, sealed.
    const acked = host.ack(delivered[1]!.seq, now);
    expect(typesWritten(acked)).toEqual(['ACK']);
    expect(macOf(lines(acked)[0]!)).toMatch(/^~/);
    const released = lines(acked).flatMap((line) => shoe.receive(line, now));
    expect(released).toContainEqual({ kind: 'acked', seq: delivered[1]!.seq, type: 'CARD' });
    expect(shoe.pending).toEqual({ inFlight: 0, queued: 0 });
    expect(shoe.nextDeadline()).toBeUndefined();

    // Our end of the line reopens: the device's next event is refused until it says HELLO again.
    host.lineClosed();
    const reopened = host.lineOpened(now);
    expect(reopened).toEqual([{ kind: 'timer', at: host.nextDeadline() }]);
    const next = shoe.send({ type: 'CARD', card: 'KD', back: 'red', face: 'down' }, now);
    const refused = lines(next).flatMap((line) => host.receive(line, now));
    expect(refused).toContainEqual(
      expect.objectContaining({ kind: 'discarded', reason: 'hello_required' }),
    );
    settle([], refused);
    expect(delivered.map((d) => d.type)).toEqual(['HELLO', 'CARD', 'HELLO', 'CARD']);
  });
});
