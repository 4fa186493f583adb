/**
 * The worked example of PROTOCOL.md § 8.1, computed by the real codec from
 * fixed test keys (never use them on a table): `npx tsx
 * test/unit/protocol/auth-vectors.ts` prints it; `auth-golden.test.ts`
 * checks PROTOCOL.md against it line by line.
 */
import { createPrivateKey, createPublicKey, type KeyObject, sign } from 'node:crypto';
import { sealFrame } from '../../../device-protocol/auth/frame-mac.ts';
import {
  challengeFrame,
  confirmDigest,
  confirmFrame,
  confirmStatement,
  deriveSessionKeys,
  proofFrame,
  proofStatement,
  type StatementParts,
  statementDigest,
  x25519Secret,
} from '../../../device-protocol/auth/handshake.ts';
import type { DevicePublicKey } from '../../../device-protocol/auth/keys.ts';
import { encodeFrame } from '../../../device-protocol/frame.ts';
import { type HelloMessage, messageFrame } from '../../../device-protocol/messages.ts';

const fill = (byte: number, length = 32) => new Uint8Array(length).fill(byte);
const sequence = (from: number, length: number) =>
  Uint8Array.from({ length }, (_, index) => (from + index) & 0xff);

function privateKey(curve: 'ed25519' | 'x25519', seed: Uint8Array): KeyObject {
  const prefix =
    curve === 'ed25519' ? '302e020100300506032b657004220420' : '302e020100300506032b656e04220420';
  return createPrivateKey({
    key: Buffer.concat([Buffer.from(prefix, 'hex'), seed]),
    format: 'der',
    type: 'pkcs8',
  });
}

function rawPublic(key: KeyObject): Uint8Array {
  return new Uint8Array(
    Buffer.from(createPublicKey(key).export({ format: 'jwk' }).x!, 'base64url'),
  );
}

export const VECTOR_SEEDS = {
  deviceEd25519: fill(0x11),
  hostEd25519: fill(0x44),
  hostX25519: fill(0x22),
  deviceX25519: fill(0x33),
  hostNonce: sequence(0xa0, 16),
  deviceNonce: sequence(0xb0, 16),
};

export const VECTOR_HELLO: HelloMessage = {
  type: 'HELLO',
  model: 'TS-SHOE-2',
  serial: 'SH0042',
  protocol: '1.7',
  firmware: '2.3.1',
  firmwareSha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
};

export function authVectors() {
  const deviceKey = privateKey('ed25519', VECTOR_SEEDS.deviceEd25519);
  const publicKey: DevicePublicKey = { type: 'ed25519', raw: rawPublic(deviceKey) };
  const hostEphemeral = privateKey('x25519', VECTOR_SEEDS.hostX25519);
  const deviceEphemeral = privateKey('x25519', VECTOR_SEEDS.deviceX25519);
  const challenge = { nonce: VECTOR_SEEDS.hostNonce, ephemeral: rawPublic(hostEphemeral) };
  const hostKey = privateKey('ed25519', VECTOR_SEEDS.hostEd25519);
  const hostPublicKey: DevicePublicKey = { type: 'ed25519', raw: rawPublic(hostKey) };
  const parts: StatementParts = {
    talker: 'SH',
    hello: messageFrame('SH', 0, VECTOR_HELLO),
    helloAcked: false,
    challenge,
    publicKey,
    deviceNonce: VECTOR_SEEDS.deviceNonce,
    deviceEphemeral: rawPublic(deviceEphemeral),
  };
  const digest = statementDigest(parts);
  const signature = new Uint8Array(sign(null, digest, deviceKey));
  const hostDigest = confirmDigest(digest, hostPublicKey);
  const confirmLine = encodeFrame(
    confirmFrame({
      hostKey: hostPublicKey,
      signature: new Uint8Array(sign(null, hostDigest, hostKey)),
    }),
  ).trimEnd();
  const deviceSecret = x25519Secret(
    { privateKey: deviceEphemeral, publicKey: parts.deviceEphemeral },
    challenge.ephemeral,
  );
  const keys = deriveSessionKeys(deviceSecret, digest);
  const hello = encodeFrame(messageFrame('SH', 0, VECTOR_HELLO)).trimEnd();
  const challengeLine = encodeFrame(challengeFrame(challenge)).trimEnd();
  const proofLine = encodeFrame(
    proofFrame('SH', {
      publicKey,
      nonce: parts.deviceNonce,
      ephemeral: parts.deviceEphemeral,
      signature,
    }),
  ).trimEnd();
  const helloAck = encodeFrame(
    sealFrame(messageFrame('HO', 1, { type: 'ACK', ackedSeq: 0 }), keys.hostToDevice),
  ).trimEnd();
  const card = encodeFrame(
    sealFrame(
      messageFrame('SH', 1, { type: 'CARD', card: 'AS', back: 'red', face: 'down' }),
      keys.deviceToHost,
    ),
  ).trimEnd();
  const ack = encodeFrame(
    sealFrame(messageFrame('HO', 2, { type: 'ACK', ackedSeq: 1 }), keys.hostToDevice),
  ).trimEnd();
  return {
    publicKey,
    hostPublicKey,
    /** The host's signer as HostAuth takes it. */
    hostSigner: {
      publicKey: hostPublicKey,
      sign: (bytes: Uint8Array) => new Uint8Array(sign(null, bytes, hostKey)),
    },
    statement: proofStatement(parts),
    confirmStatement: confirmStatement(digest, hostPublicKey),
    digest: Buffer.from(digest).toString('hex'),
    confirmDigest: Buffer.from(hostDigest).toString('hex'),
    secret: Buffer.from(deviceSecret).toString('hex'),
    deviceToHost: Buffer.from(keys.deviceToHost).toString('hex'),
    hostToDevice: Buffer.from(keys.hostToDevice).toString('hex'),
    lines: {
      hello,
      challenge: challengeLine,
      proof: proofLine,
      confirm: confirmLine,
      helloAck,
      card,
      ack,
    },
  };
}

if (process.argv[1]?.endsWith('auth-vectors.ts')) {
  const vectors = authVectors();
  process.stdout.write(`${JSON.stringify(vectors, null, 2)}\n`);
}
