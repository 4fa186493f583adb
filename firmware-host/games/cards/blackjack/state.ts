/**
 * The blackjack round's state (003 § 14-23; 004 Blackjack): cards and
 * decisions only. Whose card or decision is next is derived from it
 * (plan.ts); the transitions (transitions.ts) and the settlement
 * (outcome.ts) take it explicitly.
 */
import type { StandardCard } from '../../../../device-protocol/cards.ts';
import type { Outcome } from '../../../engine/types.ts';

export interface BlackjackHand {
  readonly cards: readonly StandardCard[];
  readonly fromSplit: boolean;
  readonly doubled: boolean;
  readonly stood: boolean;
  readonly surrendered: boolean;
  readonly evenMoney: boolean;
  /** A hit was called and its card has not come yet. */
  readonly hitPending: boolean;
}

export type InsuranceAnswer = 'taken' | 'declined' | 'even_money';

export interface BlackjackBox {
  readonly box: number;
  readonly hands: readonly BlackjackHand[];
  readonly splits: number;
  readonly insurance: InsuranceAnswer | null;
}

export interface BlackjackState {
  readonly boxes: readonly BlackjackBox[];
  readonly dealer: readonly StandardCard[];
  /** Cards of the initial deal dealt so far. */
  readonly initialDealt: number;
}

export interface BlackjackHandOutcome {
  readonly cards: readonly StandardCard[];
  readonly total: number;
  readonly soft: boolean;
  readonly blackjack: boolean;
  readonly bust: boolean;
  readonly doubled: boolean;
  readonly surrendered: boolean;
  readonly evenMoney: boolean;
  /** The bet name in `bets`. */
  readonly bet: string;
  readonly result: number;
}

export interface BlackjackOutcome extends Outcome {
  readonly game: 'blackjack';
  readonly dealer: {
    readonly cards: readonly StandardCard[];
    readonly total: number;
    readonly blackjack: boolean;
    readonly bust: boolean;
  };
  readonly boxes: readonly {
    readonly box: number;
    readonly insurance: InsuranceAnswer | null;
    readonly hands: readonly BlackjackHandOutcome[];
  }[];
}

/** A box's hand before any card: also each half of a split. */
export const NEW_HAND: BlackjackHand = {
  cards: [],
  fromSplit: false,
  doubled: false,
  stood: false,
  surrendered: false,
  evenMoney: false,
  hitPending: false,
};
