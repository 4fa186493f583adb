/**
 * Seeded legal shoes for a ruleset. A shoe is what the dealer loads: the
 * shuffled cards in the order they will leave it, with the marker (cut card
 * or last-hand joker) where the ruleset puts it, split into the deals a
 * round uses where a game deals one deck per round (Triple Shot, poker).
 *
 * The ruleset facts the simulator needs (decks, backs, marker, cards per
 * round) are a small recipe, read from the engine's ruleset registry. The
 * table below covers shipped rulesets the registry does not hold yet (it
 * fills in game by game); each entry cites its seed article.
 */
import {
  type BackColour,
  type CardCode,
  JOKER,
  type PhysicalCard,
  standardDeck,
} from '../device-protocol/cards.ts';
import {
  rulesetNames as engineRulesetNames,
  getRuleset,
  type Ruleset,
} from '../firmware-host/engine/rulesets/index.ts';
import { SimulatorError } from './errors.ts';
import type { Random } from './random.ts';

export type ShoeMarker =
  /** A cut card with `cardsBehind` cards after it (blackjack, 003 § 23). */
  | { kind: 'cut'; cardsBehind: number }
  /** A joker last-hand marker with `cardsBehind` cards after it (Punto Banco, 003 § 24 (1), item 5). */
  | { kind: 'joker'; cardsBehind: number }
  | { kind: 'none' };

export interface ShoeRecipe {
  ruleset: string;
  /** Decks per back colour in one shuffle. */
  decks: number;
  backs: BackColour[];
  /** One deck per round, colours alternating (000 § 2.c; 001 "Barajador Automatico"). */
  alternateBacks: boolean;
  marker: ShoeMarker;
  /** A fresh deck (or shoe) for every round: alternating colours, or 000 § 7. */
  shufflePerRound: boolean;
  /** Cards one round takes, for the pause between rounds; 0 where it varies too much to matter. */
  cardsPerRound: number;
  source: string;
}

const baccarat = (ruleset: string, decks: number, source: string): ShoeRecipe => ({
  ruleset,
  decks,
  backs: ['red'],
  alternateBacks: false,
  marker: { kind: 'joker', cardsBehind: 16 },
  shufflePerRound: false,
  cardsPerRound: 5,
  source,
});

const blackjack = (ruleset: string, decks: number, source: string): ShoeRecipe => ({
  ruleset,
  decks,
  backs: ['red'],
  alternateBacks: false,
  // Practice: about three quarters of the shoe is dealt before the cut card.
  marker: { kind: 'cut', cardsBehind: Math.round(decks * 52 * 0.25) },
  shufflePerRound: false,
  cardsPerRound: 12,
  source,
});

const singleDeck = (
  ruleset: string,
  backs: BackColour[],
  cardsPerRound: number,
  source: string,
): ShoeRecipe => ({
  ruleset,
  decks: 1,
  backs,
  alternateBacks: backs.length > 1,
  marker: { kind: 'none' },
  shufflePerRound: true,
  cardsPerRound,
  source,
});

/** Fallback recipes, for shipped rulesets the engine registry does not hold yet. */
export const SHOE_RECIPES: Readonly<Record<string, ShoeRecipe>> = {
  'monaco-punto-2000': baccarat('monaco-punto-2000', 8, '002 § 13; 003 § 24 (1)'),
  'bulgaria-punto-banco': baccarat('bulgaria-punto-banco', 8, '003 § 24 (1)'),
  'tdc-baccarat-no-commission': baccarat('tdc-baccarat-no-commission', 8, '004 baccarat'),
  'bulgaria-blackjack': blackjack('bulgaria-blackjack', 6, '003 § 14, § 23'),
  'tdc-blackjack': blackjack('tdc-blackjack', 6, '004 blackjack'),
  // Three boxes and the dealer, six cards each (000 § 2.c, § 8).
  'peru-triple-shot': singleDeck('peru-triple-shot', ['red', 'blue'], 24, '000 § 2.c.1-c.3'),
  // Three boxes: 2 each, 2 dealer, 3 burns, 5 board (001 "Desarrollo del juego").
  'spain-holdem-bonus': singleDeck(
    'spain-holdem-bonus',
    ['red', 'blue'],
    16,
    '001 "Barajador Automatico"',
  ),
  'tdc-casino-holdem': singleDeck('tdc-casino-holdem', ['red'], 13, '004 casino holdem'),
  'bulgaria-caribbean-stud': singleDeck('bulgaria-caribbean-stud', ['red'], 20, '003 § 24'),
  'tdc-russian-poker': singleDeck('tdc-russian-poker', ['red'], 20, '004 russian poker'),
  'bulgaria-seven-card-stud': singleDeck('bulgaria-seven-card-stud', ['red'], 28, '003 § 27'),
};

