/**
 * One bit of a card frame's MAC flips on the line (its CRC made right, as an
 * attacker would): the host refuses the frame with an alarm and does not
 * ACK it; the shoe sends its own copy again and the card is dealt once.
 */
import { describe, expect, it } from 'vitest';
import { alarmsOf, ed25519Key, flipMacBit, SHOE_SCRIPT, until } from './auth-helpers.ts';
import { benchPerTest } from './helpers.ts';

describe('a frame with one flipped MAC bit', () => {
  const openBench = benchPerTest();

  it('is refused, and the shoe retransmits the card, dealt once', async () => {
    const key = await ed25519Key();
    const current = openBench(
      { kind: 'shoe', ruleset: 'tdc-baccarat-no-commission', seed: 12, scenario: SHOE_SCRIPT, key },
      { pairedKey: key.publicKey },
    );
    const alarms = alarmsOf(current.driver);
    await current.sim.whenReady();
    await current.sim.stepMany(2);
    await until(() => current.observations.length === 2, 'two cards');

    // The next card's first transmission is replaced on the wire by a copy with one MAC bit flipped.
    let tampered: string | undefined;
    current.wire.mute(true);
    const grab = (line: string) => {
      if (tampered === undefined && line.includes(',CARD,')) tampered = flipMacBit(line);
    };
    current.sim.on('wrote', grab);
    await current.sim.step();
    await until(() => tampered !== undefined, 'the third card on the wire');
    current.sim.off('wrote', grab);
    current.wire.mute(false);
    current.wire.deliver('device', Buffer.from(tampered!, 'latin1'));
    await until(() => (current.driver.status().auth.refused.bad_mac ?? 0) === 1, 'the refusal');
    expect(alarms[0]).toMatchObject({
      kind: 'device_unauthenticated',
      reason: 'bad_mac',
      frameType: 'CARD',
    });

    while (await current.sim.step());
    await current.sim.whenDone();
    const dealt = current.observations.map((o) => (o.record.t === 'card' ? o.record.card : ''));
    const planned = current.sim.steps.flatMap((s) => (s.kind === 'card' ? [s.card] : []));
    expect(dealt).toEqual(planned);
    expect(current.sim.stats.retransmitted).toBeGreaterThan(0);
  });
});
