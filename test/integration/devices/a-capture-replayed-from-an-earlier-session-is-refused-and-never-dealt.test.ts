/**
 * An attacker records a paired shoe's frames, then plays them back on a
 * later connection (a new handshake, new session keys): every replayed
 * frame is refused with an alarm and no card is dealt twice. Played back
 * within the same session long after, a frame is refused as a replay too.
 * On the virtual clock (test/helpers/virtual-table.ts): the line is down for
 * 40 ms of table time, whatever the machine's load.
 */
import { describe, expect, it } from 'vitest';
import { parseFrameLine } from '../../../device-protocol/frame.ts';
import { installVirtualClock } from '../../helpers/virtual-table.ts';
import { alarmsOf, ed25519Key, SHOE_SCRIPT } from './auth-helpers.ts';
import { benchPerTest } from './helpers.ts';

describe('a capture replayed from an earlier session', () => {
  const openBench = benchPerTest();

  it('is refused on the next connection and deals nothing twice', async () => {
    const key = await ed25519Key();
    const clock = installVirtualClock();
    const current = openBench(
      { kind: 'shoe', ruleset: 'tdc-baccarat-no-commission', seed: 11, scenario: SHOE_SCRIPT, key },
      { pairedKey: key.publicKey },
    );
    const alarms = alarmsOf(current.driver);
    const capture: string[] = [];
    current.sim.on('wrote', (line) => capture.push(line));
    await clock.drive(current.sim.whenReady(), 5_000, 'device ready');
    await clock.drive(current.sim.stepMany(3), 5_000, 'three cards dealt');
    await clock.runUntil(() => current.observations.length === 3, 5_000, 'three cards');
    const cards = capture.filter(
      (line) => parseFrameLine(line).kind === 'frame' && line.includes(',CARD,'),
    );
    expect(cards.length).toBeGreaterThanOrEqual(3);

    // The line drops and comes back: a new HELLO, a new CHALLENGE, new keys.
    current.wire.sever();
    await clock.advance(40);
    current.wire.restore();
    await clock.runUntil(
      () => current.driver.status().auth.handshakes === 2,
      5_000,
      'second handshake',
    );

    for (const line of cards) current.wire.deliver('device', Buffer.from(line, 'latin1'));
    await clock.runUntil(
      () => (current.driver.status().auth.refused.bad_mac ?? 0) >= cards.length,
      5_000,
      'refusals',
    );
    expect(current.observations).toHaveLength(3);
    expect(alarms[0]).toMatchObject({ kind: 'device_unauthenticated', reason: 'bad_mac' });

    await clock.drive(current.sim.stepMany(Number.POSITIVE_INFINITY), 60_000, 'the rest');
    await clock.drive(current.sim.whenDone(), 60_000, 'every card acknowledged');
    expect(current.observations).toHaveLength(6);
  });
});
