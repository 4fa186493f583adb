/**
 * A wheel simulator whose key is not the one its line is paired with proves
 * the wrong key: the driver quarantines it with an alarm and delivers none
 * of its spins (PROTOCOL.md § 5). On the virtual clock
 * (test/helpers/virtual-table.ts): no spin in a second of table time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { keyFingerprint } from '../../../device-protocol/auth/keys.ts';
import { installVirtualClock } from '../../helpers/virtual-table.ts';
import { ed25519Key, pairedWheelBench } from './auth-helpers.ts';

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

describe('a wheel simulator with another key than the paired one', () => {
  it('is quarantined on a line paired with another key, and none of its spins is delivered', async () => {
    const [paired, other] = [await ed25519Key(), await ed25519Key()];
    const clock = installVirtualClock();
    const { driver, wheel, observations, alarms } = pairedWheelBench(paired, other, stops);
    // Under 1.7 its HELLO is never ACKed (no PROOF of the paired key covers it): the wheel
    // never gets ready, and the game it would play waits on it.
    void wheel.playGame();
    await clock.runUntil(
      () => alarms.some((alarm) => alarm.kind === 'device_quarantined'),
      5_000,
      'quarantine',
    );
    await clock.advance(1_000);
    expect(observations.filter((o) => o.record.t === 'spin')).toEqual([]);
    expect(driver.status().auth.state).toBe('failed');
    expect(driver.status().auth.deviceFingerprint).not.toBe(keyFingerprint(paired.publicKey));
  });
});
