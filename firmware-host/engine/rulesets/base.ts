/**
 * The parts every ruleset shares, whatever the game: identity, decks and
 * back colours, and the three policies the table session enforces (burn,
 * shoe end, misdeal); and the fragments several games' schemas use (bet
 * results as multiples, a pay table by poker category). Game-specific parts (pay tables, options) live in
 * schema.ts (our games) and poker.ts (the poker games); both build on
 * `rulesetCommon` here, which is why this file imports nothing of theirs.
 *
 * Objects are strict: a misspelt key in a ruleset is an error, never a
 * silent default. Every rule point carries a `source`: `NNN § article` of a
 * seed file, or `practice: why` where the originals are silent (those are
 * the points a casino is expected to configure).
 */
import { z } from 'zod';
import { RANKS } from '../../../device-protocol/cards.ts';

/** `002 § 13.8`, `003 § 24 item 5`, `004 (Blackjack: Split)`, or `practice: reason`. */
export const source = z
  .string()
  .regex(
    /^(00[0-9] § \S.*|00[0-9] \(.+\).*|practice: .+)$/,
    'expected a citation like "003 § 24 item 5" or "004 (Blackjack: Split)", or "practice: <why>" where the seeds are silent',
  );

/** A bet's result as a multiple of its stake ("to one"): 1 even money, 0 a push, -1 the stake lost. */
export const multiple = z.number().min(-10).max(10_000);

/** A result for every category of the best five; `-1` where the category loses the bet. */
export const categoryPays = z.strictObject({
  royal_flush: multiple,
  straight_flush: multiple,
  four_of_a_kind: multiple,
  full_house: multiple,
  flush: multiple,
  straight: multiple,
  three_of_a_kind: multiple,
  two_pair: multiple,
  one_pair: multiple,
  high_card: multiple,
});

export const backColour = z
  .string()
  .regex(/^[a-z][a-z0-9-]{0,15}$/, 'expected a lower-case colour word (red, blue, ...)');

export const rank = z.enum(RANKS);

export const rulesetName = z
  .string()
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'expected a kebab-case name like "tdc-blackjack"');

/** Deck counts a table may use, and the one it uses unless configured otherwise. */
export const decksSpec = z
  .strictObject({
    allowed: z.array(z.number().int().min(1).max(16)).min(1),
    default: z.number().int().min(1).max(16),
    source,
  })
  .refine((decks) => decks.allowed.includes(decks.default), {
    message: 'the default deck count must be one of the allowed counts',
  });

/**
 * Back colours: one colour for the whole shoe, or two decks of different
 * colours used in turn (000 § 2.c.1-c.3; 001 "Barajador Automatico"). With
 * `alternating`, the table session checks that each round's cards all carry
 * one colour and that the colour changes between rounds.
 */
export const backsPolicy = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('single'), colour: backColour, source }),
  z.strictObject({
    kind: z.literal('alternating'),
    colours: z
      .tuple([backColour, backColour])
      .refine(([a, b]) => a !== b, { message: 'the two alternating colours must differ' }),
    /** What alternates: every round draws from the other deck. */
    every: z.literal('round'),
    source,
  }),
]);

/** Where a fixed burn happens, in the game's own words. */
export const burnPoint = z.enum([
  'new_shoe',
  'round',
  'flop',
  'turn',
  'river',
  'third_street',
  'draw',
]);

/**
 * Cards taken out of play unseen. `turn_and_burn`: at a new shoe the first
 * card is turned face up and that many more cards are burned face down, a
 * ten-value card counting `tenValueBurns` (see baccarat/burn.ts
 * `burnCount`); the turned card goes to the discard too.
 */
export const burnPolicy = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('none'), source }),
  z.strictObject({
    kind: z.literal('turn_and_burn'),
    at: z.literal('new_shoe'),
    tenValueBurns: z.number().int().min(1).max(13).default(10),
    source,
  }),
  z.strictObject({
    kind: z.literal('fixed'),
    points: z
      .array(z.strictObject({ before: burnPoint, count: z.number().int().min(1).max(10) }))
      .min(1),
    face: z.enum(['up', 'down']).default('down'),
    source,
  }),
]);

/**
 * When a shoe ends. `cut_card`: play stops when the cut card comes out,
 * `fractionBehind` of the shoe lying behind it; the round in progress is
 * finished first when `finishRound`. `last_hand_marker`: a marker (a joker
 * or a second cut card) lies `cardsBehind` cards from the end; when it comes
 * out the coup in progress is finished, then `coupsAfter` more coups are
 * dealt. `reshuffle_every_round`: the deck is shuffled and cut before every
 * round (000 § 7).
 */
