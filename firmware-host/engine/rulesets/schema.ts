/**
 * The ruleset schema: a discriminated union on `game`. Each variant is
 * `rulesetCommon` (base.ts) plus the game's pay tables and options.
 *
 * Adding a game (how the poker games join): in engine/rulesets/poker.ts,
 * define `z.strictObject({ ...rulesetCommon, game: z.literal('holdem-bonus'),
 * ... })`, append it to the `POKER_RULESET_SCHEMAS` tuple (keep `as const`)
 * and the rulesets to `POKER_RULESETS`; add the engine factory to
 * `POKER_GAMES` in games/cards/poker/games.ts. Nothing here needs editing: the
 * union below spreads that tuple, and the registries pick up both arrays.
 */
import { z } from 'zod';
import { categoryPays, multiple, rank, rulesetCommon, source } from './base.ts';
import { POKER_RULESET_SCHEMAS } from './poker.ts';

// ---------------------------------------------------------------- Punto Banco

const dragonMargin = z.strictObject({
  margin: z.number().int().min(1).max(9),
  pays: multiple,
});

export const puntoBancoRuleset = z.strictObject({
  ...rulesetCommon,
  game: z.literal('punto-banco'),
  payouts: z.strictObject({
    player: multiple,
    /** A Banker win pays `win`; a Banker win with a total of 6 pays `winOnSix` (Punto 2000, no-commission). */
    banker: z.strictObject({ win: multiple, winOnSix: multiple }),
    tie: multiple,
    /** Player and Banker bets when the coup is a tie: 0 is a push. */
    mainBetsOnTie: multiple,
    source,
  }),
  dragonBonus: z.strictObject({
    /** Whether the layout has the bet; the outcome reports it either way. */
    offered: z.boolean(),
    natural: multiple,
    naturalTie: multiple,
    /** Non-natural wins by margin; a margin below the smallest listed loses. */
    margins: z.array(dragonMargin).min(1),
    source,
    marginsSource: source,
  }),
  pairs: z.strictObject({
    offered: z.boolean(),
    /** A pair is the side's first two cards of the same rank (K K, not K Q). */
    pays: multiple,
    source,
  }),
  /**
   * Whether a Banker 5 draws on a Player third card of 7: yes in the
   * universal tableau (004), no by the letter of 003 § 24 (4, 5, 6 only).
   */
  tableau: z
    .strictObject({ bankerFiveDrawsOnSeven: z.boolean(), source })
    .default({ bankerFiveDrawsOnSeven: true, source: '004 (Baccarat: drawing table)' }),
});

// ----------------------------------------------------------------- Blackjack

const insuranceRule = z.strictObject({
  /**
   * `dealer_blackjack`: wins when the dealer makes blackjack (003 § 18(1); 004).
   * `dealer_ten_value`: wins when the dealer's second card is a ten-value
   * card (the second Bulgarian form, 003 § 18(2)).
   */
  form: z.enum(['dealer_blackjack', 'dealer_ten_value']),
  /** Dealer's first card ranks on which it is offered. */
  on: z.array(rank).min(1),
  pays: multiple,
  source,
});

export const blackjackRuleset = z.strictObject({
  ...rulesetCommon,
  game: z.literal('blackjack'),
  maxBoxes: z.number().int().min(1).max(7),
  /**
   * `boxes_dealer_boxes`: a card to each box, one face up to the dealer, a
   * second card to each box; the dealer's second card only after the boxes
   * have played (no hole card; 004; 003 § 15(4)).
   * `boxes_dealer_boxes_hole`: as above, then the dealer's hole card face down.
   */
  dealOrder: z.enum(['boxes_dealer_boxes', 'boxes_dealer_boxes_hole']),
  dealer: z.strictObject({ hitSoft17: z.boolean(), source }),
  payouts: z.strictObject({ win: multiple, blackjack: multiple, source }),
  /** Both offered at the same time on the dealer's first card; null where the table has none. */
  insurance: insuranceRule.nullable(),
  evenMoney: z.strictObject({ on: z.array(rank).min(1), source }).nullable(),
  double: z.strictObject({
    /** `any_two`: any first two cards; `any_two_not_21`: not on blackjack or a two-card 21. */
    on: z.enum(['any_two', 'any_two_not_21']),
    afterSplit: z.boolean(),
    source,
  }),
  split: z.strictObject({
    /** `rank`: K K but not K Q; `value`: any two ten-value cards too. */
    by: z.enum(['rank', 'value']),
    /** Splits per box (1 means no re-split); null for no limit. */
    maxSplits: z.number().int().min(1).max(7).nullable(),
    aceOneCard: z.boolean(),
    resplitAces: z.boolean(),
    source,
  }),
  surrender: z.strictObject({ againstAce: z.boolean(), loses: multiple, source }).nullable(),
  /** A player's 21 takes no more cards (004: 21 is always hard). */
  standOn21: z.strictObject({ value: z.boolean(), source }),
  /**
   * With no hole card, what a dealer blackjack takes from a box that
   * doubled or split: `all` its bets, or `original_only` its first stake.
   */
  dealerBlackjackTakes: z.strictObject({ value: z.enum(['all', 'original_only']), source }),
});

// --------------------------------------------------------------- Triple Shot

export const pokerPayTable = categoryPays;

export const tripleShotRuleset = z.strictObject({
  ...rulesetCommon,
  game: z.literal('triple-shot'),
  maxPositions: z.number().int().min(1).max(6),
  war: z.strictObject({ win: multiple, tie: multiple, source }),
  blackjack: z.strictObject({
    win: multiple,
    blackjack: multiple,
    /** Six cards without busting: paid at once (000 § 9.b). */
    sixCards: multiple,
    insurance: insuranceRule.nullable(),
    double: z.strictObject({ offered: z.boolean(), source }),
    /** Only a pair of aces, once, one card each (000 § 9.b). */
    splitAces: z.strictObject({ offered: z.boolean(), source }),
    dealer: z.strictObject({ hitSoft17: z.boolean(), source }),
    source,
  }),
  poker: z.strictObject({
    /** Paid when the player's best five of six beats the dealer's; a tie is `tie`. */
    table: pokerPayTable,
    tie: multiple,
    source,
  }),
  bonus: z.strictObject({ pays: multiple, source }),
  /** Table maximum aggregate payout per round, in stake units; null for none (000 § 12-13). */
  payoutLimit: z.strictObject({ amount: z.number().positive().nullable(), source }),
});

// ---------------------------------------------------------------------- Union

export const rulesetSchema = z.discriminatedUnion('game', [
  puntoBancoRuleset,
  blackjackRuleset,
  tripleShotRuleset,
  ...POKER_RULESET_SCHEMAS,
]);

/** A validated ruleset (defaults applied). */
export type Ruleset = z.infer<typeof rulesetSchema>;
/** A ruleset as written in a data file (defaults may be omitted). */
export type RulesetInput = z.input<typeof rulesetSchema>;
export type GameId = Ruleset['game'];
export type RulesetOf<G extends GameId> = Extract<Ruleset, { game: G }>;
export type PuntoBancoRuleset = RulesetOf<'punto-banco'>;
export type BlackjackRuleset = RulesetOf<'blackjack'>;
export type TripleShotRuleset = RulesetOf<'triple-shot'>;
export type PokerPayTable = z.infer<typeof pokerPayTable>;
