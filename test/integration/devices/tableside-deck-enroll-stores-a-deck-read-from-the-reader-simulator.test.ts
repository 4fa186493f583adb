import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { standardDeck } from '../../../device-protocol/cards.ts';
import { DeckRegistry } from '../../../hardware/readers/deck-registry.ts';
import { deckTags, simRegistryDocument } from '../../../simulators/tags.ts';
import { type CliResult, runCli } from '../../helpers/cli.ts';
import { tempDir } from '../../helpers/temp.ts';
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

    /** `deck enroll` on one end of a fresh pty pair, `sim reader` enrolling `readerDeck` on the other. */
    async function enrollFromReader(enrolling: {
      deck: string;
      back: string;
      registryFile: string;
      readerDeck: string;
    }) {
      const pair = new PtyPair();
      await pair.start();
      cleanups.push(() => pair.kill());
      const enroll = runCli([
        'deck',
        'enroll',
        '--link',
        pair.a,
        '--deck',
        enrolling.deck,
        '--back',
        enrolling.back,
        '--registry',
        enrolling.registryFile,
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
        enrolling.readerDeck,
        '--rate',
        '300',
      ]);
      // Whatever the test's outcome, no child outlives it (a no-op for one that exited).
      cleanups.push(async () => {
        enroll.kill('SIGKILL');
        reader.kill('SIGKILL');
      });
      return { enroll: bounded(enroll, 'deck enroll'), reader: bounded(reader, 'sim reader') };
    }

    /**
     * A child that has not exited `ms` after it was asked to is killed, and the
     * test fails naming it with what it printed: a stuck child is a diagnosis,
     * never a test that hangs.
     */
    function bounded(child: ReturnType<typeof runCli>, name: string) {
      const within = async (ms: number): Promise<CliResult> => {
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<'late'>((resolve) => {
          timer = setTimeout(() => resolve('late'), ms);
        });
        const result = await Promise.race([child.done, late]);
        clearTimeout(timer);
        if (result !== 'late') return result;
        child.kill('SIGKILL');
        const { stderr } = await child.done;
        throw new Error(`${name} had not exited after ${ms} ms; it printed:\n${stderr}`);
      };
      return {
        /** Its own end: `deck enroll` gives up after 20 s without a tag. */
        done: () => within(40_000),
        /** Asked to end (SIGTERM): it stops at once. */
        end: () => {
          child.kill();
          return within(10_000);
        },
      };
    }

    it('the 52 tags land in the registry in standard-deck order', async () => {
      const registryFile = join(tempDir('tableside-decks-'), 'decks.json');
      const { enroll, reader } = await enrollFromReader({
        deck: 'blue-7',
        back: 'blue',
        registryFile,
        readerDeck: 'blue-7',
      });
      const enrolled = await enroll.done();
      // The reader has nothing left to say once the deck is enrolled: end it rather than wait on it.
      await reader.end();
      expect(enrolled.code, enrolled.stderr).toBe(0);
      const registry = DeckRegistry.parse(readFileSync(registryFile, 'utf8'));
      expect(registry.deck('blue-7')?.back).toBe('blue');
      for (const { uid, card } of deckTags('blue-7')) expect(registry.lookup(uid)?.card).toBe(card);
      expect(Object.values(registry.deck('blue-7')!.tags)).toEqual(standardDeck());
    });

    it('a deck whose tags are already enrolled elsewhere is refused and nothing is written', async () => {
      const registryFile = join(tempDir('tableside-decks-'), 'decks.json');
      // The simulator's own red deck is already there under its sim name.
      const before = `${JSON.stringify(simRegistryDocument(['red'], 1), null, 2)}\n`;
      writeFileSync(registryFile, before);
      const { enroll, reader } = await enrollFromReader({
        deck: 'copy',
        back: 'red',
        registryFile,
        readerDeck: 'sim-red-1',
      });
      const enrolled = await enroll.done();
      // The reader has nothing left to say once the enrolment ended: end it rather than wait on it.
      await reader.end();
      expect(enrolled.code).toBe(1);
      expect(enrolled.stderr).toMatch(/already AS of deck sim-red-1/);
      expect(readFileSync(registryFile, 'utf8')).toBe(before);
    });
  },
  // Two CLI child processes start under tsx: on a loaded 2-core machine that alone takes seconds.
  60_000,
);
