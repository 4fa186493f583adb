/**
 * The poker games' rulesets and their schema variants (owned by the poker
 * engines in games/cards/poker/). To add a game: define its variant as
 * `z.strictObject({ ...rulesetCommon, game: z.literal('holdem-bonus'), ... })`
 * (rulesetCommon from ./base.ts), append it to POKER_RULESET_SCHEMAS (keep the
 * `as const`, the union in schema.ts spreads this tuple), and append its
 * rulesets to POKER_RULESETS; the registry in index.ts validates and lists
 * them. Import only ./base.ts here (schema.ts imports this file: nothing of it comes back).
 *
 * Units: every main-game bet of a box (Ante, Flop, Call, Raise, Bet, fees)
 * settles in units of the box's Ante, so a Call of two Antes won 1:1 is `2`;
 * side bets (Bonus, insurance) settle in units of their own stake. Pay
 * tables below are "to one" of the bet they pay.
 */
import { z } from 'zod';
import { categoryPays, multiple, rulesetCommon, source } from './base.ts';

export { categoryPays } from './base.ts';

const cardCode = z.string().regex(/^[A2-9TJQK][SHDC]$/, 'expected a card code like AS or TD');

/**
 * The least hand that qualifies the dealer, as five cards: the dealer
 * qualifies when its best five is worth at least this much. Stated as cards
 * so that it is exact whatever the evaluator's internal encoding.
 */
export const dealerQualifier = z.strictObject({
  minimum: z
    .array(cardCode)
    .length(5)
    .refine((cards) => new Set(cards).size === 5, { message: 'the five cards must differ' }),
  description: z.string().min(1),
  source,
});

/** Dark boxes: Ante and the second bet are placed before the deal; the box makes no decision (004). */
const darkBoxes = z.strictObject({ offered: z.boolean(), source });

/** Table maximum payout per box in money; null for none. Applied when the round's stakes are given. */
const payoutLimit = z.strictObject({ amount: z.number().positive().nullable(), source });

/** Boxes at the table. */
const maxBoxes = z.number().int().min(1).max(7);

/** A main-game bet as a multiple of the Ante. */
const antesBet = z.strictObject({ antes: z.number().positive(), source });

/** Equal hands against the dealer: the result of every main-game bet. */
const tie = z.strictObject({ result: multiple, source });

/** A Bonus side bet paid by the category of a hand; `paidOnFold`: settled whatever the box does with its other bets. */
const categoryBonus = z.strictObject({ table: categoryPays, paidOnFold: z.boolean(), source });

/** How many cards a box may give back in an exchange. */
const exchangeCount = z.strictObject({
  min: z.number().int().min(1).max(5),
  max: z.number().int().min(1).max(5),
});

const twoCardHand = z
  .string()
  .regex(/^[A2-9TJQK]{2}$/, 'expected two ranks, higher first, like AK, AA or 99');

// ------------------------------------------------------- Texas Hold'em Bonus

export const holdemBonusRuleset = z.strictObject({
  ...rulesetCommon,
  game: z.literal('holdem-bonus'),
  maxBoxes,
  /** The Flop bet as a multiple of the Ante; the only alternative is to fold. */
  flopBet: antesBet,
  /** Optional Turn and River bets, each a multiple of the Ante, independent of each other. */
  turnBet: antesBet,
  riverBet: antesBet,
  /** When the box beats the dealer: Flop/Turn/River pay `pays`; Ante pays only from `anteFrom` up, else pushes. */
  win: z.strictObject({
    pays: multiple,
    anteFrom: z.enum([
      'straight',
      'flush',
      'full_house',
      'four_of_a_kind',
      'straight_flush',
      'royal_flush',
    ]),
    antePays: multiple,
    source,
    anteSource: source,
  }),
  /** A tie pushes every bet; the dealer winning takes every bet. */
  tie,
  /**
   * Bonus on the box's two cards alone. Rows are tried in order; the first
   * that matches pays. `dealerHolds`: the row applies only when the dealer's
   * two cards are that hand too (AA against AA).
   */
  bonus: z.strictObject({
    rows: z
      .array(
        z.strictObject({
          hands: z.array(twoCardHand).min(1),
          suited: z.enum(['any', 'suited', 'offsuit']),
          dealerHolds: twoCardHand.nullable(),
          pays: multiple,
        }),
      )
      .min(1),
    otherwise: multiple,
    /** The Bonus is settled whatever the box does with its other bets. */
    paidOnFold: z.boolean(),
    source,
  }),
  /** Hands are shown dealer first, then from the highest box down. */
  showdown: z.strictObject({ order: z.literal('dealer_then_boxes_descending'), source }),
  /** Table maximum as a multiple of the table minimum (information for the console). */
  tableMaximum: z.strictObject({ timesMinimum: z.number().positive(), source }),
});

