/**
 * PROTOCOL.md § 9: each golden frame's bytes (hex, CR LF included) decode
 * to the message the document shows, and that message encodes back to
 * exactly those bytes; together the golden frames cover every message type.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  challengeFrame,
  confirmFrame,
  decodeChallenge,
  decodeConfirm,
  decodeProof,
  HANDSHAKE_TYPES,
  proofFrame,
} from '../../../device-protocol/auth/handshake.ts';
import { toBase64Url } from '../../../device-protocol/auth/keys.ts';
import { crc16Hex } from '../../../device-protocol/crc.ts';
import { encodeFrame, type Frame, parseFrameLine } from '../../../device-protocol/frame.ts';
import {
  decodeMessage,
  MESSAGE_TYPES,
  type Message,
  messageFrame,
} from '../../../device-protocol/messages.ts';

const spec = readFileSync(new URL('../../../device-protocol/PROTOCOL.md', import.meta.url), 'utf8');

interface Golden {
  readonly frame: string;
  readonly message: { talker: string; seq: number; type: string } & Record<string, unknown>;
  readonly bytes: Buffer;
}

/** The ```golden blocks: `frame:`, `message:` (JSON) and `bytes:` (hex, continued on indented lines). */
function goldenFrames(markdown: string): Golden[] {
  const blocks = markdown.split('```golden\n').slice(1);
  return blocks.map((block) => {
    const body = block.slice(0, block.indexOf('```'));
    const frame = /^frame: +(.*)$/m.exec(body)?.[1];
    const message = /^message: +(.*)$/m.exec(body)?.[1];
    const hex = /^bytes: +([\s\S]*)$/m.exec(body)?.[1];
    if (frame === undefined || message === undefined || hex === undefined) {
      throw new Error(`a golden block lacks frame, message or bytes:\n${body}`);
    }
    return {
      frame,
      message: JSON.parse(message),
      bytes: Buffer.from(hex.replace(/\s+/g, ''), 'hex'),
    };
  });
}

/** The handshake frames (outside the link session) as § 9 writes them: keys and nonces in base64url. */
function handshakeMessage(frame: Frame): Record<string, unknown> {
  if (frame.type === 'CHALLENGE') {
    const decoded = decodeChallenge(frame);
    if (!decoded.ok) throw new Error(decoded.error);
    return {
      type: 'CHALLENGE',
      nonce: toBase64Url(decoded.value.nonce),
      ephemeral: toBase64Url(decoded.value.ephemeral),
    };
  }
  if (frame.type === 'CONFIRM') {
    const decoded = decodeConfirm(frame);
    if (!decoded.ok) throw new Error(decoded.error);
    return {
      type: 'CONFIRM',
      keyType: decoded.value.hostKey.type,
      publicKey: toBase64Url(decoded.value.hostKey.raw),
      signature: toBase64Url(decoded.value.signature),
    };
  }
  if (frame.fields.length === 1 && frame.fields[0] === 'none') return { type: 'PROOF', none: true };
  const decoded = decodeProof(frame);
  if (!decoded.ok) throw new Error(decoded.error);
  return {
    type: 'PROOF',
    keyType: decoded.value.publicKey.type,
    publicKey: toBase64Url(decoded.value.publicKey.raw),
    nonce: toBase64Url(decoded.value.nonce),
    ephemeral: toBase64Url(decoded.value.ephemeral),
    signature: toBase64Url(decoded.value.signature),
  };
}

function handshakeFrame(golden: Golden['message']): Frame {
  const bytes = (field: string) => new Uint8Array(Buffer.from(String(golden[field]), 'base64url'));
  if (golden.type === 'CHALLENGE') {
    return challengeFrame({ nonce: bytes('nonce'), ephemeral: bytes('ephemeral') });
  }
  if (golden.type === 'CONFIRM') {
    return confirmFrame({
      hostKey: { type: golden.keyType as 'ed25519', raw: bytes('publicKey') },
      signature: bytes('signature'),
    } as Parameters<typeof confirmFrame>[0]);
  }
  if (golden.none === true) {
    return { talker: golden.talker as Frame['talker'], seq: 0, type: 'PROOF', fields: ['none'] };
  }
  return proofFrame(
    golden.talker as 'SH',
    {
      publicKey: { type: golden.keyType as 'ed25519', raw: bytes('publicKey') },
      nonce: bytes('nonce'),
      ephemeral: bytes('ephemeral'),
      signature: bytes('signature'),
    } as Parameters<typeof proofFrame>[1],
  );
}

const goldens = goldenFrames(spec);

describe('PROTOCOL.md § 9 golden frames', () => {
  it('cover every message type, and the handshake frames', () => {
    const types = new Set(goldens.map((golden) => golden.message.type));
    for (const type of [...MESSAGE_TYPES, 'CHALLENGE', 'PROOF', 'CONFIRM'])
      expect(types, type).toContain(type);
  });

  it.each(goldens.map((golden) => [golden.frame, golden] as const))(
    '%s: its bytes decode to the message shown and encode back byte for byte',
    (_, golden) => {
      expect(golden.bytes.toString('latin1'), 'the bytes are the frame line').toBe(
        `${golden.frame}\r\n`,
      );
      const event = parseFrameLine(golden.bytes.toString('latin1'));
      expect(event.kind, event.kind === 'discard' ? event.detail : '').toBe('frame');
      if (event.kind !== 'frame') return;
      const { talker, seq, ...message } = golden.message;
      expect({ talker: event.frame.talker, seq: event.frame.seq }).toEqual({ talker, seq });

      let again: Frame;
      if (HANDSHAKE_TYPES.has(event.frame.type)) {
        expect(handshakeMessage(event.frame)).toEqual(message);
        again = handshakeFrame(golden.message);
      } else {
        const decoded = decodeMessage(event.frame);
        expect(decoded.kind, decoded.kind === 'invalid' ? decoded.error : '').toBe('message');
        if (decoded.kind !== 'message') return;
        expect(decoded.message).toEqual(message);
        again = messageFrame(event.frame.talker, event.frame.seq, message as unknown as Message);
      }
      expect(Buffer.from(encodeFrame(again), 'latin1').equals(golden.bytes)).toBe(true);
    },
  );

  it('reads a bad byte in a golden frame as a bad CRC, so the bytes are really checked', () => {
    const card = goldens.find((golden) => golden.message.type === 'CARD')!;
    const bent = Buffer.from(card.bytes);
    bent[4] = bent[4]! ^ 0x01;
    expect(parseFrameLine(bent.toString('latin1'))).toMatchObject({ reason: 'bad_crc' });
    const body = card.frame.slice(1, card.frame.indexOf('*'));
    expect(card.frame.endsWith(`*${crc16Hex(body)}`)).toBe(true);
  });
});
