/**
 * The `diag` row for a device's key (protocol 1.4): whether it is paired,
 * whether it proved its key on this connection, and what was refused.
 * Fingerprints only: never a key.
 */
import { type PairingPolicy, unpairedSetting } from '../config/schema.ts';
import type { DriverAuthStatus } from '../drivers/auth-status.ts';
import type { CheckOutcome } from './report.ts';

export function keyOutcome(
  prefix: string,
  name: string,
  auth: DriverAuthStatus,
  policy: PairingPolicy = 'simulated',
): CheckOutcome {
  const row = `${prefix}: key`;
  const refused = Object.entries(auth.refused);
  const data = { ...auth };
  const pair = `tableside device pair ${name}`;
  if (refused.length > 0) {
    return {
      name: row,
      status: 'fail',
      detail: `frames refused: ${refused.map(([reason, count]) => `${reason} ${count}`).join(', ')}`,
      advice:
        'frames that fail authentication reach this line: a device other than the paired one, or bytes injected on the cable. Inspect the cable and what is plugged in',
      data,
    };
  }
  if (auth.pairing === 'paired') {
    if (auth.state === 'authenticated') {
      return {
        name: row,
        status: 'pass',
        detail: `paired key ${auth.pairedFingerprint} proved; every frame authenticated`,
        data,
      };
    }
    return {
      name: row,
      status: 'fail',
      detail:
        auth.state === 'failed'
          ? `paired (${auth.pairedFingerprint}), but ${auth.detail}`
          : `paired (${auth.pairedFingerprint}), but the device proved no key`,
      advice: `the daemon would quarantine this device. If its key was rotated or the device replaced, check the fingerprint on the device and run \`${pair} --replace\``,
      data,
    };
  }
  if (policy === 'refused') {
    return {
      name: row,
      status: 'fail',
      detail: `not paired, so the table refuses this device's cards (${auth.state === 'authenticated' ? `it proves key ${auth.deviceFingerprint}` : (auth.detail ?? 'no key state yet')})`,
      advice: `compare the fingerprint with the device's own and run \`${pair}\`; only on a bench, set ${unpairedSetting(name)}`,
      data,
    };
  }
  if (auth.state === 'authenticated') {
    return {
      name: row,
      status: 'warn',
      detail: `not paired; the device proves key ${auth.deviceFingerprint}`,
      advice: `compare the fingerprint with the device's own and run \`${pair}\` before live play`,
      data,
    };
  }
  return {
    name: row,
    status: 'warn',
    detail: `not paired, ${auth.detail ?? 'no key state yet'}`,
    advice:
      'a bench only: on a live table use a device with its own key (protocol 1.4) and pair it',
    data,
  };
}