// ------------------------------------------------ Casino Texas Hold'em (TDC)

export const casinoHoldemRuleset = z.strictObject({
  ...rulesetCommon,
  game: z.literal('casino-holdem'),
  maxBoxes,
  call: z.strictObject({ antes: z.number().positive(), pays: multiple, source }),
  dealerQualifier,
  /** The Ante pays by this table when the box wins or the dealer does not qualify. */
  ante: z.strictObject({ table: categoryPays, source }),
  /** Bonus on the box's two cards plus the flop. */
  bonus: categoryBonus,
  darkBoxes,
  payoutLimit,
});

// ----------------------------------------------------- Caribbean stud poker

export const caribbeanStudRuleset = z.strictObject({
  ...rulesetCommon,
  game: z.literal('caribbean-stud'),
  maxBoxes,
  /** Replace one card, or buy a sixth, each for a fee of `fee` Antes. */
  draw: z.strictObject({
    replace: exchangeCount,
    buySixth: z.boolean(),
    fee: z.number().min(0),
    source,
  }),
  raise: antesBet,
  dealerQualifier,
  /** The Ante when the box plays on: paid when the dealer does not qualify or the box wins. */
  ante: z.strictObject({ pays: multiple, source }),
  /** The Raise, by the box's hand, when the dealer qualifies and the box wins. */
  raisePays: z.strictObject({ table: categoryPays, source }),
  /** Equal hands against a qualifying dealer. */
  tie,
  /** Bonus bet on the box's first five cards. */
  bonus: categoryBonus,
});

// ------------------------------------------------------ Russian poker (TDC)

export const russianPokerRuleset = z.strictObject({
  ...rulesetCommon,
  game: z.literal('russian-poker'),
  maxBoxes,
  draw: z.strictObject({
    exchange: exchangeCount,
    buySixth: z.boolean(),
    fee: z.number().min(0),
    source,
  }),
  bet: antesBet,
  dealerQualifier,
  /** The Ante pays `noGame` when the dealer has no game; `playerWins` when the dealer qualifies and loses. */
  ante: z.strictObject({ noGame: multiple, playerWins: multiple, source }),
  /** The Bet pays per combination when the box beats a qualifying dealer; ace-king is its own row. */
  betPays: z.strictObject({ table: categoryPays.extend({ ace_king: multiple }), source }),
  tie,
  /** A second combination is paid too, when it uses a card outside the first; on five cards only ace-king. */
  secondCombination: z.strictObject({
    offered: z.boolean(),
    onFiveCards: z.array(z.literal('ace_king')),
    source,
  }),
  /** Insurance against the dealer having no game, for a box holding `from` or better. */
  insurance: z
    .strictObject({
      from: z.enum(['three_of_a_kind', 'straight', 'flush', 'full_house']),
      pays: multiple,
      source,
      paysSource: source,
    })
    .nullable(),
  /**
   * Buying the dealer a game when it has none: the box pays `fee` Antes,
   * the dealer replaces its highest card; once more, free, when a card of
   * the same rank came back and made no combination.
   */
  buyDealerGame: z
    .strictObject({ fee: z.number().min(0), freeRedrawOnSameRank: z.boolean(), source })
    .nullable(),
  darkBoxes,
  payoutLimit,
});

// ----------------------------------------------------- Seven-card stud poker

