import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { standardDeck } from '../../../device-protocol/cards.ts';
import { DeckRegistry } from '../../../firmware-host/drivers/deck-registry.ts';
import { deckTags, simRegistryDocument } from '../../../simulators/tags.ts';
import { runCli } from './cli.ts';
import { PtyPair, socatMissing } from './pty.ts';

const missing = socatMissing();
if (missing) console.warn(`skipped: ${missing}`);

describe.skipIf(missing !== undefined)(
  'tableside deck enroll stores a deck read from the reader simulator',
  () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    it('the 52 tags land in the registry in standard-deck order', async () => {
      const pair = new PtyPair();
      await pair.start();
      cleanups.push(() => pair.kill());
      const registryFile = join(mkdtempSync(join(tmpdir(), 'tableside-decks-')), 'decks.json');
      const enroll = runCli([
        'deck',
        'enroll',
        '--link',
        pair.a,
        '--deck',
        'blue-7',
        '--back',
        'blue',
        '--registry',
        registryFile,
        '--timeout',
        '20',
      ]);
      const reader = runCli([
        'sim',
        'reader',
        '--link',
        pair.b,
        '--ruleset',
        'peru-triple-shot',
        '--enroll',
        'blue-7',
        '--rate',
        '300',
      ]);
      const enrolled = await enroll.done;
      await reader.done;
      expect(enrolled.code, enrolled.stderr).toBe(0);
      const registry = DeckRegistry.parse(readFileSync(registryFile, 'utf8'));
      expect(registry.deck('blue-7')?.back).toBe('blue');
      for (const { uid, card } of deckTags('blue-7')) expect(registry.lookup(uid)?.card).toBe(card);
      expect(Object.values(registry.deck('blue-7')!.tags)).toEqual(standardDeck());
    });

    it('a deck whose tags are already enrolled elsewhere is refused and nothing is written', async () => {
      const pair = new PtyPair();
      await pair.start();
      cleanups.push(() => pair.kill());
      const registryFile = join(mkdtempSync(join(tmpdir(), 'tableside-decks-')), 'decks.json');
      // The simulator's own red deck is already there under its sim name.
      const before = `${JSON.stringify(simRegistryDocument(['red'], 1), null, 2)}\n`;
      writeFileSync(registryFile, before);
      const enroll = runCli([
        'deck',
        'enroll',
        '--link',
        pair.a,
        '--deck',
        'copy',
        '--back',
        'red',
        '--registry',
        registryFile,
        '--timeout',
        '20',
      ]);
      const reader = runCli([
        'sim',
        'reader',
        '--link',
        pair.b,
        '--ruleset',
        'peru-triple-shot',
        '--enroll',
        'sim-red-1',
        '--rate',
        '300',
      ]);
      const enrolled = await enroll.done;
      reader.kill();
      await reader.done;
      expect(enrolled.code).toBe(1);
      expect(enrolled.stderr).toMatch(/already AS of deck sim-red-1/);
      expect(readFileSync(registryFile, 'utf8')).toBe(before);
    });
  },
);
