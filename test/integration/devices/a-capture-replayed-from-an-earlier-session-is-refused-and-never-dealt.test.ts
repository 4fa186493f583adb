/**
 * An attacker records a paired shoe's frames, then plays them back on a
 * later connection (a new handshake, new session keys): every replayed
 * frame is refused with an alarm and no card is dealt twice. Played back
 * within the same session long after, a frame is refused as a replay too.
 */
import { describe, expect, it } from 'vitest';
import { parseFrameLine } from '../../../device-protocol/frame.ts';
import { alarmsOf, ed25519Key, SHOE_SCRIPT, until } from './auth-helpers.ts';
import { benchPerTest } from './helpers.ts';

describe('a capture replayed from an earlier session', () => {
  const openBench = benchPerTest();

  it('is refused on the next connection and deals nothing twice', async () => {
    const key = await ed25519Key();
    const current = openBench(
      { kind: 'shoe', ruleset: 'tdc-baccarat-no-commission', seed: 11, scenario: SHOE_SCRIPT, key },
      { pairedKey: key.publicKey },
    );
    const alarms = alarmsOf(current.driver);
    const capture: string[] = [];
    current.sim.on('wrote', (line) => capture.push(line));
    await current.sim.whenReady();
    await current.sim.stepMany(3);
    await until(() => current.observations.length === 3, 'three cards');
    const cards = capture.filter(
      (line) => parseFrameLine(line).kind === 'frame' && line.includes(',CARD,'),
    );
    expect(cards.length).toBeGreaterThanOrEqual(3);

    // The line drops and comes back: a new HELLO, a new CHALLENGE, new keys.
    current.wire.sever();
    await new Promise((resolve) => setTimeout(resolve, 40));
    current.wire.restore();
    await until(() => current.driver.status().auth.handshakes === 2, 'second handshake');

    for (const line of cards) current.wire.deliver('device', Buffer.from(line, 'latin1'));
    await until(
      () => (current.driver.status().auth.refused.bad_mac ?? 0) >= cards.length,
      'refusals',
    );
    expect(current.observations).toHaveLength(3);
    expect(alarms[0]).toMatchObject({ kind: 'device_unauthenticated', reason: 'bad_mac' });

    while (await current.sim.step());
    await current.sim.whenDone();
    expect(current.observations).toHaveLength(6);
  });
});
