import { beforeAll, describe, expect, it } from 'vitest';
import { DeckRegistry } from '../../../hardware/readers/deck-registry.ts';
import { readerOnPtyPerTest, socatMissing, until } from './pn532-on-a-pty.ts';

const missing = socatMissing();
if (missing) console.log(missing);

describe.skipIf(missing !== undefined)(
  'a PN532 on a serial line deals registered tags as cards and foreign tags as alarms',
  () => {
    const registry = new DeckRegistry();
    const openReader = readerOnPtyPerTest(registry);

    beforeAll(() => {
      registry.enrol('red-1', 'red', [
        ['04A1B2C3D4E5F6', 'AS'],
        ['DEADBEEF', 'KH'],
        ['08112233445566778899', '2C'],
      ]);
    });

    it('a tag dealt becomes its card once, a foreign tag an alarm naming it, and dealing goes on', async () => {
      const { pty, reader } = await openReader();
      const { emulator } = pty;
      // The tag taken away: a poll finds the field empty and the reader aborts it to poll again.
      const emptyFieldPolled = () => {
        const aborts = emulator.aborts;
        return until(() => emulator.aborts > aborts, 5_000, 'a poll of the empty field aborted');
      };

      emulator.placeTag({ uid: [0x04, 0xa1, 0xb2, 0xc3, 0xd4, 0xe5, 0xf6], type: 'ntag21x' });
      await until(() => reader.cards.length === 1, 5_000, 'the first card');
      // The tag stays in the field for several polls: still one card.
      const answered = emulator.targetsAnswered;
      await until(
        () => emulator.targetsAnswered >= answered + 3,
        5_000,
        'three more polls find it',
      );
      emulator.removeTag();
      emulator.placeTag({ uid: [0x01, 0x02, 0x03, 0x04], type: 'mifare-classic' });
      await until(() => reader.alarms.length === 1, 5_000, 'the foreign-card alarm');
      emulator.removeTag();
      await emptyFieldPolled();
      emulator.placeTag({ uid: [0xde, 0xad, 0xbe, 0xef], type: 'mifare-classic' });
      await until(() => reader.cards.length === 2, 5_000, 'the second card');
      emulator.removeTag();
      await emptyFieldPolled();
      emulator.placeTag({
        uid: [0x08, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99],
        type: 'ntag21x',
      });
      await until(() => reader.cards.length === 3, 5_000, 'the third card');

      expect(reader.cards).toEqual(['AS/red/down', 'KH/red/down', '2C/red/down']);
      expect(reader.alarms).toHaveLength(1);
      expect(reader.alarms[0]).toMatchObject({ kind: 'foreign_card', uid: '01020304' });
      // The reader spoke to the PN532 as UM0701-02 says: firmware, SAM, then polls aborted by ACK.
      expect(emulator.commands.slice(0, 3)).toEqual([0x02, 0x14, 0x4a]);
      expect(emulator.aborts).toBeGreaterThan(0);
      expect(emulator.droppedFrames).toBe(0);
    });
  },
);
