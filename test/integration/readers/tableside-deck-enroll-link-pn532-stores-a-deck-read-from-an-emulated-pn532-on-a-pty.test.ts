import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { standardDeck } from '../../../device-protocol/cards.ts';
import { DeckRegistry } from '../../../hardware/readers/deck-registry.ts';
import { cliEntryArgs } from '../../helpers/built-cli.ts';
import { REPO_ROOT } from '../../helpers/cli.ts';
import { type Pn532OnPty, pn532OnPty, socatMissing, until } from './pn532-on-a-pty.ts';

const missing = socatMissing();
if (missing) console.log(missing);

/** The 7-byte NTAG21x UID of card `index` of the test deck. */
function uidOf(index: number): number[] {
  return [0x04, 0x5e, 0x00, 0x00, 0x10, index, 0x80 ^ index];
}

describe.skipIf(missing !== undefined)(
  'tableside deck enroll --link pn532: stores a deck read from an emulated PN532 on a pty',
  () => {
    let pty: Pn532OnPty | undefined;
    let folder: string | undefined;
    let kill: (() => void) | undefined;

    afterEach(async () => {
      kill?.();
      await pty?.stop();
      if (folder) rmSync(folder, { recursive: true, force: true });
    });

    it('the 52 tags presented in standard-deck order land in the registry under their cards', async () => {
      pty = await pn532OnPty();
      folder = mkdtempSync(join(tmpdir(), 'tableside-pn532-enroll-'));
      const registryFile = join(folder, 'decks.json');
      const child = spawn(
        process.execPath,
        [
          ...cliEntryArgs(),
          'deck',
          'enroll',
          '--link',
          `pn532:${pty.path}`,
          '--deck',
          'red-pn532',
          '--back',
          'red',
          '--registry',
          registryFile,
          '--timeout',
          '20',
        ],
        {
          cwd: REPO_ROOT,
          stdio: ['ignore', 'pipe', 'pipe'],
          env: { ...process.env, TABLESIDE_LOG_LEVEL: 'warn' },
        },
      );
      kill = () => child.kill('SIGKILL');
      let stderr = '';
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      const exited = new Promise<number | null>((resolve) =>
        child.on('exit', (code) => resolve(code)),
      );

      await until(() => /present the cards/.test(stderr), 20_000, 'the enrolment prompt');
      expect(stderr).toMatch(/reader PN532-HSU \S+ firmware PN532-1\.6/);
      for (let index = 0; index < 52; index++) {
        pty.emulator.placeTag({ uid: uidOf(index), type: 'ntag21x' });
        const line = `${String(index + 1).padStart(2)}/52 `;
        await until(() => stderr.includes(line), 5_000, `card ${index + 1} enrolled`);
        pty.emulator.removeTag();
      }
      expect(await exited, stderr).toBe(0);
      kill = undefined;

      const registry = DeckRegistry.parse(readFileSync(registryFile, 'utf8'));
      const deck = registry.deck('red-pn532');
      expect(deck?.back).toBe('red');
      expect(Object.values(deck?.tags ?? {})).toEqual(standardDeck());
      const hex = (bytes: number[]) =>
        bytes.map((b) => b.toString(16).padStart(2, '0').toUpperCase()).join('');
      standardDeck().forEach((card, index) => {
        expect(registry.lookup(hex(uidOf(index)))?.card).toBe(card);
      });
    });
  },
);