/** The house commission (003 § 28(17)-(19)): a fixed sum per hand, or a share of each pot. */
const commission = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('fixed'),
    /** The betting variant it belongs to, in 003's words. */
    variant: z.literal('split_maximum'),
    /** The commission is the table's minimum bet, per hand. */
    amount: z.literal('minimum_bet'),
    source,
  }),
  z.strictObject({
    kind: z.literal('percentage'),
    variant: z.literal('pot_limit'),
    percent: z.number().min(0).max(100),
    /** The band the regulation allows; the chosen percent must lie within it. */
    allowed: z.tuple([z.number().min(0), z.number().max(100)]),
    source,
  }),
]);

export const sevenCardStudRuleset = z
  .strictObject({
    ...rulesetCommon,
    game: z.literal('seven-card-stud'),
    /** Players (numbered like boxes, from the dealer's left); named apart from maxBoxes: they play each other. */
    maxPlayers: z.number().int().min(2).max(7),
    /** The lowest up card opens the first round; `aceLow`: whether an ace counts low for that. */
    opener: z.strictObject({ aceLow: z.boolean(), source }),
    /** Bets and raises re-open the round; this bounds the raises per round. */
    maxRaisesPerRound: z.strictObject({ value: z.number().int().min(0).max(10), source }),
    commission,
    splitPot: z.strictObject({ source }),
  })
  .refine(
    (ruleset) =>
      ruleset.commission.kind !== 'percentage' ||
      (ruleset.commission.percent >= ruleset.commission.allowed[0] &&
        ruleset.commission.percent <= ruleset.commission.allowed[1]),
    {
      message: 'the commission percent must lie within the allowed band',
      path: ['commission', 'percent'],
    },
  );

export const POKER_RULESET_SCHEMAS = [
  holdemBonusRuleset,
  casinoHoldemRuleset,
  caribbeanStudRuleset,
  russianPokerRuleset,
  sevenCardStudRuleset,
] as const;

/** A poker ruleset as written in a data file (one of schema.ts's RulesetInput). */
type PokerRulesetInput = z.input<(typeof POKER_RULESET_SCHEMAS)[number]>;

export type HoldemBonusRuleset = z.infer<typeof holdemBonusRuleset>;
export type CasinoHoldemRuleset = z.infer<typeof casinoHoldemRuleset>;
export type CaribbeanStudRuleset = z.infer<typeof caribbeanStudRuleset>;
export type RussianPokerRuleset = z.infer<typeof russianPokerRuleset>;
export type SevenCardStudRuleset = z.infer<typeof sevenCardStudRuleset>;
export type CategoryPays = z.infer<typeof categoryPays>;
export type DealerQualifier = z.infer<typeof dealerQualifier>;

// ================================================================= Rulesets

/** One deck, shuffled and cut before every round: the single-deck poker tables. */
const ONE_DECK_EVERY_ROUND = {
  kind: 'reshuffle_every_round',
  source: 'practice: one 52-card deck, shuffled and cut before every round',
} as const;

/** Misdeal consequences where a seed is silent: 001's procedure, the closest written one, as practice. */
const PRACTICE_MISDEAL = {
  faceUpInShoe: {
    one: 'discard',
    moreThanOne: 'void_all',
    reshuffle: true,
    source: 'practice: the seed is silent; as 001 (Errores e infracciones b)',
  },
  unexposedCardInError: {
    action: 'use_as_next',
    source: 'practice: the seed is silent; as 001 (Errores e infracciones c)',
  },
  wrongCardCount: {
    box: 'void_box',
    dealer: 'void_all',
    reshuffle: true,
    paymentsStand: false,
    source: 'practice: the seed is silent; as 001 (Errores e infracciones d)',
  },
  dealerCardExposedEarly: {
    action: 'void_all',
    reshuffle: true,
    source: 'practice: the seed is silent; as 001 (Errores e infracciones a)',
  },
} as const;

/** The seeds name no back colour for these games: one back, as each deck has in 000 § 2.c. */
const ONE_BACK = {
  kind: 'single',
  colour: 'red',
  source:
    "practice: the seeds name no back colour for this game; a deck's cards share one back, as in 000 § 2.c",
} as const;

const NO_BURN = { kind: 'none', source: 'practice: the seed prescribes no burn' } as const;

