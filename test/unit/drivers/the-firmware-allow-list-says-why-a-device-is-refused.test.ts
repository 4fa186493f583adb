import { describe, expect, it } from 'vitest';
import { DeviceDriver, firmwareVerdict } from '../../../firmware-host/drivers/driver.ts';
import { isDriverError } from '../../../firmware-host/drivers/errors.ts';
import { createMemoryPair } from '../../../hardware/transports/memory.ts';

const sha = 'a'.repeat(64);
const hello = { model: 'SHOE-2', firmwareSha256: sha, protocol: '1.0' };

describe('the firmware allow-list says why a device is refused', () => {
  it('accepts everything without a list, and a listed hash with one', () => {
    expect(firmwareVerdict(hello, undefined)).toBeUndefined();
    expect(firmwareVerdict(hello, { 'SHOE-2': [sha.toUpperCase()] })).toBeUndefined();
  });

  it('names an unlisted model, an unlisted hash and an incompatible protocol', () => {
    expect(firmwareVerdict(hello, { 'SHOE-3': [sha] })).toMatch(
      /model SHOE-2 is not in the firmware allow-list \(models listed: SHOE-3\)/,
    );
    expect(firmwareVerdict(hello, { 'SHOE-2': ['b'.repeat(64)] })).toMatch(
      /firmware a{64} of model SHOE-2 is not in the allow-list/,
    );
    expect(firmwareVerdict({ ...hello, protocol: '2.0' }, undefined)).toMatch(
      /protocol 2\.0 is not compatible/,
    );
  });

  it('refuses bad driver options with a coded error naming the field', () => {
    const transport = createMemoryPair('options').host;
    const attempt = (options: object) => {
      try {
        new DeviceDriver({ name: 'shoe', kind: 'shoe', transport, ...options });
      } catch (error) {
        return isDriverError(error) ? `${error.code}: ${error.message}` : 'other';
      }
      return 'accepted';
    };
    expect(attempt({ timing: { heartbeatMs: 5 } })).toMatch(/bad_options: .*heartbeatMs/);
    expect(attempt({ timing: { heartbeatMs: 2000, offlineAfterMs: 1000 } })).toMatch(
      /offlineAfterMs must be longer/,
    );
    expect(attempt({ allowedFirmware: { 'SHOE-2': ['not-a-hash'] } })).toMatch(
      /bad_options: .*SHOE-2.*SHA-256/,
    );
    expect(attempt({})).toBe('accepted');
  });
});
