/**
 * Seeded legal shoes for a ruleset. A shoe is what the dealer loads: the
 * shuffled cards in the order they will leave it, with the marker (cut card
 * or last-hand joker) where the ruleset puts it. Where a game deals one deck
 * per round (Triple Shot, poker), how many cards a round takes comes from a
 * legal round played on that deck (legal-round.ts).
 *
 * The ruleset facts the simulator needs (decks, backs, marker) are a small
 * recipe, read from the engine's ruleset registry, which holds every shipped
 * ruleset (each with its seed sources).
 */
import {
  type BackColour,
  type CardCode,
  JOKER,
  type PhysicalCard,
  standardDeck,
} from '../../../../device-protocol/cards.ts';
import { SimulatorError } from '../../../../simulators/errors.ts';
import type { Random } from '../../../../simulators/random.ts';
import { findGameOf } from '../../registry.ts';
import {
  rulesetNames as engineRulesetNames,
  getRuleset,
  type Ruleset,
  rouletteRulesetNames,
} from '../../rulesets.ts';

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
  source: string;
}

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
    source: end.source,
  };
}

export function rulesetNames(): string[] {
  return [...engineRulesetNames()].sort();
}

export function recipeFor(ruleset: string): ShoeRecipe {
  const game = findGameOf(ruleset);
  if (game && game.simulator !== 'dealer') {
    throw new SimulatorError(
      'unknown_ruleset',
      `${ruleset} is a ${game.id} ruleset: ${game.simulatorHint}, not a shoe; card rulesets: ${rulesetNames().join(', ')}`,
    );
  }
  if (!engineRulesetNames().includes(ruleset)) {
    throw new SimulatorError(
      'unknown_ruleset',
      `unknown ruleset ${JSON.stringify(ruleset)}: expected one of ${rulesetNames().join(', ')} (roulette, for \`tableside sim wheel\`: ${rouletteRulesetNames().join(', ')})`,
    );
  }
  return recipeFromRuleset(getRuleset(ruleset));
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
  /** Where in the recipe's colours the alternation starts. */
  private readonly firstBackAt: number;

  /**
   * `firstBack`: the colour of the first alternating deck (default the
   * recipe's first), so a dealer taking over a table whose last deck was red
   * brings in the blue one (000 § 2.c.2).
   */
  constructor(
    readonly recipe: ShoeRecipe,
    private readonly random: Random,
    firstBack?: BackColour,
  ) {
    const at = firstBack === undefined ? 0 : recipe.backs.indexOf(firstBack);
    if (at < 0) {
      throw new SimulatorError(
        'bad_options',
        `first back colour ${firstBack} is not one of ${recipe.ruleset}'s: ${recipe.backs.join(', ')}`,
      );
    }
    this.firstBackAt = at;
  }

  /** The back colour of the next alternating deck. */
  nextBack(): BackColour {
    return this.recipe.backs[(this.firstBackAt + this.loads) % this.recipe.backs.length]!;
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
