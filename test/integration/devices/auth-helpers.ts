/** Shared pieces of the device-authentication tests (protocol 1.4). */
import { encodeFrame, parseFrameLine } from '../../../device-protocol/frame.ts';
import type { DeviceDriver } from '../../../firmware-host/drivers/driver.ts';
import type { DomainEvent } from '../../../firmware-host/table/events.ts';
import { type DeviceKey, deviceKey } from '../../../hardware/device/device-auth.ts';
import { generatedSigner } from '../../../hardware/keys/device-key.ts';

export const SHOE_SCRIPT = {
  on: [],
  off: [],
  steps: [{ op: 'shuffle' as const }, { op: 'deal' as const, count: 6 }],
};

export async function ed25519Key(): Promise<DeviceKey> {
  return deviceKey(generatedSigner('ed25519'));
}

export function alarmsOf(driver: DeviceDriver): Extract<DomainEvent, { type: 'alarm' }>[] {
  const alarms: Extract<DomainEvent, { type: 'alarm' }>[] = [];
  driver.on('alarm', (alarm) => alarms.push(alarm));
  return alarms;
}

export async function until(check: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The line with one bit of its MAC (last field) flipped, its CRC made right again. */
export function flipMacBit(line: string): string {
  const event = parseFrameLine(line);
  if (event.kind !== 'frame') throw new Error(`not a frame: ${line}`);
  const fields = [...event.frame.fields];
  const mac = fields.at(-1)!;
  const bytes = Buffer.from(mac.slice(1), 'base64url');
  bytes[3]! ^= 0x10;
  fields[fields.length - 1] = `~${bytes.toString('base64url')}`;
  return encodeFrame({ ...event.frame, fields });
}
