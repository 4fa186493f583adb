/**
 * Protocol 1.4 in the conformance suite: a shoe simulator with its own key,
 * on a real pty. Given its public key (`--key`), the auth check is required
 * and passes, and every later check runs over MACed frames; given another
 * device's key, the auth check fails and the device does not conform. Paired
 * with the table's host key, and given it (`--host-key`), it passes the 1.7
 * paired-host and hostile-host checks too (the same run).
 */
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostSigner } from '../../../device-protocol/auth/host-auth.ts';
import type { DevicePublicKey } from '../../../device-protocol/auth/keys.ts';
import { PAIRED_HOST_CHECKS } from '../../../firmware-host/conformance/checks.ts';
import { runConformance } from '../../../firmware-host/conformance/suite.ts';
import { deviceKey, generatedSigner, hostSignerOf } from '../../../hardware/keys/device-key.ts';
import { SerialTransport } from '../../../hardware/transports/serial.ts';
import { SimulatedDevice } from '../../../simulators/device.ts';
import { startSocatPair, stopSocat } from '../../helpers/socat.ts';
import { tempDir } from '../../helpers/temp.ts';
import { socatMissing } from '../../helpers/tools.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function runAgainstKeyedShoe(
  paired: (own: DevicePublicKey) => Promise<DevicePublicKey>,
  tableKey?: HostSigner,
) {
  const directory = tempDir('tableside-conformance-auth-');
  const host = join(directory, 'host');
  const device = join(directory, 'device');
  const socat: ChildProcess = await startSocatPair(host, device);
  cleanups.push(() => stopSocat(socat));
  const key = await deviceKey(generatedSigner('ed25519'));
  const sim = new SimulatedDevice({
    kind: 'shoe',
    transport: new SerialTransport({ path: device, baudRate: 115_200 }),
    ruleset: 'tdc-baccarat-no-commission',
    seed: 3,
    rate: 4,
    key,
    ...(tableKey === undefined ? {} : { hostKey: tableKey.publicKey }),
  });
  sim.start();
  cleanups.push(() => sim.stop());
  return runConformance({
    link: host,
    transport: new SerialTransport({ path: host, baudRate: 115_200 }),
    talker: 'SH',
    key: await paired(key.publicKey),
    ...(tableKey === undefined ? {} : { hostKey: tableKey }),
    scripted: true,
  });
}

describe.skipIf(socatMissing() !== undefined)('a shoe with a key', () => {
  it('proves the paired key, every check passes over MACed frames, and it refuses every hostile host', async () => {
    const tableKey = hostSignerOf(generatedSigner('ed25519'));
    const report = await runAgainstKeyedShoe(async (own) => own, tableKey);
    const auth = report.results.find((result) => result.id === 'auth')!;
    expect(auth).toMatchObject({ status: 'pass', required: true });
    expect(auth.detail).toMatch(/proved key [0-9A-F]{4}(-[0-9A-F]{4}){3}, the paired one/);
    expect(report.results.filter((result) => result.required && result.status !== 'pass')).toEqual(
      [],
    );
    for (const id of PAIRED_HOST_CHECKS) {
      const result = report.results.find((candidate) => candidate.id === id);
      expect(result, `${id}: ${result?.detail}`).toMatchObject({ status: 'pass', required: true });
    }
    expect(report.results.find((result) => result.id === 'host-lost')?.detail).toMatch(
      /^HELLO \d+ again \d+ ms after its first PROOF no host confirmed$/,
    );
    expect(report.results.find((result) => result.id === 'keeps-cards')?.detail).toMatch(
      /^sent its \d+ unACKed events \([\d, ]+\) again once the genuine host confirmed, in order$/,
    );
    expect(report.conforms).toBe(true);
  }, 90_000);

  it('fails the required auth check when the paired key is another device’s', async () => {
    const other = await deviceKey(generatedSigner('ed25519'));
    const report = await runAgainstKeyedShoe(async () => other.publicKey);
    const auth = report.results.find((result) => result.id === 'auth')!;
    expect(auth).toMatchObject({ status: 'fail', required: true });
    expect(auth.detail).toMatch(/key_mismatch/);
    expect(report.conforms).toBe(false);
    expect(report.results.find((result) => result.id === 'ping')?.detail).toMatch(
      /not run: the device failed authentication/,
    );
  }, 90_000);
});