/** Cards one round takes, roughly: only the pause between rounds depends on it. */
const CARDS_PER_ROUND: Readonly<Record<string, number>> = {
  'punto-banco': 5,
  blackjack: 12,
  'triple-shot': 24,
};

/** The recipe of an engine ruleset. */
export function recipeFromRuleset(ruleset: Ruleset): ShoeRecipe {
  const decks = ruleset.decks.default;
  const backs =
    ruleset.backs.kind === 'single' ? [ruleset.backs.colour] : [...ruleset.backs.colours];
  const alternate = ruleset.backs.kind === 'alternating';
  const end = ruleset.shoeEnd;
  const size = decks * 52 * (alternate ? 1 : backs.length);
  let marker: ShoeMarker;
  switch (end.kind) {
    case 'cut_card':
      marker = { kind: 'cut', cardsBehind: Math.round(size * end.fractionBehind) };
      break;
    case 'last_hand_marker':
      marker = { kind: end.marker === 'joker' ? 'joker' : 'cut', cardsBehind: end.cardsBehind };
      break;
    case 'reshuffle_every_round':
      marker = { kind: 'none' };
      break;
  }
  return {
    ruleset: ruleset.name,
    decks,
    backs,
    alternateBacks: alternate,
    marker,
    shufflePerRound: alternate || end.kind === 'reshuffle_every_round',
    cardsPerRound: CARDS_PER_ROUND[ruleset.game] ?? 20,
    source: end.source,
  };
}

/** The engine's ruleset names; none while its registry cannot load, so the table below still serves. */
function engineNames(): readonly string[] {
  try {
    return engineRulesetNames();
  } catch {
    return [];
  }
}

export function rulesetNames(): string[] {
  return [...new Set([...engineNames(), ...Object.keys(SHOE_RECIPES)])].sort();
}

export function recipeFor(ruleset: string): ShoeRecipe {
  if (engineNames().includes(ruleset)) return recipeFromRuleset(getRuleset(ruleset));
  const recipe = SHOE_RECIPES[ruleset];
  if (!recipe) {
    throw new SimulatorError(
      'unknown_ruleset',
      `unknown ruleset ${JSON.stringify(ruleset)}: expected one of ${rulesetNames().join(', ')}`,
    );
  }
  return recipe;
}

/** One load of the shoe: what the shuffler reports and the shoe deals. */
export interface SimShoe {
  decks: number;
  backs: BackColour[];
  /** Cards in the order they leave, the marker joker included; the cut card is `cutAfter`. */
  cards: PhysicalCard[];
  /** The cut card leaves after this many cards (absent: no cut card). */
  cutAfter?: number;
}

/** How the shoe is put together: a fair seeded shuffle, or stacked in new-deck order. */
export type ShuffleMode = 'fair' | 'stacked';

/**
 * Deals shoes for a recipe, one after the other. With alternating backs each
 * shoe is one deck of the next colour; otherwise every colour's decks are
 * shuffled together.
 */
export class ShoeDealer {
  private loads = 0;

  constructor(
    readonly recipe: ShoeRecipe,
    private readonly random: Random,
  ) {}

  /** The back colour of the next alternating deck. */
  nextBack(): BackColour {
    return this.recipe.backs[this.loads % this.recipe.backs.length]!;
  }

  next(mode: ShuffleMode = 'fair', backsOverride?: BackColour[]): SimShoe {
    const recipe = this.recipe;
    const backs = backsOverride ?? (recipe.alternateBacks ? [this.nextBack()] : recipe.backs);
    this.loads++;
    const physical: PhysicalCard[] = [];
    for (const back of backs) {
      for (let d = 0; d < recipe.decks; d++) {
        for (const card of standardDeck()) physical.push({ card, back, face: 'down' });
      }
    }
    const ordered = mode === 'stacked' ? physical : this.random.shuffled(physical);
    const shoe: SimShoe = { decks: recipe.decks, backs: [...backs], cards: ordered };
    const marker = recipe.marker;
    if (marker.kind === 'joker') {
      const at = Math.max(0, ordered.length - marker.cardsBehind);
      ordered.splice(at, 0, { card: JOKER, back: backs[0]!, face: 'down' });
    } else if (marker.kind === 'cut') {
      shoe.cutAfter = Math.max(0, ordered.length - marker.cardsBehind);
    }
    return shoe;
  }
}

/** The card codes of a shoe in order, as a card-reading shuffler reports them. */
export function shoeOrder(shoe: SimShoe): CardCode[] {
  return shoe.cards.map((physical) => physical.card);
}
