/**
 * How many cards one legal round takes from a given shoe, for the games that
 * take a fresh deck every round (Triple Shot, the poker games): the round is
 * played on the shoe's own cards by the scripted dealer of
 * firmware-host/games/cards/table/legal-deal.ts (`dealLegalSession`), so the count fits
 * the cards (a Triple Shot box that hits draws as the cards fall, a draw-poker
 * exchange takes what it asks for), not an average.
 *
 * `dealLegalSession` deals our seeded shoe as given (its `order` option), so
 * the simulator's shoes (stacked, two-colour, explicit orders) stay what they
 * were. Pure: the randomness of the dealer's choices (boxes, decisions) comes
 * from the Random passed in.
 */
import type { CardCode } from '../../../../device-protocol/cards.ts';
import { SimulatorError } from '../../../../simulators/errors.ts';
import type { Random } from '../../../../simulators/random.ts';
import { createEngine } from '../../engines.ts';
import { getRuleset } from '../../rulesets.ts';
import { dealLegalSession } from '../table/legal-deal.ts';

/** A decision pressed at the console: the seat (a box, or the dealer), the action, the cards exchanged. */
export interface PlannedAction {
  box?: number;
  action: string;
  /** Card positions (0-4) a draw-poker exchange names. */
  cards?: number[];
}

/**
 * One decision point of the round, in order: pressed at the console, or a
 * card drawn that stands for it (a hit; one card may stand for several
 * decisions in a row, as the table takes it).
 */
export type PlannedMove = ({ kind: 'action' } & PlannedAction) | { kind: 'card'; implied: string };

export interface LegalRound {
  /** Cards the round takes from the top of the shoe, burns and markers included. */
  cards: number;
  /** Boxes in play (absent for baccarat). */
  boxes?: number[];
  /** The decisions the scripted dealer took that no card expresses, in order (for the console). */
  actions: PlannedAction[];
  /**
   * Every decision point in order, the card-expressed ones too: a dealer who
   * makes exactly these takes exactly `cards` cards (a hit the plan took as a
   * card and the dealer pressed as a stand would leave the round short).
   */
  moves: PlannedMove[];
  /** The round was cut short because the cards ran out (the table voids it and ends the shoe). */
  exhausted: boolean;
}

export interface LegalRoundOptions {
  ruleset: string;
  /** The cards of the shoe in the order they leave it (only the codes matter). */
  cards: readonly string[];
  decks: number;
  random: Random;
  /** Boxes in play; default a random non-empty set for each round. */
  boxes?: readonly number[];
}

/** Plays one legal round of `ruleset` on `cards` and says how many it took. */
export function legalRound(options: LegalRoundOptions): LegalRound {
  const ruleset = getRuleset(options.ruleset);
  const order = [...options.cards] as CardCode[];
  let deal: ReturnType<typeof dealLegalSession>;
  try {
    deal = dealLegalSession({
      ruleset,
      engine: createEngine(ruleset),
      random: () => options.random.float(),
      shoes: 1,
      maxRoundsPerShoe: 1,
      decks: options.decks,
      ...(options.boxes === undefined ? {} : { boxes: options.boxes }),
      order,
    });
  } catch (error) {
    throw new SimulatorError(
      'bad_options',
      `no legal round of ${ruleset.name} on this shoe${options.boxes ? ` with boxes ${options.boxes.join(',')}` : ''}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const round: LegalRound = {
    cards: 0,
    actions: [],
    moves: [],
    exhausted: deal.exhausted.length > 0,
  };
  for (const [index, record] of deal.records.entries()) {
    const note = deal.notes[index];
    if (record.t === 'card') {
      round.cards++;
      if (note?.kind === 'card' && note.implied !== undefined) {
        round.moves.push({ kind: 'card', implied: note.implied });
      }
    } else if (record.t === 'round' && record.boxes) round.boxes = [...record.boxes];
    else if (record.t === 'action') {
      const action: PlannedAction = {
        ...(record.box === undefined ? {} : { box: record.box }),
        action: record.action,
        ...(record.cards ? { cards: [...record.cards] } : {}),
      };
      round.actions.push(action);
      round.moves.push({ kind: 'action', ...action });
    }
  }
  return round;
}

/**
 * How many cards a dealer deals from a freshly loaded shoe before the table
 * ends it: the scripted dealer of `dealLegalSession` plays the shoe's own
 * cards (the marker where it lies) round by round and stops where the
 * session's shoe-end rules stop a real one (the cut card's round finished,
 * the coups after the last-hand marker, or a coup the shoe cannot complete),
 * so the cards after that stay in the shoe. Marker jokers dealt count.
 */
export function legalShoeLength(
  options: Omit<LegalRoundOptions, 'boxes'> & { cutAfter?: number },
): number {
  const ruleset = getRuleset(options.ruleset);
  let deal: ReturnType<typeof dealLegalSession>;
  try {
    deal = dealLegalSession({
      ruleset,
      engine: createEngine(ruleset),
      random: () => options.random.float(),
      shoes: 1,
      decks: options.decks,
      order: [...options.cards] as CardCode[],
      ...(options.cutAfter === undefined ? {} : { cutAfter: options.cutAfter }),
    });
  } catch (error) {
    throw new SimulatorError(
      'bad_options',
      `no legal deal of ${ruleset.name} on this shoe: ${(error as Error).message}`,
      { cause: error },
    );
  }
  return deal.records.filter((record) => record.t === 'card').length;
}
