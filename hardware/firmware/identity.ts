/**
 * Who the firmware says it is in its HELLO: model, serial, version, and the
 * SHA-256 of its own code, so the host's allow-list pins what really runs.
 * The code is every source file the firmware is built from (the device core,
 * the protocol, the part drivers, this folder), hashed in a fixed order by
 * path and content: changing any of them changes the hash.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROTOCOL_VERSION } from '../../device-protocol/messages.ts';
import { VERSION } from '../../device-protocol/version.ts';

export const SHOE_MODEL = 'TS-SHOE-FW';
export const READER_MODEL = 'TS-READER-FW';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The folders the firmware's code comes from, relative to the project root. */
const CODE_FOLDERS = [
  'device-protocol',
  'hardware/device',
  'hardware/firmata',
  'hardware/parts',
  'hardware/pn532',
  'hardware/i2c',
  'hardware/firmware',
  'hardware/readers',
];

let cached: string | undefined;

/** SHA-256 (lower-case hex) of the firmware's own source files. */
export function firmwareSha256(): string {
  if (cached !== undefined) return cached;
  const hash = createHash('sha256');
  for (const folder of CODE_FOLDERS) {
    let names: string[];
    try {
      names = readdirSync(join(ROOT, folder)).sort();
    } catch {
      continue;
    }
    for (const name of names) {
      if (!/\.(ts|js)$/.test(name) || name.endsWith('.d.ts')) continue;
      const path = join(ROOT, folder, name);
      hash.update(relative(ROOT, path)).update('\0').update(readFileSync(path)).update('\0');
    }
  }
  cached = hash.digest('hex');
  return cached;
}

export function firmwareHello(model: string, serial: string) {
  return {
    type: 'HELLO' as const,
    model,
    serial,
    protocol: PROTOCOL_VERSION,
    firmware: VERSION,
    firmwareSha256: firmwareSha256(),
  };
}