export const SPAIN_HOLDEM_BONUS: PokerRulesetInput = {
  name: 'spain-holdem-bonus',
  title: "Texas Hold'em Bonus",
  jurisdiction: 'Spain (casino game manual)',
  game: 'holdem-bonus',
  decks: { allowed: [1], default: 1, source: '001 § II.a (one French deck of 52 cards)' },
  backs: {
    kind: 'alternating',
    colours: ['red', 'blue'],
    every: 'round',
    source:
      '001 (Barajador Automatico: a red and a blue deck, shuffled by hand, then placed in the shuffler one after the other)',
  },
  burn: {
    kind: 'fixed',
    points: [
      { before: 'flop', count: 1 },
      { before: 'turn', count: 1 },
      { before: 'river', count: 1 },
    ],
    face: 'down',
    source:
      '001 (Desarrollo del juego: the croupier burns the next card face down before the flop, the turn and the river)',
  },
  shoeEnd: {
    kind: 'reshuffle_every_round',
    source: '001 (El juego 4, Barajar: shuffled and cut for every hand)',
  },
  misdeal: {
    faceUpInShoe: {
      one: 'discard',
      moreThanOne: 'void_all',
      reshuffle: true,
      source: '001 (Errores e infracciones b)',
    },
    unexposedCardInError: { action: 'use_as_next', source: '001 (Errores e infracciones c)' },
    wrongCardCount: {
      box: 'void_box',
      dealer: 'void_all_unless_correctable',
      reshuffle: true,
      paymentsStand: false,
      source: '001 (Errores e infracciones d); 001 (El juego 1.c)',
    },
    dealerCardExposedEarly: {
      action: 'void_all',
      reshuffle: true,
      source:
        '001 (Errores e infracciones a); reshuffle: 001 (El juego 4, Barajar) shuffles every hand',
    },
  },
  maxBoxes: 7,
  flopBet: {
    antes: 2,
    source: '001 (El juego 2, 2ª Apuesta; Desarrollo del juego: flop bet twice the ante or fold)',
  },
  turnBet: { antes: 1, source: '001 (El juego 2, 3ª Apuesta: equal to the ante, optional)' },
  riverBet: {
    antes: 1,
    source: '001 (El juego 2, 4ª Apuesta: equal to the ante, optional, with or without a Turn bet)',
  },
  win: {
    pays: 1,
    anteFrom: 'straight',
    antePays: 1,
    source: '001 (Desarrollo del juego; 7. El jugador gana: Flop, Turn and River paid even money)',
    anteSource:
      '001 (7. El jugador gana: the Ante is paid 1:1 only with a straight or better, else not paid)',
  },
  tie: { result: 0, source: '001 (Desarrollo del juego; 9. Empate: all bets are returned)' },
  bonus: {
    rows: [
      { hands: ['AA'], suited: 'any', dealerHolds: 'AA', pays: 1000 },
      { hands: ['AA'], suited: 'any', dealerHolds: null, pays: 30 },
      { hands: ['AK'], suited: 'suited', dealerHolds: null, pays: 25 },
      { hands: ['AQ', 'AJ'], suited: 'suited', dealerHolds: null, pays: 20 },
      { hands: ['AK'], suited: 'offsuit', dealerHolds: null, pays: 15 },
      { hands: ['KK', 'QQ', 'JJ'], suited: 'any', dealerHolds: null, pays: 10 },
      { hands: ['AQ', 'AJ'], suited: 'offsuit', dealerHolds: null, pays: 5 },
      {
        hands: ['TT', '99', '88', '77', '66', '55', '44', '33', '22'],
        suited: 'any',
        dealerHolds: null,
        pays: 3,
      },
    ],
    otherwise: -1,
    paidOnFold: true,
    source:
      '001 (Desarrollo del juego: Bonus not conditioned on the other bets; Apuesta Especial o Bonus: the table)',
  },
  showdown: {
    order: 'dealer_then_boxes_descending',
    source:
      '001 § 5 (Enseñar el juego: the dealer first, then box 7 down to 1); 001 § 6 (La Banca)',
  },
  tableMaximum: { timesMinimum: 20, source: '001 § 6 (Mínimo/Máximo)' },
  sources: {
    boxes: '001 § 4 (Número de jugadores: up to 7 boxes)',
    handRanks: '001 § 3 (Orden de las combinaciones)',
    aceLowStraight: '001 § II.a; 001 § 3 (Escalera)',
    dealOrder:
      "001 (Desarrollo del juego: face down one by one from the dealer's left, the dealer's first card to its left spot, a second round, the dealer's second card to its right spot)",
    decisions:
      '001 § 2 (Distribución: clockwise); 001 (Desarrollo del juego: flop, turn, river decisions in turn)',
    bestHand: '001 (4. Opciones de los jugadores: the hand always plays its highest combination)',
    noPlayer: '001 § 10 (Sin juego: nobody plays on, the dealer discards its cards)',
  },
  notes: [
    "Boxes are numbered 1-7 from the dealer's left; decisions are taken from box 1 up, the showdown runs dealer, then box 7 down to 1 (001 § 5).",
    "The Bonus is reported for every box as if placed; it is settled even when the box folds (001: its resolution is not conditioned on the other bets). AA against the dealer's AA pays 1000:1 and must be authorised by the DJ (001).",
    'When every box folds at the flop decision no board is dealt (001 § 10).',
    'For hand-shuffled play with one deck, set backs to a single colour; the red/blue alternation is for the automatic shuffler.',
    'The misdeal policy is the table session\'s to enforce; "Errores e infracciones" a-d of 001 and El juego 1.c.',
  ],
};

