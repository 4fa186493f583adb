/**
 * The core both hold'em games share (Texas Hold'em Bonus, 001; Casino Texas
 * Hold'em, 004): two cards face down to each box and two to the dealer,
 * three community cards (the flop), a fourth (the turn) and a fifth (the
 * river), each face up and after the burns the ruleset's fixed burn points
 * name; each box's best five of its two cards and the board against the
 * dealer's. The flow of a round lives in `locate`: the first deal, then the
 * game's schedule of streets dealt and decisions taken, in order.
 *
 * A game gives its schedule, the words for its cards and decisions, and its
 * settlement; a decision is stored on the box under the schedule's key. A
 * box that folds takes no later decision, and when no box is left in after
 * a decision the round ends there (001 § 10; practice in Casino Hold'em,
 * where 004 is silent).
 */
import type { Face, StandardCard } from '../../../../device-protocol/cards.ts';
import type { BurnPolicy } from '../../../engine/rulesets/base.ts';
import type { Action } from '../../../engine/types.ts';
import {
  boxSteps,
  type FirstDealState,
  firstDealStep,
  type HandSummary,
  type Located,
  summarise,
  withBox,
} from './common.ts';

export type Street = 'flop' | 'turn' | 'river';

export interface HoleCards {
  readonly box: number;
  readonly cards: readonly StandardCard[];
}

/** A box with its two cards and its decisions, by the schedule's keys (null: not yet taken). */
export type HoldemBox<K extends string> = HoleCards & { readonly [key in K]: Action | null };

export interface HoldemState<B extends HoleCards> extends FirstDealState<B> {
  readonly board: readonly StandardCard[];
  readonly burns: readonly { readonly before: Street; readonly card: StandardCard }[];
}

/** A point of the round after the first deal: a street dealt, or each box still in deciding. */
export type HoldemPoint<K extends string> =
  | { readonly deal: Street }
  | {
      readonly decide: K;
      readonly options: readonly Action[];
      /** How an illegal decision's error names it. */
      readonly phase: string;
      /** What the box decides, for people. */
      purpose(box: number): string;
    };

type DecidePoint<K extends string> = Extract<HoldemPoint<K>, { decide: K }>;

export interface HoldemGame<K extends string, B extends HoldemBox<K>> {
  readonly burn: BurnPolicy;
  /** The purpose of the dealer's card in pass 0 or 1 of the first deal. */
  dealerCard(pass: number): string;
  /** The purpose of a box's card in pass 0 or 1 of the first deal. */
  boxCard(box: B, pass: number): string;
  readonly schedule: readonly HoldemPoint<K>[];
}

const BOARD_BEFORE: Record<Street, number> = { flop: 0, turn: 3, river: 4 };
const BOARD_AFTER: Record<Street, number> = { flop: 3, turn: 4, river: 5 };

/** The words for pass 0 and 1 of the first deal. */
export const ordinal = (pass: number): string => (pass === 0 ? 'first' : 'second');

/** The initial state's shared part: nothing dealt yet. */
export const NOTHING_DEALT = { dealer: [], board: [], burns: [], initialDealt: 0 } as const;

/** The best five of a box's (or the dealer's) cards and the board; null until the board is out. */
export function showdownHand(
  cards: readonly StandardCard[],
  board: readonly StandardCard[],
): HandSummary | null {
  return board.length === 5 ? summarise([...cards, ...board]) : null;
}

/** `next`, `deal`, `decide` and the completeness check of a hold'em game. */
export function holdemCore<K extends string, B extends HoldemBox<K>, S extends HoldemState<B>>(
  game: HoldemGame<K, B>,
) {
  const burnsBefore = (street: Street): number =>
    game.burn.kind === 'fixed'
      ? (game.burn.points.find((p) => p.before === street)?.count ?? 0)
      : 0;
  const burnFace: Face = game.burn.kind === 'fixed' ? game.burn.face : 'down';

  function streetCards(state: S, street: Street): Located<S, never> | undefined {
    const burned = state.burns.filter((b) => b.before === street).length;
    if (burned < burnsBefore(street)) {
      return {
        kind: 'card',
        to: 'burn',
        face: burnFace,
        purpose: `burn before the ${street}`,
        put: (s, card) => ({ ...s, burns: [...s.burns, { before: street, card }] }),
      };
    }
    if (state.board.length < BOARD_AFTER[street]) {
      const k = state.board.length - BOARD_BEFORE[street] + 1;
      return {
        kind: 'card',
        to: 'board',
        face: 'up',
        purpose: street === 'flop' ? `flop card ${k}` : `${street} card`,
        put: (s, card) => ({ ...s, board: [...s.board, card] }),
      };
    }
    return undefined;
  }

  /** A fold at any decision takes the box out of the round. */
  const stillIn = (box: B): boolean =>
    !game.schedule.some((point) => 'decide' in point && box[point.decide] === 'fold');

  function locate(state: S): Located<S, { point: DecidePoint<K> }> {
    const first = firstDealStep(state, 2, {
      dealer: (pass) => ({ face: 'down', purpose: game.dealerCard(pass) }),
      box: game.boxCard,
      put: (box, card) => ({ ...box, cards: [...box.cards, card] }),
    });
    if (first) return first;
    for (const point of game.schedule) {
      if ('deal' in point) {
        const cards = streetCards(state, point.deal);
        if (cards) return cards;
        continue;
      }
      const deciding = state.boxes.findIndex((b) => stillIn(b) && b[point.decide] === null);
      if (deciding >= 0)
        return { kind: 'decision', boxIndex: deciding, point, options: [...point.options] };
      // Nobody plays on: the dealer discards (001 § 10; practice where 004 is silent).
      if (!state.boxes.some(stillIn)) return { kind: 'complete' };
    }
    return { kind: 'complete' };
  }

  return boxSteps<S, { point: DecidePoint<K> }>({
    locate,
    purpose: (box, at) => at.point.purpose(box.box),
    phase: (at) => at.point.phase,
    apply: (state, at, decision) =>
      withBox(state, at.boxIndex, (b) => ({ ...b, [at.point.decide]: decision.action })),
  });
}
