/**
 * PROTOCOL.md § 8.1 is a golden vector: its handshake lines, statement (§ 5.2),
 * digest and session keys are what the code computes from the documented
 * test keys, and the host's own state machine, given the documented host
 * secrets, authenticates that PROOF and accepts the sealed CARD.
 */

import { createPrivateKey, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HostAuth, type HostAuthAction } from '../../../device-protocol/auth/host-auth.ts';
import { encodeFrame, parseFrameLine } from '../../../device-protocol/frame.ts';
import { messageFrame } from '../../../device-protocol/messages.ts';
import { authVectors, VECTOR_SEEDS } from './auth-vectors.ts';

const spec = readFileSync(new URL('../../../device-protocol/PROTOCOL.md', import.meta.url), 'utf8');
// The statement is in § 5.2, the handshake's lines and keys in § 8.1.
const section = spec.slice(spec.indexOf('## 5. Authentication'));
const vectors = authVectors();

function hostSecrets() {
  const privateKey = createPrivateKey({
    key: Buffer.concat([
      Buffer.from('302e020100300506032b656e04220420', 'hex'),
      VECTOR_SEEDS.hostX25519,
    ]),
    format: 'der',
    type: 'pkcs8',
  });
  const x = createPublicKey(privateKey).export({ format: 'jwk' }).x!;
  return {
    nonce: VECTOR_SEEDS.hostNonce,
    ephemeral: { privateKey, publicKey: new Uint8Array(Buffer.from(x, 'base64url')) },
  };
}

function frameOf(line: string) {
  const event = parseFrameLine(line);
  if (event.kind !== 'frame') throw new Error(`${line}: ${event.detail}`);
  return event;
}

describe('PROTOCOL.md § 8.1 golden handshake', () => {
  it('shows the lines, statement, digest and keys the code computes', () => {
    expect(section).toContain(`SH→HO ${vectors.lines.hello}\n`);
    expect(section).toContain(`HO→SH ${vectors.lines.challenge}\n`);
    expect(section).toContain(`SH→HO ${vectors.lines.proof}\n`);
    expect(section).toContain(`HO→SH ${vectors.lines.confirm}\n`);
    expect(section).toContain(`HO→SH sealed: ${vectors.lines.helloAck}\n`);
    expect(section).toContain(`SH→HO sealed: ${vectors.lines.card}\n`);
    expect(section).toContain(`HO→SH sealed: ${vectors.lines.ack}\n`);
    expect(section).toContain(`\`\`\`text\n${vectors.statement}\`\`\``);
    expect(section).toContain(`\`\`\`text\n${vectors.confirmStatement}\`\`\``);
    for (const hex of [
      vectors.digest,
      vectors.confirmDigest,
      vectors.secret,
      vectors.deviceToHost,
      vectors.hostToDevice,
    ]) {
      expect(section).toContain(hex);
    }
    // Every line fits the 250-byte limit with its CR LF.
    for (const line of Object.values(vectors.lines))
      expect(line.length + 2).toBeLessThanOrEqual(250);
  });

  it('authenticates the documented PROOF and opens the sealed CARD with the host state machine', () => {
    const host = new HostAuth({
      talker: 'SH',
      hostKey: vectors.hostSigner,
      fresh: hostSecrets,
      paired: vectors.publicKey,
    });
    const hello = host.incoming(frameOf(vectors.lines.hello), 0);
    // The HELLO is held, not passed to the link, until a PROOF covers it.
    expect(hello).toEqual([
      { kind: 'challenging' },
      { kind: 'write', line: `${vectors.lines.challenge}\r\n` },
    ]);
    const proof = host.incoming(frameOf(vectors.lines.proof), 1);
    expect(proof).toMatchObject([
      { kind: 'write', line: `${vectors.lines.confirm}\r\n` },
      { kind: 'pass', event: frameOf(vectors.lines.hello) },
      { kind: 'authenticated', paired: true },
    ]);
    expect(
      host.outgoing(encodeFrame(messageFrame('HO', 1, { type: 'ACK', ackedSeq: 0 })), 'ACK'),
    ).toBe(`${vectors.lines.helloAck}\r\n`);
    const card = host.incoming(frameOf(vectors.lines.card), 2) as HostAuthAction[];
    expect(card).toEqual([
      {
        kind: 'pass',
        event: {
          kind: 'frame',
          frame: { talker: 'SH', seq: 1, type: 'CARD', fields: ['AS', 'red', 'down'] },
        },
      },
    ]);
    expect(
      host.outgoing(encodeFrame(messageFrame('HO', 2, { type: 'ACK', ackedSeq: 1 })), 'ACK'),
    ).toBe(`${vectors.lines.ack}\r\n`);
  });
});
