/**
 * The deck registry: which RFID tag stands for which card. A reader reports
 * only a tag UID; the registry turns it into a card and a back colour. A tag
 * the registry does not hold is a foreign card.
 *
 * File format (JSON, written atomically by `tableside deck enroll`):
 *
 *   {
 *     "format": "tableside-deck-registry",
 *     "version": 1,
 *     "decks": {
 *       "red-1": { "back": "red", "enrolled": "2025-01-31T10:00:00.000Z",
 *                  "tags": { "04A1B2C3D4E5F6": "AS", ... } }
 *     }
 *   }
 *
 * One UID stands for one card in one deck: parsing and enrolling refuse a
 * UID found twice.
 *
 * Shared by both sides: the shoe firmware names a card by its tag with it,
 * and the host's reader driver does the same for readers with no registry
 * of their own.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import {
  type BackColour,
  type CardCode,
  isCardCode,
  parseBackColour,
} from '../../device-protocol/cards.ts';
import { HardwareError } from '../errors.ts';

export const REGISTRY_FORMAT = 'tableside-deck-registry';

/** Tag UIDs as the protocol carries them: 4-10 bytes, upper-case hex. */
const UID = /^(?:[0-9A-F]{2}){4,10}$/;

export function normaliseUid(uid: string): string {
  return uid.replace(/[\s:-]/g, '').toUpperCase();
}

export function isTagUid(uid: string): boolean {
  return UID.test(uid);
}

const deckSchema = z
  .object({
    back: z.string().regex(/^[a-z][a-z0-9-]{0,15}$/, 'expected a lower-case colour word'),
    enrolled: z.string().optional(),
    tags: z.record(
      z.string().regex(UID, 'expected a tag UID of 4-10 bytes in upper-case hex'),
      z.string().refine(isCardCode, 'expected a card code such as AS or TD'),
    ),
  })
  .strict();

const registrySchema = z
  .object({
    format: z.literal(REGISTRY_FORMAT),
    version: z.literal(1),
    decks: z.record(z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/), deckSchema),
  })
  .strict();

export interface RegisteredTag {
  readonly uid: string;
  readonly card: CardCode;
  readonly back: BackColour;
  readonly deck: string;
}

export interface RegistryDeck {
  back: BackColour;
  enrolled?: string;
  tags: Record<string, CardCode>;
}

export interface RegistryDocument {
  format: typeof REGISTRY_FORMAT;
  version: 1;
  decks: Record<string, RegistryDeck>;
}

export interface EnrolOptions {
  /** Replace a deck of the same name (re-enrolling a deck); otherwise that is refused. */
  replace?: boolean;
  /** ISO time stamp to record; the caller supplies the clock. */
  enrolled?: string;
}

export class DeckRegistry {
  private readonly decksByName = new Map<string, RegistryDeck>();
  private readonly byUid = new Map<string, RegisteredTag>();

  /** Validates a parsed registry document; errors name the deck and tag. */
  static fromDocument(document: unknown, where = 'deck registry'): DeckRegistry {
    const parsed = registrySchema.safeParse(document);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new HardwareError(
        'bad_registry',
        `${where}: ${issue.path.join('.') || '(top level)'}: ${issue.message}`,
      );
    }
    const registry = new DeckRegistry();
    for (const [name, deck] of Object.entries(parsed.data.decks)) {
      const entry: RegistryDeck = { back: deck.back, tags: deck.tags as Record<string, CardCode> };
      if (deck.enrolled !== undefined) entry.enrolled = deck.enrolled;
      try {
        registry.add(name, entry);
      } catch (error) {
        throw new HardwareError('bad_registry', `${where}: ${(error as Error).message}`);
      }
    }
    return registry;
  }

  static parse(text: string, where = 'deck registry'): DeckRegistry {
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch (error) {
      throw new HardwareError('bad_registry', `${where}: not JSON: ${(error as Error).message}`);
    }
    return DeckRegistry.fromDocument(document, where);
  }

  /** Reads a registry file; a missing file is an empty registry when `missingOk`. */
  static async load(path: string, options: { missingOk?: boolean } = {}): Promise<DeckRegistry> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && options.missingOk) {
        return new DeckRegistry();
      }
      throw new HardwareError(
        'bad_registry',
        `cannot read deck registry ${path}: ${(error as Error).message}`,
      );
    }
    return DeckRegistry.parse(text, path);
  }

  get size(): number {
    return this.byUid.size;
  }

  deckNames(): string[] {
    return [...this.decksByName.keys()].sort();
  }

  deck(name: string): RegistryDeck | undefined {
    return this.decksByName.get(name);
  }

  lookup(uid: string): RegisteredTag | undefined {
    return this.byUid.get(normaliseUid(uid));
  }

  /**
   * Adds a deck: `tags` in any order, UID → card. Refuses a UID that is
   * already another card (in this deck or another), and a deck name already
   * used unless `replace`.
   */
  enrol(
    name: string,
    back: BackColour,
    tags: Iterable<readonly [string, CardCode]>,
    options: EnrolOptions = {},
  ): void {
    parseBackColour(back);
    const existing = this.decksByName.get(name);
    if (existing && !options.replace) {
      throw new HardwareError(
        'duplicate_tag',
        `deck ${name} is already enrolled (${Object.keys(existing.tags).length} tags); enrol it again with replace to overwrite it`,
      );
    }
    const deck: RegistryDeck = { back, tags: {} };
    if (options.enrolled !== undefined) deck.enrolled = options.enrolled;
    for (const [rawUid, card] of tags) {
      const uid = normaliseUid(rawUid);
      if (deck.tags[uid] !== undefined) {
        throw new HardwareError(
          'duplicate_tag',
          `tag ${uid} was read for ${deck.tags[uid]} and again for ${card}: one tag cannot be two cards`,
        );
      }
      deck.tags[uid] = card;
    }
    // Check against other decks before changing anything.
    for (const uid of Object.keys(deck.tags)) {
      const other = this.byUid.get(uid);
      if (other && other.deck !== name) {
        throw new HardwareError(
          'duplicate_tag',
          `tag ${uid} (${deck.tags[uid]}) is already enrolled as ${other.card} of deck ${other.deck}`,
        );
      }
    }
    if (existing) this.remove(name);
    this.add(name, deck);
  }

  remove(name: string): boolean {
    const deck = this.decksByName.get(name);
    if (!deck) return false;
    for (const uid of Object.keys(deck.tags)) this.byUid.delete(uid);
    this.decksByName.delete(name);
    return true;
  }

  toDocument(): RegistryDocument {
    const decks: Record<string, RegistryDeck> = {};
    for (const name of this.deckNames()) {
      const deck = this.decksByName.get(name)!;
      decks[name] = { ...deck, tags: { ...deck.tags } };
    }
    return { format: REGISTRY_FORMAT, version: 1, decks };
  }

  /** Writes the registry atomically (a temporary file renamed over the old one). */
  async save(path: string): Promise<void> {
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify(this.toDocument(), null, 2)}\n`, {
      encoding: 'utf8',
      flush: true,
    });
    await rename(temporary, path);
  }

  private add(name: string, deck: RegistryDeck): void {
    for (const [rawUid, card] of Object.entries(deck.tags)) {
      const uid = normaliseUid(rawUid);
      const other = this.byUid.get(uid);
      if (other) {
        throw new HardwareError(
          'duplicate_tag',
          `tag ${uid} stands for ${other.card} of deck ${other.deck} and for ${card} of deck ${name}`,
        );
      }
      this.byUid.set(uid, { uid, card, back: deck.back, deck: name });
    }
    this.decksByName.set(name, deck);
  }
}
