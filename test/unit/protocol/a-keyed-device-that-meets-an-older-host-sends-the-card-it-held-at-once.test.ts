/**
 * A keyed device holds its events until it has session keys or learns that
 * the host is older than protocol 1.4 (PROTOCOL.md § 8). When the host's ACK
 * of its HELLO and the host's own 1.2 HELLO arrive in one read, the ACK lets
 * the first card go (held back: no keys yet) and the HELLO releases it at the
 * same moment: the link took the held card as just sent, and it waited a
 * whole ACK timeout before it went.
 */
import { expect, it } from 'vitest';
import {
  DeviceEndpoint,
  type DeviceEndpointAction,
} from '../../../device-protocol/endpoint/device-endpoint.ts';
import { encodeFrame } from '../../../device-protocol/frame.ts';
import { messageFrame } from '../../../device-protocol/messages.ts';
import { freshHandshakeSecrets, generatedSigner } from '../../../hardware/keys/device-key.ts';
import { shoeHello } from '../../helpers/device-hello.ts';

const written = (actions: readonly DeviceEndpointAction[]) =>
  actions.flatMap((action) => (action.kind === 'write' ? [`${action.type} ${action.seq}`] : []));

it('a keyed device that meets an older host sends the card it held at once', async () => {
  const publicKey = await generatedSigner('ed25519').publicKey();
  const shoe = new DeviceEndpoint({
    talker: 'SH',
    hello: shoeHello('1.7'),
    publicKey,
    fresh: freshHandshakeSecrets,
  });
  expect(written(shoe.lineOpened(0))).toEqual(['HELLO 0']);
  expect(written(shoe.send({ type: 'CARD', card: 'AS', back: 'red', face: 'down' }, 0))).toEqual(
    [],
  );
  const olderHost = { ...shoeHello('1.2'), model: 'tableside', serial: 'table-1' };
  const oneRead =
    encodeFrame(messageFrame('HO', 0, { type: 'ACK', ackedSeq: 0 })) +
    encodeFrame(messageFrame('HO', 1, olderHost));
  const actions = shoe.receive(oneRead, 10);
  expect(written(actions)).toContain('CARD 1');
  expect(shoe.authenticated).toBe(false);
});
