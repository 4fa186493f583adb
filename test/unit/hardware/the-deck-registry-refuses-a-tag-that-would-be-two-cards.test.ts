import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isHardwareError } from '../../../hardware/errors.ts';
import { DeckRegistry } from '../../../hardware/readers/deck-registry.ts';
import { deckTags, simRegistryDocument } from '../../../simulators/tags.ts';
import { tempDir as makeTempDir } from '../../helpers/temp.ts';

const pairs = (deck: string) => deckTags(deck).map(({ uid, card }) => [uid, card] as const);

function code(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return isHardwareError(error) ? error.code : 'other';
  }
  return undefined;
}

describe('the deck registry refuses a tag that would be two cards', () => {
  it('maps every enrolled tag to its card and back, in any case and with separators', () => {
    const registry = new DeckRegistry();
    registry.enrol('red-1', 'red', pairs('red-1'));
    const [first] = deckTags('red-1');
    expect(registry.lookup(first!.uid)).toEqual({
      uid: first!.uid,
      card: 'AS',
      back: 'red',
      deck: 'red-1',
    });
    expect(registry.lookup(first!.uid.toLowerCase().match(/../g)!.join(':'))?.card).toBe('AS');
    expect(registry.lookup('DEADBEEF')).toBeUndefined();
  });

  it('refuses a tag read twice in one deck, a tag of another deck, and a deck enrolled twice', () => {
    const registry = new DeckRegistry();
    registry.enrol('red-1', 'red', pairs('red-1'));
    const [first, second] = pairs('blue-1');
    expect(code(() => registry.enrol('blue-1', 'blue', [first!, [first![0], 'KD']]))).toBe(
      'duplicate_tag',
    );
    expect(code(() => registry.enrol('blue-1', 'blue', [second!, pairs('red-1')[0]!]))).toBe(
      'duplicate_tag',
    );
    expect(registry.deck('blue-1')).toBeUndefined();
    expect(code(() => registry.enrol('red-1', 'red', pairs('red-1')))).toBe('duplicate_tag');
    expect(
      code(() => registry.enrol('red-1', 'red', pairs('red-1'), { replace: true })),
    ).toBeUndefined();
  });

  it('round-trips through its file and refuses a corrupt one naming the field', async () => {
    const file = join(makeTempDir('tableside-registry-'), 'decks.json');
    const registry = DeckRegistry.fromDocument(simRegistryDocument(['red', 'blue'], 2));
    await registry.save(file);
    const loaded = await DeckRegistry.load(file);
    expect(loaded.toDocument()).toEqual(registry.toDocument());
    expect(loaded.size).toBe(4 * 52 + 2);
    expect(JSON.parse(readFileSync(file, 'utf8')).format).toBe('tableside-deck-registry');
    expect(() =>
      DeckRegistry.parse(
        '{"format":"tableside-deck-registry","version":1,"decks":{"x":{"back":"red","tags":{"04AB":"AS"}}}}',
      ),
    ).toThrow(/deck registry: decks\.x\.tags\.04AB: /);
    expect(
      (await DeckRegistry.load(join(file, '..', 'missing.json'), { missingOk: true })).size,
    ).toBe(0);
  });
});
