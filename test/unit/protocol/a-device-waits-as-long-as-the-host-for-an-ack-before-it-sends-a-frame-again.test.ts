/**
 * PROTOCOL.md § 4: a device uses the same ACK timeout as the host or a
 * longer one (500 ms). The device core's used to be 300 ms: a shoe sent a
 * card again while the host was still writing it to its journal (the ACK
 * of a card waits for the fsync), a copy the host only drops.
 */
import { describe, expect, it } from 'vitest';
import {
  DEVICE_SESSION_DEFAULTS,
  DeviceEndpoint,
  type DeviceEndpointAction,
} from '../../../device-protocol/endpoint/device-endpoint.ts';
import { encodeFrame } from '../../../device-protocol/frame.ts';
import { resolveLinkOptions } from '../../../device-protocol/link.ts';
import { messageFrame } from '../../../device-protocol/messages.ts';
import { freshHandshakeSecrets } from '../../../hardware/keys/device-key.ts';
import { shoeHello } from '../../helpers/device-hello.ts';

const HOST_TIMEOUT_MS = resolveLinkOptions({ localTalker: 'HO' }).ackTimeoutMs;

const writes = (actions: DeviceEndpointAction[]) =>
  actions.flatMap((action) =>
    action.kind === 'write' ? [`${action.type} ${action.seq} #${action.attempt}`] : [],
  );
const timer = (actions: DeviceEndpointAction[]) =>
  actions.find((action) => action.kind === 'timer');

describe('a device waiting for an ACK', () => {
  it('waits at least as long as the host does', () => {
    expect(HOST_TIMEOUT_MS).toBe(500);
    expect(DEVICE_SESSION_DEFAULTS.ackTimeoutMs).toBeGreaterThanOrEqual(HOST_TIMEOUT_MS);
  });

  it('sends a card again only once the host timeout has passed, then at the same pace', () => {
    const shoe = new DeviceEndpoint({
      talker: 'SH',
      hello: shoeHello('1.1'),
      fresh: freshHandshakeSecrets,
    });
    expect(writes(shoe.lineOpened(0))).toEqual(['HELLO 0 #1']);
    shoe.receive(encodeFrame(messageFrame('HO', 0, { type: 'ACK', ackedSeq: 0 })), 5);
    const sent = shoe.send({ type: 'CARD', card: 'AS', back: 'red', face: 'down' }, 10);
    expect(writes(sent)).toEqual(['CARD 1 #1']);
    expect(timer(sent)).toEqual({ kind: 'timer', at: 10 + HOST_TIMEOUT_MS });
    expect(writes(shoe.tick(10 + HOST_TIMEOUT_MS - 1))).toEqual([]);
    const again = shoe.tick(10 + HOST_TIMEOUT_MS);
    expect(writes(again)).toEqual(['CARD 1 #2']);
    expect(timer(again)).toEqual({ kind: 'timer', at: 10 + 2 * HOST_TIMEOUT_MS });
  });
});
