/**
 * Who a device says it is and whether the table takes it: the host's own
 * HELLO, and the firmware allow-list's verdict on a device's HELLO
 * (protocol major version, model, firmware hash).
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import {
  type HelloMessage,
  type Message,
  PROTOCOL_VERSION,
} from '../../device-protocol/messages.ts';
import { VERSION } from '../../device-protocol/version.ts';

/** Allowed firmware SHA-256 values per device model. */
export type FirmwareAllowList = Readonly<Record<string, readonly string[]>>;

const sha256 = z
  .string()
  .regex(/^[0-9a-fA-F]{64}$/, 'expected a SHA-256 of 64 hex digits')
  .transform((value) => value.toLowerCase());

export const allowListSchema = z.record(z.string().min(1), z.array(sha256).min(1));

function majorOf(version: string): string {
  return version.split('.')[0] ?? version;
}

export function hostHello(serial: string): Message {
  return {
    type: 'HELLO',
    model: 'tableside',
    serial,
    protocol: PROTOCOL_VERSION,
    firmware: VERSION.replace(/[^A-Za-z0-9.+_-]/g, '-').slice(0, 32) || '0',
    firmwareSha256: createHash('sha256').update(`tableside ${VERSION}`).digest('hex'),
  };
}

/** Why a HELLO is refused by the allow-list, or undefined when it passes. */
export function firmwareVerdict(
  hello: Pick<HelloMessage, 'model' | 'firmwareSha256' | 'protocol'>,
  allowList: FirmwareAllowList | undefined,
): string | undefined {
  if (majorOf(hello.protocol) !== majorOf(PROTOCOL_VERSION)) {
    return `protocol ${hello.protocol} is not compatible with ${PROTOCOL_VERSION} (major versions differ)`;
  }
  if (allowList === undefined) return undefined;
  const allowed = allowList[hello.model];
  if (allowed === undefined) {
    const models = Object.keys(allowList);
    return `model ${hello.model} is not in the firmware allow-list (${models.length ? `models listed: ${models.join(', ')}` : 'it lists no model'})`;
  }
  const sha = hello.firmwareSha256.toLowerCase();
  if (!allowed.some((entry) => entry.toLowerCase() === sha)) {
    return `firmware ${sha} of model ${hello.model} is not in the allow-list`;
  }
  return undefined;
}
