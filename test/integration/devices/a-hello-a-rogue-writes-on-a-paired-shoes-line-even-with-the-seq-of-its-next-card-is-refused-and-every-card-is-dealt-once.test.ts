/**
 * Issue 24 item 6 and issue 33 N1, the forged HELLO, through the real driver
 * and the simulated shoe's device core (PROTOCOL.md § 5.2): after the paired
 * shoe's HELLO was proven, a rogue on its line writes a HELLO (one announcing
 * 1.2, one with a firmware hash off the allow-list, the shoe's own with a
 * byte changed, or the shoe's own re-framed with the seqs its next cards
 * take) and a card of its own. No PROOF covers it: the driver refuses it
 * with a `device_unauthenticated` alarm, quarantines nothing, and every card
 * of the shoe is dealt once; none of the rogue's is.
 */
import { describe, expect, it } from 'vitest';
import { encodeFrame } from '../../../device-protocol/frame.ts';
import { type HelloMessage, messageFrame } from '../../../device-protocol/messages.ts';
import { defaultIdentity } from '../../../simulators/device.ts';
import { alarmsOf, ed25519Key, SHOE_SCRIPT, until } from './auth-helpers.ts';
import { benchPerTest, observedCards, plannedCards } from './helpers.ts';

const RULESET = 'tdc-baccarat-no-commission';
const SEED = 7;
const identity = defaultIdentity('shoe', SEED);
const SHOE_HELLO: HelloMessage = {
  type: 'HELLO',
  model: identity.model,
  serial: identity.serial,
  protocol: identity.protocolVersion,
  firmware: identity.firmwareVersion,
  firmwareSha256: identity.firmwareSha256,
};

const ROGUE_HELLOS: Array<[string, HelloMessage, readonly number[]]> = [
  ['announcing 1.2', { ...SHOE_HELLO, protocol: '1.2' }, [0]],
  [
    'with a firmware hash off the allow-list',
    { ...SHOE_HELLO, firmwareSha256: 'f'.repeat(64) },
    [0],
  ],
  ['garbled past its CRC', { ...SHOE_HELLO, serial: `${SHOE_HELLO.serial}8` }, [0]],
  // N1: whichever seq the shoe's next card takes, one of these HELLOs holds it.
  ['of its own, with the seqs of its next cards', SHOE_HELLO, [3, 4, 5, 6, 7, 8]],
];

describe('a paired shoe whose HELLO a rogue replaced', () => {
  const openBench = benchPerTest();

  it.each(ROGUE_HELLOS)(
    'by a HELLO %s has it refused and deals every card once',
    async (_, rogueHello, seqs) => {
      const key = await ed25519Key();
      const current = openBench(
        { kind: 'shoe', ruleset: RULESET, seed: SEED, scenario: SHOE_SCRIPT, key },
        {
          pairedKey: key.publicKey,
          allowedFirmware: { [SHOE_HELLO.model]: [SHOE_HELLO.firmwareSha256] },
        },
      );
      const alarms = alarmsOf(current.driver);
      await current.sim.whenReady();
      await current.sim.stepMany(2);
      await until(() => current.observations.length === 2, 'two cards');

      const inject = (line: string) => current.wire.deliver('device', Buffer.from(line, 'latin1'));
      for (const seq of seqs) inject(encodeFrame(messageFrame('SH', seq, rogueHello)));
      inject(
        encodeFrame(messageFrame('SH', 1, { type: 'CARD', card: 'QH', back: 'blue', face: 'up' })),
      );
      await until(
        () => (current.driver.status().auth.refused.unproven_hello ?? 0) >= 1,
        'the rogue HELLO refused',
      );

      while (await current.sim.step());
      await until(() => current.observations.length === 6, 'six cards', 15_000);

      expect(observedCards(current.observations)).toEqual(plannedCards(current.sim));
      expect(alarms.some((alarm) => alarm.kind === 'device_unauthenticated')).toBe(true);
      expect(alarms.filter((alarm) => alarm.kind === 'device_quarantined')).toEqual([]);
      expect(current.driver.isQuarantined).toBe(false);
      expect(current.driver.status().auth.state).toBe('authenticated');
      expect(current.driver.availability).toBe('online');
      expect(current.driver.status().identity).toMatchObject({ serial: SHOE_HELLO.serial });
    },
    30_000,
  );
});
