/**
 * The roulette wheel simulator runs on the device core, so a wheel with a
 * key (protocol 1.5 >= 1.4) answers the host's CHALLENGE with a PROOF, and
 * every frame after it carries a MAC: its spins reach a paired wheel driver
 * authenticated, with no alarm.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { keyFingerprint } from '../../../device-protocol/auth/keys.ts';
import { parseFrameLine } from '../../../device-protocol/frame.ts';
import { ed25519Key, pairedWheelBench, until } from './auth-helpers.ts';

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

describe('a paired wheel simulator', () => {
  it('proves its key, MACs every frame after the PROOF, and its spins arrive', async () => {
    const key = await ed25519Key();
    const { driver, wheel, observations, alarms, written } = pairedWheelBench(key, key, stops);
    await wheel.whenReady();
    const games = [await wheel.playGame(), await wheel.playGame(), await wheel.playGame()];
    await wheel.whenSettled();
    await until(() => observations.filter((o) => o.record.t === 'spin').length === 3, 'spins');

    const spins = observations.flatMap((o) => (o.record.t === 'spin' ? [o.record] : []));
    expect(spins.map((spin) => spin.number)).toEqual(games.map((game) => game.number));
    expect(alarms).toEqual([]);
    expect(wheel.authenticated).toBe(true);
    expect(driver.status().auth).toMatchObject({
      pairing: 'paired',
      state: 'authenticated',
      handshakes: 1,
      pairedFingerprint: keyFingerprint(key.publicKey),
      deviceFingerprint: keyFingerprint(key.publicKey),
      refused: {},
    });
    // Every frame after the PROOF carries a MAC (HELLO and PROOF do not).
    const frames = written
      .map((line) => parseFrameLine(line))
      .flatMap((event) => (event.kind === 'frame' ? [event.frame] : []));
    const proofAt = frames.findIndex((frame) => frame.type === 'PROOF');
    expect(proofAt).toBeGreaterThan(0);
    const after = frames.slice(proofAt + 1);
    expect(after.filter((frame) => frame.type === 'RESULT')).toHaveLength(3);
    for (const frame of after) expect(frame.fields.at(-1)).toMatch(/^~[A-Za-z0-9_-]{22}$/);
    // Nothing of the spins went out before the PROOF: the events wait for the session keys.
    expect(frames.slice(0, proofAt).map((frame) => frame.type)).not.toContain('ROTOR');
  });
});
