/**
 * Issue 24 item 6, the forged HELLO, through the real driver and the
 * simulated shoe's device core (PROTOCOL.md § 5.4): after the paired shoe's
 * HELLO was ACKed, a rogue on its line writes a HELLO unlike the shoe's (one
 * announcing 1.2, one with a firmware hash off the allow-list, the shoe's own
 * with a byte changed) and a card of its own. The shoe's PROOFs sign its own
 * HELLO and never match, and it never says HELLO again by itself: the driver
 * asks it with `NAK,<seq>,hello`, the shoe says HELLO, proves it, and deals
 * the rest of its cards; the quarantine is lifted and none of the rogue's
 * cards is dealt.
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

const ROGUE_HELLOS: Array<[string, HelloMessage]> = [
  ['announcing 1.2', { ...SHOE_HELLO, protocol: '1.2' }],
  ['with a firmware hash off the allow-list', { ...SHOE_HELLO, firmwareSha256: 'f'.repeat(64) }],
  ['garbled past its CRC', { ...SHOE_HELLO, serial: `${SHOE_HELLO.serial}8` }],
];

describe('a paired shoe whose HELLO a rogue replaced', () => {
  const openBench = benchPerTest();

  it.each(ROGUE_HELLOS)(
    'by a HELLO %s is asked to say HELLO again, proves it and deals on',
    async (_, rogueHello) => {
      const key = await ed25519Key();
      const current = openBench(
        { kind: 'shoe', ruleset: RULESET, seed: SEED, scenario: SHOE_SCRIPT, key },
        {
          pairedKey: key.publicKey,
          allowedFirmware: { [SHOE_HELLO.model]: [SHOE_HELLO.firmwareSha256] },
        },
      );
      const alarms = alarmsOf(current.driver);
      const written: string[] = [];
      current.wire.device.on('data', (chunk: Buffer) => written.push(chunk.toString('latin1')));
      await current.sim.whenReady();
      await current.sim.stepMany(2);
      await until(() => current.observations.length === 2, 'two cards');

      const inject = (line: string) => current.wire.deliver('device', Buffer.from(line, 'latin1'));
      inject(encodeFrame(messageFrame('SH', 0, rogueHello)));
      inject(
        encodeFrame(messageFrame('SH', 1, { type: 'CARD', card: 'QH', back: 'blue', face: 'up' })),
      );
      await until(() => current.driver.status().auth.state !== 'authenticated', 'the rogue HELLO');

      const dealing = (async () => {
        while (await current.sim.step());
      })();
      await until(
        () => alarms.some((alarm) => alarm.kind === 'device_requalified'),
        'device_requalified',
        20_000,
      );
      await dealing;
      await until(() => current.observations.length === 6, 'six cards', 10_000);

      expect(written.join('')).toMatch(/\$HO,\d+,NAK,\d*,hello\*/);
      expect(observedCards(current.observations)).toEqual(plannedCards(current.sim));
      expect(current.driver.isQuarantined).toBe(false);
      expect(current.driver.status().auth.state).toBe('authenticated');
      expect(current.driver.availability).toBe('online');
      expect(current.driver.status().identity).toMatchObject({ serial: SHOE_HELLO.serial });
    },
    30_000,
  );
});
