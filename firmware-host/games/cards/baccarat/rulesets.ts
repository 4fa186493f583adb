/**
 * The Punto Banco family's rulesets. Every rule point cites its seed
 * article; `practice:` marks what the originals leave open.
 */
import { ONE_BACK } from '../../../engine/rulesets/base.ts';
import type { RulesetInput } from '../../../engine/rulesets/schema.ts';

const CARD_RULES = {
  cardValues: '004 (Baccarat: card values)',
  dealOrder: '003 § 24 item 3.b',
  naturals: '003 § 24 item 3.c',
  tableau: '004 (Baccarat: drawing table and note); 003 § 24 scheme, see the tableau field',
  maxCardsPerCoup: '003 § 24 item 5',
  announcement: '003 § 24 item 4',
} as const;

/** The Dragon Bonus margin table: missing from 002 (it was an image), so the usual one. */
const DRAGON_MARGINS = [
  { margin: 9, pays: 30 },
  { margin: 8, pays: 10 },
  { margin: 7, pays: 6 },
  { margin: 6, pays: 4 },
  { margin: 5, pays: 2 },
  { margin: 4, pays: 1 },
];
const DRAGON_MARGINS_SOURCE =
  'practice: the 002 § 13.9 margin table was an image, lost from the text; the usual 30/10/6/4/2/1 for margins 9..4';

const TURN_AND_BURN_PRACTICE = {
  kind: 'turn_and_burn',
  at: 'new_shoe',
  tenValueBurns: 10,
  source: 'practice: at a new shoe the first card is turned and that many burned, ten-values 10',
} as const;

/**
 * 003 § 24(1) puts the marker seven cards from the end, and a coup takes up
 * to six (item 5): the coup in progress and one more can need eleven. The
 * seeds do not say what happens when the shoe runs out, so the usual: a coup
 * is begun while the four cards every coup takes are left, and a coup the
 * shoe cannot complete is void.
 */
const SHOE_EXHAUSTION = {
  coupNeeds: 4,
  source:
    'practice: a coup is begun while the 4 cards every coup takes are left to deal (003 § 24 item 3.b, two to each side); one the shoe cannot complete (up to 6 cards, item 5) is void and the shoe ends',
} as const;

/** The seeds give no misdeal procedure for baccarat: the usual one, all configurable. */
const BACCARAT_MISDEAL = {
  faceUpInShoe: {
    one: 'discard',
    moreThanOne: 'discard',
    reshuffle: false,
    source:
      'practice: the seeds give baccarat no misdeal procedure; a card found face up is discarded as in 000 § 14.a, and as every baccarat card is dealt face up anyway, play goes on',
  },
  unexposedCardInError: {
    action: 'use_as_next',
    source: 'practice: the tableau decides the order, a card is used as the next card',
  },
  wrongCardCount: {
    box: 'void_all',
    dealer: 'void_all',
    reshuffle: false,
    paymentsStand: false,
    source: 'practice: a coup dealt against the tableau is void, the shoe continues',
  },
  dealerCardExposedEarly: {
    action: 'not_applicable',
    reshuffle: false,
    source: 'practice: baccarat has no hidden dealer card',
  },
} as const;

export const MONACO_PUNTO_2000: RulesetInput = {
  name: 'monaco-punto-2000',
  title: 'Punto 2000 with Dragon Bonus',
  jurisdiction: 'Monaco (arrêté ministériel 2016-842)',
  game: 'punto-banco',
  decks: {
    allowed: [6, 8],
    default: 8,
    source:
      'practice: 002 § 13.8 plays by the Punto Banco rules of arrêté 88-384 § 13.1-13.7, which are not in the seeds',
  },
  backs: ONE_BACK,
  burn: TURN_AND_BURN_PRACTICE,
  shoeEnd: {
    kind: 'last_hand_marker',
    marker: 'cut_card',
    cardsBehind: 7,
    coupsAfter: 1,
    exhaustion: SHOE_EXHAUSTION,
    lastCardCovered: false,
    source:
      'practice: a marker seven cards from the end as in 003 § 24(1); the coup in progress and one more are dealt',
  },
  misdeal: BACCARAT_MISDEAL,
  payouts: {
    player: 1,
    banker: { win: 1, winOnSix: 0.5 },
    tie: 8,
    mainBetsOnTie: 0,
    source: '002 § 13.8 (Banker 1:1, 1/2 on a 6); tie 8:1 and main bets pushing on a tie as in 004',
  },
  dragonBonus: {
    offered: true,
    natural: 1,
    naturalTie: 0,
    margins: DRAGON_MARGINS,
    source: '002 § 13.9',
    marginsSource: DRAGON_MARGINS_SOURCE,
  },
  pairs: {
    offered: false,
    pays: 11,
    source: 'practice: not in 002; 11:1 where a table adds it',
  },
  tableau: {
    bankerFiveDrawsOnSeven: true,
    source:
      'practice: 002 § 13.8 refers to the Punto Banco tableau of arrêté 88-384, not in the seeds; the universal one (004)',
  },
  sources: { ...CARD_RULES, game: '002 § 13.8' },
  notes: [
    'Punto 2000 follows the Punto Banco rules of arrêté 88-384 § 13.1-13.7 except the Banker payout (002 § 13.8); those paragraphs are not among the seeds, so card values, order and tableau cite 003 and 004, which agree.',
    'Dragon Bonus settles after the main bets (002 § 13.9, last paragraph).',
  ],
};

