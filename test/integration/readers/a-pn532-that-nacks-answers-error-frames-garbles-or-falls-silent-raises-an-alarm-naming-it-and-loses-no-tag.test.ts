import { describe, expect, it } from 'vitest';
import { DeckRegistry } from '../../../hardware/readers/deck-registry.ts';
import type { Pn532Fault } from '../../emulators/pn532.ts';
import { readerOnPtyPerTest, socatMissing, until } from './pn532-on-a-pty.ts';

const missing = socatMissing();
if (missing) console.log(missing);

const registry = new DeckRegistry();
registry.enrol('blue-1', 'blue', [
  ['04A1B2C3D4E5F6', 'QD'],
  ['0A0B0C0D', '7S'],
]);

describe.skipIf(missing !== undefined)(
  'a PN532 that NACKs, answers error frames, garbles or falls silent raises an alarm naming it and loses no tag',
  () => {
    const openReader = readerOnPtyPerTest(registry);

    async function readerPolling() {
      const { pty, reader } = await openReader();
      const { emulator } = pty;
      await until(() => emulator.commands.includes(0x4a), 5_000, 'the first tag poll');
      return { emulator, reader };
    }

    // A fault in the PN532's answers to a command shows at the next command
    // (nack, silent); a fault in its responses only once a tag answers a poll.
    it.each([
      ['nack', 'pn532_nack', /NACK.*check the wiring/, 'before'],
      ['error-frame', 'pn532_error_frame', /error frame.*power-cycle/, 'after'],
      ['bad-lcs', 'pn532_checksum', /damaged frame.*LCS.*check the wiring/, 'after'],
      ['bad-dcs', 'pn532_checksum', /damaged frame.*DCS.*check the wiring/, 'after'],
      ['silent', 'pn532_no_answer', /does not answer.*check its power/, 'before'],
    ] as const)(
      'a persistent %s fault: alarm %s, then the waiting tag is dealt once',
      async (fault, code, advice, shows) => {
        const { emulator, reader } = await readerPolling();
        emulator.setFault(fault as Pn532Fault);
        const tag = { uid: [0x04, 0xa1, 0xb2, 0xc3, 0xd4, 0xe5, 0xf6], type: 'ntag21x' } as const;
        if (shows === 'after') emulator.placeTag(tag);
        await until(() => reader.alarms.length > 0, 8_000, 'the alarm');
        if (shows === 'before') emulator.placeTag(tag);
        // While the PN532 is faulty the card waits in the field: nothing is guessed.
        // fixed wait: nothing happens: no card may be guessed while the PN532 is faulty: only time shows it
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(reader.cards).toEqual([]);
        const alarm = reader.alarms[0];
        expect(alarm).toMatchObject({ kind: 'device_fault', fault: code, device: 'reader' });
        expect(alarm?.message).toMatch(/^reader: pn532_\w+: PN532 /);
        expect(alarm?.message).toMatch(advice);

        emulator.setFault(undefined);
        await until(() => reader.cards.length === 1, 8_000, 'the card after recovery');
        // fixed wait: nothing happens: the card must not arrive twice, nor a second alarm: only time shows it
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(reader.cards).toEqual(['QD/blue/down']);
        // One alarm per fault episode, not one per poll.
        expect(reader.alarms).toHaveLength(1);
      },
    );

    it('one damaged response is asked for again with a NACK: the card, and no alarm', async () => {
      const { emulator, reader } = await readerPolling();
      emulator.setFault('bad-dcs', 1);
      emulator.placeTag({ uid: [0x0a, 0x0b, 0x0c, 0x0d], type: 'mifare-classic' });
      await until(() => reader.cards.length === 1, 5_000, 'the card');
      expect(reader.cards).toEqual(['7S/blue/down']);
      expect(emulator.nacksFromHost).toBe(1);
      expect(reader.alarms).toEqual([]);
    });
  },
);
