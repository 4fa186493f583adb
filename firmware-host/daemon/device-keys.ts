/**
 * The device keys a table's config names (protocol 1.4): the paired public
 * keys its drivers hold devices to, and the key files of the devices the
 * daemon runs itself: `simulate` devices (a bench that runs paired) and
 * tableside's shoe firmware (`transport: firmware`). Loaded before any device starts: a key file
 * that is missing, unreadable or wrong stops the daemon with a message
 * naming the device and the file, rather than letting it run unprotected.
 * Keys never go into a log line: fingerprints do.
 */
import {
  type DevicePublicKey,
  keyFingerprint,
  parsePublicKey,
} from '../../device-protocol/auth/keys.ts';
import { isHardwareError } from '../../hardware/errors.ts';
import { type DeviceKey, deviceKey, loadKeyFile } from '../../hardware/keys/device-key.ts';
import type { DeviceConfig } from '../config/schema.ts';
import { DaemonError } from './errors.ts';

export interface DeviceKeys {
  readonly paired: ReadonlyMap<string, DevicePublicKey>;
  /** The keys of `keyFile`s (simulated devices and hosted firmware), by device name. */
  readonly simulated: ReadonlyMap<string, DeviceKey>;
}

export async function loadDeviceKeys(
  devices: Readonly<Record<string, DeviceConfig>>,
): Promise<DeviceKeys> {
  const paired = new Map<string, DevicePublicKey>();
  const simulated = new Map<string, DeviceKey>();
  for (const [name, device] of Object.entries(devices)) {
    if (device.key !== undefined) {
      const parsed = parsePublicKey(device.key);
      if (!parsed.ok) throw new DaemonError('start_failed', `device ${name}: key: ${parsed.error}`);
      paired.set(name, parsed.key);
    }
    if (device.keyFile !== undefined) {
      try {
        simulated.set(name, await deviceKey(await loadKeyFile(device.keyFile)));
      } catch (error) {
        if (!isHardwareError(error)) throw error;
        throw new DaemonError(
          'start_failed',
          `device ${name}: ${error.message}; the config asks for it, so the table does not start without it`,
        );
      }
      const key = simulated.get(name)!;
      const wanted = paired.get(name);
      if (wanted !== undefined && keyFingerprint(wanted) !== keyFingerprint(key.publicKey)) {
        throw new DaemonError(
          'start_failed',
          `device ${name}: key file ${device.keyFile} holds key ${keyFingerprint(key.publicKey)}, not the paired key ${keyFingerprint(wanted)}`,
        );
      }
    }
  }
  return { paired, simulated };
}
