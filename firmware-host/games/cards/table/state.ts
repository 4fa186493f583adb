/**
 * The card table's state and the working copy the reducer's parts share:
 * options, the shoe and round in play, and the few helpers every part uses
 * to say what happened (alarms, card events, seat and step names). Pure.
 *
 * States are immutable values: the reducer copies what it changes into a
 * `Draft`, so a caller may keep any earlier state (history, branching,
 * property tests).
 */
import { z } from 'zod';
import type { CardCode, StandardCard } from '../../../../device-protocol/cards.ts';
import type { Ruleset } from '../../../engine/rulesets/schema.ts';
import type { GameEngine, NextStep, Seat } from '../../../engine/types.ts';
import {
  type AnomalyState,
  anomalyOptionsSchema,
  type ShoeWindows,
} from '../../../table/anomaly.ts';
import type { AlarmKind, CardDestination, DomainEvent } from '../../../table/events.ts';

// ------------------------------------------------------------------ options

export const sessionOptionsSchema = z.strictObject({
  anomaly: anomalyOptionsSchema.prefault({}),
  /**
   * Punto Banco shoes without a "new coup" button: a card arriving between
   * coups starts the next coup. Off by default, because then a card dealt
   * against the tableau after a coup is complete cannot be told from the
   * first card of the next coup.
   */
  autoRound: z.boolean().default(false),
});

export type SessionOptions = z.infer<typeof sessionOptionsSchema>;

export type SessionOptionsInput = z.input<typeof sessionOptionsSchema>;

export interface SessionConfig {
  readonly ruleset: Ruleset;
  readonly engine: GameEngine<unknown>;
  readonly options: SessionOptions;
}

// -------------------------------------------------------------------- state

/** A card that left the shoe while nobody could take it: used as the next card (000 § 14.b). */
export interface HeldCard {
  readonly card: StandardCard;
  readonly back: string;
  readonly index: number;
}

export interface ShoeState {
  /** 1 for the table's first shoe (since its state began). */
  readonly number: number;
  readonly decks: number;
  readonly backs: readonly string[];
  readonly size: number;
  /** Cards of the shoe's set not yet out, by `compositionKey`. */
  readonly remaining: ReadonlyMap<string, number>;
  readonly left: number;
  /** Cards that left the shoe, foreign ones included: the next card's `index`. */
  readonly dealt: number;
  /** The shuffler's reported order. Never put into an event or a snapshot. */
  readonly order: readonly CardCode[] | undefined;
  readonly orderPosition: number;
  readonly orderBroken: boolean;
  readonly ended: string | undefined;
  /** Turn-and-burn at a new shoe: the turned card is still due, or `owed` burns are. */
  readonly burn: { readonly turned: boolean; readonly owed: number } | undefined;
  /** The cut card came out during a round: the shoe ends when the round does (003 § 23). */
  readonly cutOut: boolean;
  /** The last-hand marker came out: coups still to deal after the one in progress. */
  readonly lastHand: { readonly coupsLeft: number } | undefined;
  readonly rounds: number;
  readonly roundsFinished: number;
  /** Face-up cards found since the round (or the shoe) began. */
  readonly faceUp: number;
  /** A box-only misdeal asked for a reshuffle once the round is over. */
  readonly reshuffleAfterRound: string | undefined;
  readonly anomaly: AnomalyState;
}

export interface RoundState {
  readonly number: number;
  readonly boxes: readonly number[] | undefined;
  readonly engine: unknown;
  /** Started after the last-hand marker came out. */
  readonly afterMarker: boolean;
  /** Boxes voided by a box-only misdeal; the round goes on for the others. */
  readonly voided: readonly number[];
  readonly held: readonly HeldCard[];
  /** Cards dealt so far to each destination. */
  readonly cards: Readonly<Record<string, number>>;
  readonly decisions: number;
  /** Fixed burns taken, by burn point. */
  readonly burns: Readonly<Record<string, number>>;
  /** The engine deals its own burn cards: do not add the ruleset's. */
  readonly engineBurns: boolean;
  /** A dealer card was dealt face up (the Hold'em Bonus exception needs none). */
  readonly dealerCardUp: boolean;
  /** Dealer cards dealt face down: only these can be exposed early. */
  readonly dealerCardsDown: number;
  /** The game has reached the point where the dealer's cards are shown. */
  readonly dealerDue: boolean;
}

export interface SessionState {
  readonly shoes: number;
  readonly rounds: number;
  readonly shoe: ShoeState | undefined;
  readonly round: RoundState | undefined;
  /** The back colour of the last deck brought into play, for alternation (000 § 2.c.2). */
  readonly lastColour: string | undefined;
  readonly history: readonly ShoeWindows[];
}

export function initialState(): SessionState {
  return {
    shoes: 0,
    rounds: 0,
    shoe: undefined,
    round: undefined,
    lastColour: undefined,
    history: [],
  };
}

// -------------------------------------------------------------- working copy

export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The state being reduced: one record's changes and the events they raise. */
export interface Draft {
  readonly config: SessionConfig;
  shoes: number;
  rounds: number;
  shoe: Mutable<ShoeState> | undefined;
  round: Mutable<RoundState> | undefined;
  lastColour: string | undefined;
  history: readonly ShoeWindows[];
  readonly events: DomainEvent[];
}

export interface Reduction {
  readonly state: SessionState;
  readonly events: DomainEvent[];
}

/**
 * What the card table's own alarms and voids cite where no ruleset point
 * applies: the seeds give no procedure for these, so each says why.
 */
export const TABLE_PRACTICE = {
  noShuffle:
    'practice: cards are dealt from a shoe shuffled and cut first (000 § 7; 003 § 24(1)); one before any recorded shuffle belongs to no shoe and goes to the discard',
  beforeFirstRound:
    'practice: the seeds are silent; no card is due before the first round starts, so one that leaves the shoe goes to the discard',
  shuffleMidRound:
    'practice: the seeds are silent; a round cut short by a new shuffle cannot be completed from the new shoe, so it is void',
  supervisorVoid:
    "practice: the seeds give no void on request; the table's inspector settles what happens at the table (003 § 30(1)) and errors are corrected at once (000 § 14), so a void on request is journaled with who asked and why",
} as const;

export function alarm(
  draft: Draft,
  kind: AlarmKind,
  message: string,
  detail: Record<string, unknown> = {},
): void {
  draft.events.push({ type: 'alarm', kind, message, ...detail });
}

export function roundDetail(draft: Draft): { round?: number } {
  return draft.round ? { round: draft.round.number } : {};
}

export function cardEvent(
  draft: Draft,
  card: CardCode,
  to: CardDestination,
  back: string,
  face: 'up' | 'down',
  index: number,
  hand?: number,
): void {
  draft.events.push({
    type: 'card',
    card,
    to,
    back,
    face,
    index,
    ...(hand === undefined ? {} : { hand }),
  });
}

export function seatName(seat: Seat): string {
  return seat === 'dealer' ? 'the dealer' : `box ${seat.slice(4)}`;
}

export function describeStep(step: NextStep): string {
  if (step.kind === 'complete') return 'complete';
  if (step.kind === 'card') return step.purpose ?? `card to ${step.to}`;
  return `${seatName(step.seat)} decides (${step.options.join(', ')})`;
}