export const TDC_CASINO_HOLDEM: PokerRulesetInput = {
  name: 'tdc-casino-holdem',
  title: "Casino Texas Hold'em",
  jurisdiction: 'Tigre de Cristal casino (Russia)',
  game: 'casino-holdem',
  decks: {
    allowed: [1],
    default: 1,
    source: "004 (Texas Hold'em: description, 1 deck of 52 cards)",
  },
  backs: ONE_BACK,
  burn: NO_BURN,
  shoeEnd: ONE_DECK_EVERY_ROUND,
  misdeal: PRACTICE_MISDEAL,
  maxBoxes: 7,
  call: {
    antes: 2,
    pays: 1,
    source: "004 (Texas Hold'em: Call of 2 Antes or fold; Call paid 1:1)",
  },
  dealerQualifier: {
    minimum: ['4S', '4H', '5D', '3C', '2S'],
    description: 'a pair of fours or better',
    source: "004 (Texas Hold'em: the dealer's minimum game is a pair of fours)",
  },
  ante: {
    table: {
      royal_flush: 100,
      straight_flush: 20,
      four_of_a_kind: 10,
      full_house: 3,
      flush: 2,
      straight: 1,
      three_of_a_kind: 1,
      two_pair: 1,
      one_pair: 1,
      high_card: 1,
    },
    source:
      "practice: 004 (Texas Hold'em) pays the Ante by its pay table, which the text does not reproduce; the usual casino hold'em table",
  },
  bonus: {
    table: {
      royal_flush: 100,
      straight_flush: 50,
      four_of_a_kind: 40,
      full_house: 30,
      flush: 20,
      straight: 7,
      three_of_a_kind: 7,
      two_pair: -1,
      one_pair: -1,
      high_card: -1,
    },
    paidOnFold: true,
    source:
      "practice: 004 (Texas Hold'em: Bonus, a separate bet, wins on three of a kind or better in the first 5 cards) gives no table; the usual bonus table",
  },
  darkBoxes: {
    offered: true,
    source: "004 (Texas Hold'em: a dark box places Ante and Call before the deal)",
  },
  payoutLimit: { amount: null, source: "004 (Texas Hold'em: table maximum payout per box)" },
  sources: {
    boxes: "004 (Texas Hold'em: 1 to 7 boxes)",
    deal: "004 (Texas Hold'em: two cards face down to each player and the dealer, three flop cards face up)",
    dealOrder: 'practice: one card at a time from box 1, the dealer last, two rounds',
    board:
      "004 (Texas Hold'em: two more community cards after the decisions; seven cards each, best five)",
    fold: "004 (Texas Hold'em: a fold loses the Ante)",
    result:
      "004 (Texas Hold'em: lower than the dealer loses; higher: Call 1:1, Ante by the table; equal: stand off; dealer without a game: Call not paid, Ante by the table)",
    suits: "004 (Texas Hold'em: all suits are equal)",
  },
  notes: [
    '004 refers to a pay table for the Ante and a Bonus table that the text does not reproduce; the tables here are the usual ones, marked practice: configure them to the posted tables.',
    'A Call against a dealer without a game is returned (004: "not paid").',
    'Dark boxes (RoundSetup.dark) have their Call in before the deal and make no decision.',
    "Set payoutLimit.amount to the table maximum; it caps a box's Ante and Call winnings when the round's stakes are given (box:N.ante).",
  ],
};

