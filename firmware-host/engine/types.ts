/**
 * The contract every game engine implements. Engines are pure: no I/O, no
 * clock, no randomness. State is an immutable value: every transition
 * returns a new state, so the table session can keep history, replay and
 * branch (property tests, "what would have happened") for free.
 */
import type { Face, StandardCard } from '../../device-protocol/cards.ts';

/** A seat that makes decisions: the dealer, or a box (player position) numbered from 1. */
export type Seat = 'dealer' | `box:${number}`;

/** Where a card from the shoe goes. */
export type Recipient = 'player' | 'banker' | 'dealer' | `box:${number}` | 'board' | 'burn';

/** Every decision any game knows. Each engine accepts the subset its rules allow. */
export type Action =
  | 'hit'
  | 'stand'
  | 'double'
  | 'split'
  | 'surrender'
  | 'insurance'
  | 'no_insurance'
  | 'even_money'
  | 'fold'
  | 'bet'
  | 'check'
  | 'raise'
  | 'exchange'
  | 'buy'
  | 'buy_dealer_game'
  | 'next';

export interface Decision {
  readonly seat: Seat;
  readonly action: Action;
  /** Split hand index within a box (0 for the first hand); absent means the hand awaiting. */
  readonly hand?: number;
  /** Positions (0-based) of the cards to exchange, for draw games. */
  readonly cards?: readonly number[];
}

/** What the engine needs next. */
export type NextStep =
  | {
      readonly kind: 'card';
      readonly to: Recipient;
      /** Split hand index within a box (0 for the first hand); absent where there is one hand. */
      readonly hand?: number;
      /** How the card is to be dealt: the dealer's hole card is `down`. */
      readonly face: Face;
      /** What the card is, for people: `player third card`, `box 3 double card`, ... */
      readonly purpose?: string;
    }
  | {
      readonly kind: 'decision';
      readonly seat: Seat;
      readonly hand?: number;
      readonly options: readonly Action[];
      /**
       * The decision a card drawn from the shoe now stands for (`hit`, or
       * `next` where the next phase simply starts with a card). The shoe
       * cannot see a decision, so the table session infers it from the card:
       * apply `decide({ seat, hand, action: onCard })`, then `deal(card)`
       * (engine/round.ts `dealInferred` does both). Absent when a card now
       * would be a misdeal.
       */
      readonly onCard?: Action;
      /** What is being decided, for people. */
      readonly purpose?: string;
    }
  | { readonly kind: 'complete' };

/** Result of one bet as a multiple of its stake: 1 win even money, 1.5 blackjack, 0 push, -1 lose, -0.5 half lost. */
export type BetResult = number;

/** A resolved round. `bets` maps a bet name (`player`, `tie`, `box:3.main`, ...) to its result. */
export interface Outcome {
  readonly game: string;
  readonly bets: Readonly<Record<string, BetResult>>;
  /** Game-specific, JSON-serialisable detail: hands, totals, ranks, winner(s). */
  readonly [detail: string]: unknown;
}

export interface RoundSetup {
  /** Boxes in play, numbered from 1, for games with boxes; absent for baccarat. */
  readonly boxes?: readonly number[];
  /** Optional stakes per bet name, for rules that depend on amounts (e.g. an aggregate payout limit). */
  readonly stakes?: Readonly<Record<string, number>>;
  /**
   * Boxes played "dark" (Russian poker, casino hold'em at TDC, 004): both
   * bets placed before the deal, no look at the cards, no decisions. Each
   * must also be in `boxes`; games without dark boxes reject a non-empty list.
   */
  readonly dark?: readonly number[];
}

/**
 * When the dealer's cards dealt face down may be shown before the round is
 * complete: `at_showdown` only when it is (the default), `when_dealer_draws`
 * once the boxes have played and a card or decision is the dealer's,
 * `after_decisions` on any card after the boxes' decisions.
 */
export type DealerReveal = 'at_showdown' | 'when_dealer_draws' | 'after_decisions';

/** `O` narrows the outcome for callers that know the game; it defaults to the generic Outcome. */
export interface GameEngine<State, O extends Outcome = Outcome> {
  readonly game: string;
  /**
   * Whether a round seats boxes (default true). A game without them (baccarat:
   * every bet is on the one layout) needs no round record to say who plays,
   * so with the table's `autoRound` its first card starts the round.
   */
  readonly seatsBoxes?: boolean;
  /** When the dealer's hidden cards show (default `at_showdown`). */
  readonly dealerReveal?: DealerReveal;
  /** A new round; throws EngineError when the setup breaks the ruleset (too many boxes, ...). */
  start(setup: RoundSetup): State;
  /** What is awaited now. Pure and total: never throws for a state the engine produced. */
  next(state: State): NextStep;
  /** A card from the shoe, in shoe order; throws EngineError when no card is awaited. */
  deal(state: State, card: StandardCard): State;
  /** A decision; throws EngineError naming what is legal when it is not. */
  decide(state: State, decision: Decision): State;
  /** The outcome; throws EngineError when the round is not complete. */
  outcome(state: State): O;
  /** A JSON snapshot of the visible table (cards dealt so far), for displays. */
  view(state: State): Readonly<Record<string, unknown>>;
}
