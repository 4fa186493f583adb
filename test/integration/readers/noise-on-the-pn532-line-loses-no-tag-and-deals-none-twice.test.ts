import { afterEach, describe, expect, it } from 'vitest';
import { standardDeck } from '../../../device-protocol/cards.ts';
import { DeckRegistry } from '../../../hardware/readers/deck-registry.ts';
import {
  type Pn532OnPty,
  pn532OnPty,
  readerDriverOn,
  socatMissing,
  until,
} from './pn532-on-a-pty.ts';

const missing = socatMissing();
if (missing) console.log(missing);

const CARDS = 20;
const uidOf = (index: number) => [0x04, 0x70, 0x0e, 0x15, 0xe0, index, 0x80];
const registry = new DeckRegistry();
registry.enrol(
  'blue-3',
  'blue',
  standardDeck()
    .slice(0, CARDS)
    .map((card, index) => [Buffer.from(uidOf(index)).toString('hex'), card] as const),
);

/** A small deterministic generator, so a failure can be replayed. */
function noise(seed: number) {
  let state = seed;
  return (length: number) =>
    Uint8Array.from({ length }, () => {
      state = (state * 1_103_515_245 + 12_345) & 0x7fffffff;
      return state >> 23;
    });
}

describe.skipIf(missing !== undefined)(
  'noise on the PN532 line loses no tag and deals none twice',
  () => {
    let pty: Pn532OnPty | undefined;
    let stopDriver: (() => Promise<void>) | undefined;
    let flood: NodeJS.Timeout | undefined;
    afterEach(async () => {
      clearInterval(flood);
      await stopDriver?.();
      await pty?.stop();
    });

    it('bursts of random bytes between and inside frames: every card once, in order', async () => {
      pty = await pn532OnPty();
      const line = pty;
      const reader = readerDriverOn(line.path, registry);
      stopDriver = () => reader.driver.stop();
      await until(() => line.emulator.commands.includes(0x4a), 5_000, 'the first tag poll');
      const next = noise(1234);
      flood = setInterval(() => line.inject(next(6)), 35);

      for (let index = 0; index < CARDS; index++) {
        line.emulator.placeTag({ uid: uidOf(index), type: 'ntag21x' });
        await until(() => reader.cards.length === index + 1, 10_000, `card ${index + 1}`);
        line.emulator.removeTag();
        await until(() => line.emulator.awaitingTag, 10_000, 'a poll of the empty field');
      }
      clearInterval(flood);
      // fixed wait: nothing happens: no late duplicate or foreign card may follow the noise: only time shows it
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(reader.cards).toEqual(
        standardDeck()
          .slice(0, CARDS)
          .map((card) => `${card}/blue/down`),
      );
      // Noise never becomes a tag: no foreign card, no card other than the ones dealt.
      expect(reader.alarms.filter((alarm) => alarm.kind === 'foreign_card')).toEqual([]);
    });
  },
);
