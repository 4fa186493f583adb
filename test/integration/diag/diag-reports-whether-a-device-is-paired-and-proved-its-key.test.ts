/**
 * `tableside diag`'s device check reports pairing and key state (protocol
 * 1.4): a paired shoe that proves its key passes, one that proves another
 * key fails with the re-pairing advice, and an unpaired shoe with a key is a
 * warning naming the command that pairs it. Fingerprints only, never keys.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { formatPublicKey, keyFingerprint } from '../../../device-protocol/auth/keys.ts';
import type { DeviceConfig } from '../../../firmware-host/config/schema.ts';
import { checkDevice } from '../../../firmware-host/diag/device-check.ts';
import { type DeviceKey, deviceKey, generatedSigner } from '../../../hardware/keys/device-key.ts';
import { createMemoryPair } from '../../../hardware/transports/memory.ts';
import { SimulatedDevice } from '../../../simulators/device.ts';

const sims: SimulatedDevice[] = [];
afterEach(async () => {
  for (const sim of sims.splice(0)) await sim.stop();
});

function shoeWith(key: DeviceKey) {
  const wire = createMemoryPair(`diag-key-${Math.random().toString(36).slice(2)}`);
  const sim = new SimulatedDevice({
    kind: 'shoe',
    ruleset: 'tdc-baccarat-no-commission',
    transport: wire.device,
    key,
    reconnect: { initialDelayMs: 10, maxDelayMs: 50 },
  });
  sims.push(sim);
  sim.start();
  return wire;
}

async function keyRow(device: Omit<DeviceConfig, 'transport'>, key: DeviceKey) {
  const wire = shoeWith(key);
  const results = await checkDevice(
    'shoe',
    { ...device, transport: wire.host.url },
    { transport: wire.host, observeMs: 600 },
  );
  return results.find((result) => result.name === 'device shoe: key')!;
}

describe('diag reports pairing and key state', () => {
  it('passes a paired shoe that proves its key, fails one with another key, warns on an unpaired one', async () => {
    const key = await deviceKey(generatedSigner('ed25519'));
    const other = await deviceKey(generatedSigner('p256'));
    const fingerprint = keyFingerprint(key.publicKey);

    const paired = await keyRow(
      { kind: 'shoe', firmware: [], key: formatPublicKey(key.publicKey) },
      key,
    );
    expect(paired.status).toBe('pass');
    expect(paired.detail).toBe(`paired key ${fingerprint} proved; every frame authenticated`);

    const wrong = await keyRow(
      { kind: 'shoe', firmware: [], key: formatPublicKey(key.publicKey) },
      other,
    );
    expect(wrong.status).toBe('fail');
    expect(wrong.detail).toContain(`key mismatch: device key ${keyFingerprint(other.publicKey)}`);
    expect(wrong.advice).toContain('tableside device pair shoe --replace');

    const unpaired = await keyRow({ kind: 'shoe', firmware: [] }, key);
    expect(unpaired.status).toBe('warn');
    expect(unpaired.detail).toBe(`not paired; the device proves key ${fingerprint}`);
    expect(unpaired.advice).toContain('tableside device pair shoe');
    expect(JSON.stringify([paired, wrong, unpaired])).not.toContain(
      Buffer.from(key.publicKey.raw).toString('base64url'),
    );
  });
});