export const BULGARIA_PUNTO_BANCO: RulesetInput = {
  name: 'bulgaria-punto-banco',
  title: 'Punto Banco (classic, 5% commission)',
  jurisdiction: 'Bulgaria (State Gambling Commission, 2002)',
  game: 'punto-banco',
  decks: { allowed: [4, 8], default: 8, source: '003 § 24(1)' },
  backs: ONE_BACK,
  burn: {
    ...TURN_AND_BURN_PRACTICE,
    source:
      '003 § 24 item 3.a (cards may be taken out before a hand per the approved house rules); turn-and-burn is the practice',
  },
  shoeEnd: {
    kind: 'last_hand_marker',
    marker: 'joker',
    cardsBehind: 7,
    coupsAfter: 1,
    exhaustion: SHOE_EXHAUSTION,
    lastCardCovered: true,
    source:
      '003 § 24(1) (a cut card covers the last card, the second follows the seventh card from the end) and item 5 (the first joker announces the last hand); one coup after the marker is practice',
  },
  misdeal: BACCARAT_MISDEAL,
  payouts: {
    player: 1,
    banker: { win: 0.95, winOnSix: 0.95 },
    tie: 8,
    mainBetsOnTie: 0,
    source:
      '003 § 24(2) item 1 (Punto 1:1, Banco 95%) and item 2 (Tie 8:1); main bets push on a tie as in 004',
  },
  dragonBonus: {
    offered: false,
    natural: 1,
    naturalTie: 0,
    margins: DRAGON_MARGINS,
    source: 'practice: not in 003; as 002 § 13.9 where a table adds it',
    marginsSource: DRAGON_MARGINS_SOURCE,
  },
  pairs: { offered: false, pays: 11, source: 'practice: not in 003; 11:1 where a table adds it' },
  sources: { ...CARD_RULES, commission: '003 § 24(2) item 1.2' },
  tableau: {
    bankerFiveDrawsOnSeven: false,
    source:
      '003 § 24 (СХЕМА НА ИГРАТА: a Banker 5 draws on a Player third card of 4, 5, 6); a casino dealing the universal tableau (4-7, as 004) sets bankerFiveDrawsOnSeven: true',
  },
  notes: [
    '003 § 24 (the drawing scheme) lists Banker 5 drawing on a Player third card of 4, 5, 6, where 004 and the universal tableau say 4-7. The approved text wins: by default a Banker 5 stands on a Player third card of 7; tableau.bankerFiveDrawsOnSeven: true restores the universal tableau.',
  ],
};

export const TDC_BACCARAT_NO_COMMISSION: RulesetInput = {
  name: 'tdc-baccarat-no-commission',
  title: 'Baccarat without commission',
  jurisdiction: 'Tigre de Cristal casino (Russia)',
  game: 'punto-banco',
  decks: { allowed: [8], default: 8, source: '004 (Baccarat: description)' },
  backs: ONE_BACK,
  burn: TURN_AND_BURN_PRACTICE,
  shoeEnd: {
    kind: 'last_hand_marker',
    marker: 'cut_card',
    cardsBehind: 7,
    coupsAfter: 1,
    exhaustion: SHOE_EXHAUSTION,
    lastCardCovered: false,
    source: 'practice: 004 is silent; a marker seven cards from the end as in 003 § 24(1)',
  },
  misdeal: BACCARAT_MISDEAL,
  payouts: {
    player: 1,
    banker: { win: 1, winOnSix: 0.5 },
    tie: 8,
    mainBetsOnTie: 0,
    source: '004 (Baccarat: payouts)',
  },
  dragonBonus: {
    offered: false,
    natural: 1,
    naturalTie: 0,
    margins: DRAGON_MARGINS,
    source: 'practice: not in 004; as 002 § 13.9 where a table adds it',
    marginsSource: DRAGON_MARGINS_SOURCE,
  },
  pairs: {
    offered: true,
    pays: 1,
    source: '004 (Baccarat: payouts, pairs 1:1; 11:1 is the usual elsewhere)',
  },
  tableau: { bankerFiveDrawsOnSeven: true, source: '004 (Baccarat: drawing table)' },
  sources: { ...CARD_RULES, dealOrder: '004 (Baccarat: start of play)' },
  notes: [
    'Pairs pay 1:1 as 004 says; most tables pay 11:1 (set pairs.pays to 11).',
    'A pair is two first cards of the same rank (practice; 004 does not define it).',
  ],
};

export const PUNTO_BANCO_RULESETS: readonly RulesetInput[] = [
  MONACO_PUNTO_2000,
  BULGARIA_PUNTO_BANCO,
  TDC_BACCARAT_NO_COMMISSION,
];