export const BULGARIA_CARIBBEAN_STUD: PokerRulesetInput = {
  name: 'bulgaria-caribbean-stud',
  title: 'Caribbean stud poker',
  jurisdiction: 'Bulgaria (State Gambling Commission, 2002)',
  game: 'caribbean-stud',
  decks: { allowed: [1], default: 1, source: '003 § 24(1) (Caribbean stud: one deck of 52 cards)' },
  backs: ONE_BACK,
  burn: NO_BURN,
  shoeEnd: ONE_DECK_EVERY_ROUND,
  misdeal: PRACTICE_MISDEAL,
  maxBoxes: 7,
  draw: {
    replace: { min: 1, max: 1 },
    buySixth: true,
    fee: 1,
    source:
      '003 § 24(4) (Caribbean stud: replace one card, or buy a sixth, each for a stake equal to the Ante)',
  },
  raise: {
    antes: 2,
    source: '003 § 24(5) (Caribbean stud: to play on, the player doubles the stakes)',
  },
  dealerQualifier: {
    minimum: ['AS', 'KH', '4D', '3C', '2S'],
    description: 'ace-king or better',
    source: '003 § 24(7) (Caribbean stud: the dealer plays only with ace-king or better)',
  },
  ante: {
    pays: 1,
    source:
      '003 § 24(7)-(9) (Caribbean stud: the Ante is paid 1:1 when the dealer does not qualify or the player wins)',
  },
  raisePays: {
    table: {
      royal_flush: 100,
      straight_flush: 50,
      four_of_a_kind: 20,
      full_house: 7,
      flush: 5,
      straight: 4,
      three_of_a_kind: 3,
      two_pair: 2,
      one_pair: 1,
      high_card: 1,
    },
    source: '003 § 24(7) (Caribbean stud: the payout scheme)',
  },
  tie: { result: 0, source: 'practice: 003 § 24 does not settle equal hands; they push' },
  bonus: {
    table: {
      royal_flush: 5000,
      straight_flush: 1000,
      four_of_a_kind: 250,
      full_house: 150,
      flush: 100,
      straight: -1,
      three_of_a_kind: -1,
      two_pair: -1,
      one_pair: -1,
      high_card: -1,
    },
    paidOnFold: false,
    source: '003 § 26(1) (Caribbean stud: BONUS BET on the first five cards)',
  },
  sources: {
    deal: '003 § 24(3) (Caribbean stud: five cards face down to the player, the dealer four down and the fifth up)',
    dealOrder: 'practice: one card at a time from box 1, the dealer last, five rounds',
    fold: '003 § 24(5) item 1 (Caribbean stud: folding loses the Ante)',
    dealerReveals: '003 § 24(6) (Caribbean stud)',
    noQualify: '003 § 24(8) (Caribbean stud: the Raise is not paid, only the Ante 1:1)',
    dealerWins: '003 § 24(10) (Caribbean stud: the dealer takes Ante and Raise)',
    handRanks: '003 § 28(14)',
  },
  notes: [
    '003 numbers its Caribbean stud articles 24 and 26 (the Punto Banco section also has an article 24); citations here name the game.',
    'The draw fee (003 § 24(4) "a stake equal to the Ante") is not returned: 003 pays nothing on it. The Raise is two Antes, "doubling" the Ante; 003 § 24(5) reads "double the stakes made so far", which a casino may read as including the fee.',
    'The Bonus pays on the first five cards dealt, before any replacement (003 § 26(1)); a folded box forfeits it (practice). Progressive jackpots (003 § 26(3)) are outside the engine.',
    'The box plays its best five of five or six cards.',
  ],
};

