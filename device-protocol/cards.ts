import { ProtocolError } from './errors.ts';

/** Ranks in the wire order used by the whole project: ace low, ten as `T`. */
export const RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K'] as const;
export const SUITS = ['S', 'H', 'D', 'C'] as const;

export type Rank = (typeof RANKS)[number];
export type Suit = (typeof SUITS)[number];
/** A standard card, e.g. `AS`, `TD`. */
export type StandardCard = `${Rank}${Suit}`;
/** `JK` is the joker, only ever used as a marker (last-hand marker in Punto Banco). */
export type Joker = 'JK';
export type CardCode = StandardCard | Joker;

export type Face = 'up' | 'down';
/** Back colours are free-form lower-case words (`red`, `blue`, ...), fixed per shoe by the ruleset. */
export type BackColour = string;

/** A physical card as a device reports it: its face, its back colour and how it lay in the shoe. */
export interface PhysicalCard {
  readonly card: CardCode;
  readonly back: BackColour;
  readonly face: Face;
}

export const JOKER: Joker = 'JK';

const RANK_SET = new Set<string>(RANKS);
const SUIT_SET = new Set<string>(SUITS);
const BACK_COLOUR = /^[a-z][a-z0-9-]{0,15}$/;

export function isCardCode(value: string): value is CardCode {
  return (
    value === JOKER || (value.length === 2 && RANK_SET.has(value[0]!) && SUIT_SET.has(value[1]!))
  );
}

export function isStandardCard(value: string): value is StandardCard {
  return value !== JOKER && isCardCode(value);
}

/** Parses a card code; the error names the bad input and what a code looks like. */
export function parseCard(value: string): CardCode {
  if (isCardCode(value)) return value;
  throw new ProtocolError(
    'bad_card',
    `bad card code ${JSON.stringify(value)}: expected rank A 2-9 T J Q K then suit S H D C (e.g. AS, TD), or JK`,
  );
}

/** Parses a whitespace- or comma-separated list of card codes. */
export function parseCards(text: string): CardCode[] {
  return text
    .split(/[\s,]+/)
    .filter((token) => token.length > 0)
    .map((token) => parseCard(token.toUpperCase()));
}

export function parseBackColour(value: string): BackColour {
  if (BACK_COLOUR.test(value)) return value;
  throw new ProtocolError(
    'bad_card',
    `bad back colour ${JSON.stringify(value)}: expected a lower-case word of 1-16 letters, digits or dashes`,
  );
}

export function parseFace(value: string): Face {
  if (value === 'up' || value === 'down') return value;
  throw new ProtocolError(
    'bad_card',
    `bad orientation ${JSON.stringify(value)}: expected up or down`,
  );
}

export function rankOf(card: StandardCard): Rank {
  return card[0] as Rank;
}

export function suitOf(card: StandardCard): Suit {
  return card[1] as Suit;
}

/** 0 for ace .. 12 for king, the index into RANKS. */
export function rankIndex(card: StandardCard): number {
  return RANKS.indexOf(rankOf(card));
}

/** One 52-card deck in a fixed order: suits S H D C, ranks A..K within each. */
export function standardDeck(): StandardCard[] {
  const deck: StandardCard[] = [];
  for (const suit of SUITS) for (const rank of RANKS) deck.push(`${rank}${suit}`);
  return deck;
}

/** The key a shoe composition counts by: card code and back colour. */
export function compositionKey(card: CardCode, back: BackColour): string {
  return `${card}/${back}`;
}

export interface ShoeSpec {
  /** Decks of 52 cards per back colour. */
  readonly decks: number;
  /** Back colours in the shoe; each colour holds `decks` full decks. */
  readonly backs: readonly BackColour[];
  /** Jokers used as markers (e.g. the last-hand marker), with the back colour of the first deck. */
  readonly jokers?: number;
}

/**
 * The multiset of cards a shoe holds: `decks` full decks for each back
 * colour, plus marker jokers. Keys are `compositionKey(card, back)`.
 */
export function shoeComposition(spec: ShoeSpec): Map<string, number> {
  if (!Number.isInteger(spec.decks) || spec.decks < 1 || spec.decks > 16) {
    throw new ProtocolError(
      'bad_composition',
      `bad deck count ${spec.decks}: expected a whole number 1-16`,
    );
  }
  if (spec.backs.length === 0) {
    throw new ProtocolError('bad_composition', 'a shoe needs at least one back colour');
  }
  const composition = new Map<string, number>();
  for (const back of spec.backs) {
    parseBackColour(back);
    for (const card of standardDeck()) composition.set(compositionKey(card, back), spec.decks);
  }
  const jokers = spec.jokers ?? 0;
  if (jokers > 0) composition.set(compositionKey(JOKER, spec.backs[0]!), jokers);
  return composition;
}

/** Number of cards in a shoe of this spec. */
export function shoeSize(spec: ShoeSpec): number {
  return spec.decks * 52 * spec.backs.length + (spec.jokers ?? 0);
}
