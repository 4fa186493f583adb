/**
 * RFID tag UIDs of the simulator's decks. Each physical card of a simulated
 * shoe carries a stable 7-byte UID (like an NTAG, first byte 04) derived from
 * its deck's name and its card code, so the reader simulator, `tableside deck
 * enroll` and a registry written by `tableside sim reader --write-registry`
 * all agree without sharing state.
 *
 * Deck names: `sim-<back>-<n>`, n from 1 for each deck of that back colour.
 */
import { createHash } from 'node:crypto';
import { type BackColour, type CardCode, standardDeck } from '../device-protocol/cards.ts';

export function simDeckName(back: BackColour, index: number): string {
  return `sim-${back}-${index + 1}`;
}

export function simTagUid(deck: string, card: CardCode): string {
  const digest = createHash('sha256').update(`tableside-sim-tag/${deck}/${card}`).digest('hex');
  return `04${digest.slice(0, 12).toUpperCase()}`;
}

/** The 52 tags of one deck in standardDeck() order, as `tableside deck enroll` expects them. */
export function deckTags(deck: string): Array<{ uid: string; card: CardCode }> {
  return standardDeck().map((card) => ({ uid: simTagUid(deck, card), card }));
}

/**
 * Tracks which copy of a card a shoe is on, so that the eight aces of spades
 * of an eight-deck shoe carry eight different tags.
 */
export class ShoeTagger {
  private readonly copies = new Map<string, number>();

  constructor(private decks: number) {}

  /** A new shoe: every card starts again at its first copy. */
  reset(decks: number): void {
    this.decks = decks;
    this.copies.clear();
  }

  uidFor(card: CardCode, back: BackColour): string {
    if (card === 'JK') return simTagUid(simDeckName(back, 0), card);
    const key = `${card}/${back}`;
    const copy = this.copies.get(key) ?? 0;
    this.copies.set(key, copy + 1);
    return simTagUid(simDeckName(back, copy % Math.max(1, this.decks)), card);
  }
}

/** A registry document covering every deck a simulated shoe of `decks` decks per colour uses. */
export function simRegistryDocument(backs: readonly BackColour[], decks: number) {
  const registryDecks: Record<string, { back: BackColour; tags: Record<string, CardCode> }> = {};
  for (const back of backs) {
    for (let index = 0; index < decks; index++) {
      const name = simDeckName(back, index);
      const tags: Record<string, CardCode> = {};
      for (const { uid, card } of deckTags(name)) tags[uid] = card;
      // Marker jokers (Punto Banco's last-hand card) ride in the first deck of each colour.
      if (index === 0) tags[simTagUid(name, 'JK')] = 'JK';
      registryDecks[name] = { back, tags };
    }
  }
  return { format: 'tableside-deck-registry' as const, version: 1 as const, decks: registryDecks };
}