export const TDC_RUSSIAN_POKER: PokerRulesetInput = {
  name: 'tdc-russian-poker',
  title: 'Russian poker',
  jurisdiction: 'Tigre de Cristal casino (Russia)',
  game: 'russian-poker',
  decks: { allowed: [1], default: 1, source: '004 (Russian poker: 1 deck of 52 cards)' },
  backs: ONE_BACK,
  burn: NO_BURN,
  shoeEnd: ONE_DECK_EVERY_ROUND,
  misdeal: PRACTICE_MISDEAL,
  maxBoxes: 4,
  draw: {
    exchange: { min: 2, max: 5 },
    buySixth: true,
    fee: 1,
    source:
      '004 (Russian poker: Exchange and purchase, two to five cards or a sixth card for a stake equal to the Ante)',
  },
  bet: { antes: 2, source: '004 (Russian poker: to play on, a Bet of two Antes)' },
  dealerQualifier: {
    minimum: ['AS', 'KH', '4D', '3C', '2S'],
    description: 'ace-king or better',
    source: "004 (Russian poker: the dealer's minimum game is ace/king)",
  },
  ante: {
    noGame: 1,
    playerWins: 0,
    source: '004 (Russian poker: the Ante is paid 1:1 only when the dealer has no game)',
  },
  betPays: {
    table: {
      royal_flush: 100,
      straight_flush: 50,
      four_of_a_kind: 20,
      full_house: 7,
      flush: 6,
      straight: 4,
      three_of_a_kind: 3,
      two_pair: 2,
      one_pair: 1,
      ace_king: 1,
      high_card: 0,
    },
    source:
      'practice: 004 (Russian poker) pays the Bet by its pay table, which the text does not reproduce; the usual Russian poker table',
  },
  tie: { result: 0, source: '004 (Russian poker: equal hands are a stand off)' },
  secondCombination: {
    offered: true,
    onFiveCards: ['ace_king'],
    source:
      '004 (Russian poker: up to two combinations per box, the second with a card outside the first; on five cards only ace/king; paid only when the main game beats the dealer)',
  },
  insurance: {
    from: 'three_of_a_kind',
    pays: 1,
    source:
      '004 (Russian poker: Insurance, a box with three of a kind or better against the dealer having no game)',
    paysSource:
      'practice: 004 gives no rate; insurance pays 1:1 when the dealer has no game, else loses',
  },
  buyDealerGame: {
    fee: 1,
    freeRedrawOnSameRank: true,
    source:
      "004 (Russian poker: Buying a game for the dealer, for the Ante; the dealer's highest card is replaced, once more free if the same card came back without a combination)",
  },
  darkBoxes: {
    offered: true,
    source:
      '004 (Russian poker: a dark box places Ante and Bet before the deal, no exchange, no purchase)',
  },
  payoutLimit: {
    amount: null,
    source:
      '004 (Russian poker: Table maximum payout, combinations and insurance of a box together)',
  },
  sources: {
    boxes: '004 (Russian poker: 1 to 4 boxes)',
    deal: '004 (Russian poker: five cards face down to each and the dealer; one dealer card turned up)',
    dealOrder:
      "practice: one card at a time from box 1, the dealer last, five rounds; the dealer's fifth card up",
    fold: '004 (Russian poker: a player who does not play on loses the Ante)',
    result:
      '004 (Russian poker: lower than the dealer loses; higher, the Bet by the table; equal, stand off)',
    suits: '004 (Russian poker: all suits are equal)',
  },
  notes: [
    '004 refers to a pay table for the Bet that the text does not reproduce; the table here is the usual one, marked practice.',
    "The Bet pays the main combination plus the second combination (best-paying combination of the box's cards with at least one card outside the main one) when the main game beats a qualifying dealer. Read literally: on six cards 5-6-7-8-9-9 holds two straights (the second through the other nine); a casino that reads 004 otherwise sets secondCombination.offered or asks for a stricter rule.",
    'Buying a game: each box that played on decides in turn; boxes that decline are settled against the dealer without a game (Ante 1:1, Bet returned); if any box buys, the dealer discards its highest card and draws one, and the buying boxes are settled against the new hand. The fee is one Ante, never returned.',
    '"The same card came back" (004): the engine sees card codes and one deck holds each card once, so it reads this as a card of the same rank as the discarded one; if that card makes no combination the dealer replaces it once more, free.',
    "Insurance is settled on the dealer's hand as turned, before any purchase. A dark box may insure (004); the engine offers it when its unseen hand holds three of a kind or better.",
    "Set payoutLimit.amount to the table maximum; with the round's stakes (box:N.ante, box:N.insurance) the Bet and insurance winnings of a box are scaled down together to it.",
    'The optional Bonus bet of 004 has no table in the text and is not settled here.',
  ],
};