export const shoeEndPolicy = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('cut_card'),
    fractionBehind: z.number().min(0).max(0.9),
    finishRound: z.boolean().default(true),
    source,
  }),
  z.strictObject({
    kind: z.literal('last_hand_marker'),
    marker: z.enum(['joker', 'cut_card']),
    cardsBehind: z.number().int().min(0).max(52),
    coupsAfter: z.number().int().min(0).max(3).default(1),
    /**
     * The last card of the shoe is covered by a cut card so that nobody sees
     * it (003 § 24(1)): it is never dealt, so it is not a card left to deal.
     */
    lastCardCovered: z.boolean().default(false),
    /**
     * A shoe running short: the coup in progress and `coupsAfter` more can
     * need more cards than lie behind the marker. A coup starts only while
     * `coupNeeds` cards are left to deal (the covered last card not counted);
     * with fewer the shoe ends ("shoe exhausted"). A coup the shoe cannot
     * complete is void and the shoe ends.
     */
    exhaustion: z
      .strictObject({ coupNeeds: z.number().int().min(1).max(52), source })
      .default({ coupNeeds: 1, source: 'practice: a coup starts while a card is left to deal' }),
    source,
  }),
  z.strictObject({ kind: z.literal('reshuffle_every_round'), source }),
]);

/**
 * What the table does when the deal goes wrong. The validator (table
 * session) detects the fault; this says the consequence.
 * - faceUpInShoe: a card found face up in the shoe while dealing. `one`:
 *   the first such card; `moreThanOne`: a second one in the same round.
 * - unexposedCardInError: a card dealt to the wrong place without being
 *   seen.
 * - wrongCardCount: a box (`box`) or the dealer (`dealer`) got the wrong
 *   number of cards. `void_box` voids only that box;
 *   `void_all_unless_correctable` voids everything unless the dealer can
 *   take the right number without changing the card sequence and without
 *   the cards having been turned face up (the Hold'em Bonus exception).
 * - dealerCardExposedEarly: a dealer card shown before its time.
 * `reshuffle`: the deck is shuffled again after the void; `paymentsStand`:
 * payments already made in the round are not taken back.
 */
const misdealAction = z.enum(['void_all', 'void_box', 'void_all_unless_correctable']);
export const misdealPolicy = z.strictObject({
  faceUpInShoe: z.strictObject({
    one: z.enum(['discard', 'use']),
    moreThanOne: z.enum(['void_all', 'discard']),
    reshuffle: z.boolean(),
    source,
  }),
  unexposedCardInError: z.strictObject({
    action: z.enum(['use_as_next', 'void_all']),
    source,
  }),
  wrongCardCount: z.strictObject({
    box: misdealAction,
    dealer: misdealAction,
    reshuffle: z.boolean(),
    paymentsStand: z.boolean(),
    source,
  }),
  dealerCardExposedEarly: z.strictObject({
    action: z.enum(['void_all', 'play_on', 'not_applicable']),
    reshuffle: z.boolean(),
    source,
  }),
});

/**
 * Fields every ruleset has. Spread into each game's strict object:
 * `z.strictObject({ ...rulesetCommon, game: z.literal('my-game'), ... })`.
 */
export const rulesetCommon = {
  name: rulesetName,
  title: z.string().min(1).max(80),
  jurisdiction: z.string().min(1).max(80),
  decks: decksSpec,
  backs: backsPolicy,
  burn: burnPolicy,
  shoeEnd: shoeEndPolicy,
  misdeal: misdealPolicy,
  /** Citations for the rules that have no field of their own (card values, deal order, tableau, ...). */
  sources: z.record(z.string(), source),
  /** Interpretations, discrepancies between seeds, anything an auditor should read. */
  notes: z.array(z.string()).default([]),
};

export type BurnPolicy = z.infer<typeof burnPolicy>;
export type ShoeEndPolicy = z.infer<typeof shoeEndPolicy>;
export type MisdealPolicy = z.infer<typeof misdealPolicy>;
export type BacksPolicy = z.infer<typeof backsPolicy>;

/** The seeds name no back colour for the shoe games: one back, as each deck has in 000 § 2.c. */
export const ONE_BACK = {
  kind: 'single',
  colour: 'red',
  source:
    "practice: the seeds name no back colour for this game; a shoe's cards share one back, as a deck's do in 000 § 2.c",
} as const;
