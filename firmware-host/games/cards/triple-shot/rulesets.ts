/**
 * Triple Shot, Peru (MINCETUR directive 004-2004, registration JC0019).
 */
import type { RulesetInput } from '../../../engine/rulesets/schema.ts';

export const PERU_TRIPLE_SHOT: RulesetInput = {
  name: 'peru-triple-shot',
  title: 'Triple Shot (War, Blackjack, six-card Poker)',
  jurisdiction: 'Peru (MINCETUR directive 004-2004, JC0019)',
  game: 'triple-shot',
  decks: {
    allowed: [1],
    default: 1,
    source: '000 § 1.h, § 2.c (one 52-card deck per round, jokers removed, § 5)',
  },
  backs: {
    kind: 'alternating',
    colours: ['red', 'blue'],
    every: 'round',
    source:
      '000 § 2.c.1-c.3 (two decks of different back colours, alternated; one deck in the discard at a time)',
  },
  burn: {
    kind: 'none',
    source: '000 § 6, § 7 (shuffle and cut onto the cut card; no burn is prescribed)',
  },
  shoeEnd: {
    kind: 'reshuffle_every_round',
    source: '000 § 7 (shuffle and cut before every round)',
  },
  misdeal: {
    faceUpInShoe: {
      one: 'discard',
      moreThanOne: 'void_all',
      reshuffle: true,
      source: '000 § 14.a',
    },
    unexposedCardInError: { action: 'use_as_next', source: '000 § 14.b' },
    wrongCardCount: {
      box: 'void_all',
      dealer: 'void_all',
      reshuffle: true,
      paymentsStand: true,
      source: '000 § 14.c',
    },
    dealerCardExposedEarly: { action: 'void_all', reshuffle: true, source: '000 § 14.d' },
  },
  maxPositions: 6,
  war: { win: 1, tie: -0.5, source: '000 § 9.a, § 11 (Guerra: 1 a 1; tie loses half)' },
  blackjack: {
    win: 1,
    blackjack: 1.5,
    sixCards: 1,
    insurance: { form: 'dealer_blackjack', on: ['A'], pays: 2, source: '000 § 11 (Seguro 2 a 1)' },
    double: {
      offered: true,
      source:
        '000 § 1.a.2 (the blackjack rules apply except for splitting); doubling on two cards is practice',
    },
    splitAces: { offered: true, source: '000 § 9.b (only a pair of aces, once, one card to each)' },
    dealer: {
      hitSoft17: false,
      source: 'practice: 000 § 1.a.2 applies the blackjack rules; dealer stands on 17',
    },
    source: '000 § 9.b, § 11 (Black Jack 3 a 2; six cards without busting 1 a 1, paid at once)',
  },
  poker: {
    table: {
      royal_flush: 100,
      straight_flush: 30,
      four_of_a_kind: 15,
      full_house: 7,
      flush: 5,
      straight: 4,
      three_of_a_kind: 3,
      two_pair: 2,
      one_pair: 1,
      high_card: 1,
    },
    tie: 0,
    source:
      '000 § 9.c, § 10, § 11 (best five of six against the dealer, the posted table); high card 1:1 and a tie pushing are practice (the Caribbean rules of 000 § 1.a.3)',
  },
  bonus: { pays: 7, source: '000 § 9.d, § 11 (Bonus 7 a 1)' },
  payoutLimit: { amount: null, source: '000 § 12, § 13 (optional table maximum, LIMIT / SUM)' },
  sources: {
    positions: '000 § 8 (at most six players)',
    warOrder: '000 § 9.a',
    blackjackOrder: '000 § 9.b',
    pokerOrder: '000 § 9.c',
    warRanks: '000 § 3',
    handRanks: '000 § 4',
    aceLowStraight: '000 § 3, § 4.f',
    handOfSix: '000 § 1.i',
  },
  notes: [
    "Positions are numbered 1-6 from the dealer's left. War cards go from the dealer's extreme right (position 6) to the left, then the dealer's; second cards from the dealer's left (000 § 9.a, b).",
    "The directive does not say when the dealer's War card is dealt; the engine deals it after the positions' War cards.",
    'The dealer plays its blackjack hand out even when every position has bust, and stops at six cards (a hand is six cards, 000 § 1.i); then the poker cards complete each hand to six.',
    'A blackjack hand of 21 takes no more cards (practice). Bonus: War won or tied, every blackjack hand won or pushed, Poker won (000 § 11); a Poker tie loses the Bonus.',
    'Set payoutLimit.amount to the table maximum to apply 000 § 13; the stakes come with each round.',
  ],
};

export const TRIPLE_SHOT_RULESETS: readonly RulesetInput[] = [PERU_TRIPLE_SHOT];