export const BULGARIA_SEVEN_CARD_STUD: PokerRulesetInput = {
  name: 'bulgaria-seven-card-stud',
  title: 'Seven-card stud poker (three down, four up)',
  jurisdiction: 'Bulgaria (State Gambling Commission, 2002)',
  game: 'seven-card-stud',
  decks: { allowed: [1], default: 1, source: 'practice: one 52-card deck; 003 § 27-28 do not say' },
  backs: ONE_BACK,
  burn: NO_BURN,
  shoeEnd: ONE_DECK_EVERY_ROUND,
  misdeal: {
    ...PRACTICE_MISDEAL,
    dealerCardExposedEarly: {
      action: 'not_applicable',
      reshuffle: false,
      source: '003 § 27 (the players play each other; the dealer holds no hand)',
    },
  },
  maxPlayers: 7,
  opener: {
    aceLow: false,
    source:
      '003 § 28(3) (the lowest card opens the first round); ace high: practice, as in the hand ranks of 003 § 28(14)',
  },
  maxRaisesPerRound: {
    value: 3,
    source:
      'practice: 003 § 28(5)-(6) allow raises within the table maximum; three raises per round',
  },
  commission: {
    kind: 'percentage',
    variant: 'pot_limit',
    percent: 5,
    allowed: [3, 5],
    source: '003 § 28(17) item 2, § 28(19) (pot limit: commission 3 % to 5 % of each pot)',
  },
  splitPot: { source: '003 § 28(13) (equal hands share the pot)' },
  sources: {
    players: '003 § 27 (players play each other, the house takes a commission from each hand)',
    deal: "003 § 28(1) (two cards down, one up); § 28(2) (from the player on the dealer's left, clockwise)",
    streets:
      '003 § 28(7) (one more card up, a new round); § 28(9) (two down, four up, the last down)',
    rounds: '003 § 28(10) (five betting rounds)',
    laterOpener: '003 § 28(7) (the highest combination of the up cards opens)',
    checking: '003 § 28(8) (checking allowed from the second round)',
    fold: '003 § 28(5) item 1 (a folding player takes no further part)',
    lastPlayer: '003 § 28(11) item 1 (one player left takes the pot)',
    showdown: '003 § 28(12) (the highest combination wins the pot)',
    bestFive: '003 § 28(9) (best five of seven)',
    handRanks: '003 § 28(14)-(16)',
    fixedCommission:
      '003 § 28(17) item 1, § 28(18) (split maximum: commission equal to the minimum bet, per hand)',
  },
  notes: [
    'Amounts are outside the engine: `bet` puts chips in (opens, or calls a bet), `raise` raises, `check` checks, `fold` folds. Only folds change who plays on; bets and raises re-open the round for the others.',
    "Outcome bets `box:N.pot` are each player's share of the pot (1 for a sole winner, 1/2 each for two equal hands, 0 otherwise), not stake multiples; the commission is reported beside them, and as amounts when the round's stakes give `pot` (and `minimum_bet` for the fixed commission).",
    "Ties for the opener (equal lowest up cards, or equal up-card combinations) go to the first such player from the dealer's left (practice: suits are equal, 003 § 28(14)).",
    'Up-card combinations for the later openers count pairs, two pairs, trips and fours; straights and flushes are not counted on fewer than five cards (practice).',
    'At most seven players, so that one deck always suffices (7 x 7 = 49 cards).',
  ],
};

export const POKER_RULESETS: readonly PokerRulesetInput[] = [
  SPAIN_HOLDEM_BONUS,
  TDC_CASINO_HOLDEM,
  BULGARIA_CARIBBEAN_STUD,
  TDC_RUSSIAN_POKER,
  BULGARIA_SEVEN_CARD_STUD,
];
