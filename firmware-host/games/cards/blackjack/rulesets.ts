/**
 * The blackjack rulesets. Both seeds deal without a hole card: the dealer's
 * second card comes after the boxes have played (004; 003 § 15(4), (6)).
 */
import { ONE_BACK } from '../../../engine/rulesets/base.ts';
import type { RulesetInput } from '../../../engine/rulesets/schema.ts';

const BLACKJACK_MISDEAL = {
  faceUpInShoe: {
    one: 'discard',
    moreThanOne: 'discard',
    reshuffle: false,
    source: 'practice: the seeds are silent; a card found face up in the shoe is burned',
  },
  unexposedCardInError: {
    action: 'use_as_next',
    source: 'practice: as 000 § 14.b and 001, a card dealt by mistake unseen is the next card',
  },
  wrongCardCount: {
    box: 'void_box',
    dealer: 'void_all',
    reshuffle: false,
    paymentsStand: true,
    source:
      'practice: the seeds are silent; the box dealt wrongly is void, a dealer error voids the round',
  },
  dealerCardExposedEarly: {
    action: 'not_applicable',
    reshuffle: false,
    source: '004 (Blackjack: deal) the dealer has no hole card',
  },
} as const;

const NEW_SHOE_BURN: RulesetInput['burn'] = {
  kind: 'fixed',
  points: [{ before: 'new_shoe', count: 1 }],
  face: 'down',
  source: 'practice: the seeds are silent; one card burned at a new shoe',
};

export const TDC_BLACKJACK: RulesetInput = {
  name: 'tdc-blackjack',
  title: 'Blackjack',
  jurisdiction: 'Tigre de Cristal casino (Russia)',
  game: 'blackjack',
  decks: { allowed: [6], default: 6, source: '004 (Blackjack: description)' },
  backs: ONE_BACK,
  burn: NEW_SHOE_BURN,
  shoeEnd: {
    kind: 'cut_card',
    fractionBehind: 0.25,
    finishRound: true,
    source:
      'practice: 004 is silent; cut card a quarter from the end, the round in progress is finished',
  },
  misdeal: {
    ...BLACKJACK_MISDEAL,
    dealerCardExposedEarly: {
      action: 'not_applicable',
      reshuffle: false,
      source: '004 (Blackjack: deal) the dealer has no hole card',
    },
  },
  maxBoxes: 7,
  dealOrder: 'boxes_dealer_boxes',
  dealer: { hitSoft17: false, source: '004 (Blackjack: dealer draws to 16, stands on 17 or more)' },
  payouts: { win: 1, blackjack: 1.5, source: '004 (Blackjack: 3:2, winning box 1:1, stand-off)' },
  insurance: { form: 'dealer_blackjack', on: ['A'], pays: 2, source: '004 (Blackjack: insurance)' },
  evenMoney: { on: ['A'], source: '004 (Blackjack: even money)' },
  double: {
    on: 'any_two_not_21',
    afterSplit: true,
    source: '004 (Blackjack: double, any two cards but blackjack or 21; split hands not excluded)',
  },
  split: {
    by: 'rank',
    maxSplits: 3,
    aceOneCard: true,
    resplitAces: false,
    source:
      '004 (Blackjack: split, up to 3 per box, one card to each split ace); no re-split of aces is practice',
  },
  surrender: { againstAce: false, loses: -0.5, source: '004 (Blackjack: surrender)' },
  standOn21: { value: true, source: "004 (Blackjack: a player's 21 is always hard)" },
  dealerBlackjackTakes: {
    value: 'all',
    source:
      'practice: 004 is silent; without a hole card the dealer blackjack takes doubles and splits too',
  },
  sources: {
    cardValues: '004 (Blackjack: card values)',
    dealOrder: '004 (Blackjack: deal)',
    blackjackPaidAtOnce: '004 (Blackjack: paid at once unless the dealer shows a ten or an ace)',
    boxes: '004 (Blackjack: 1 to 7 boxes, up to 3 players per box)',
    aceTenAfterSplit: '004 (Blackjack: split, ace and ten after a split is not blackjack)',
  },
  notes: [
    'Up to three players may bet on a box; the box owner decides (004). The engine settles each box as one stake; the other players follow the box except on doubles (004), which the table settles.',
  ],
};

export const BULGARIA_BLACKJACK: RulesetInput = {
  name: 'bulgaria-blackjack',
  title: 'Blackjack',
  jurisdiction: 'Bulgaria (State Gambling Commission, 2002)',
  game: 'blackjack',
  decks: { allowed: [1, 4, 5, 6], default: 6, source: '003 § 14(1)' },
  backs: ONE_BACK,
  burn: NEW_SHOE_BURN,
  shoeEnd: {
    kind: 'cut_card',
    fractionBehind: 0.25,
    finishRound: true,
    source:
      '003 § 23 (play stops at the cut card); its position and finishing the round are practice',
  },
  misdeal: {
    ...BLACKJACK_MISDEAL,
    dealerCardExposedEarly: {
      action: 'not_applicable',
      reshuffle: false,
      source: '003 § 15(4) the dealer has no hole card',
    },
  },
  maxBoxes: 7,
  dealOrder: 'boxes_dealer_boxes',
  dealer: { hitSoft17: false, source: '003 § 15(6)' },
  payouts: { win: 1, blackjack: 1.5, source: '003 § 16(1), § 19(1)' },
  insurance: {
    form: 'dealer_blackjack',
    on: ['A', 'T', 'J', 'Q', 'K'],
    pays: 2,
    source: '003 § 18(1), (4)',
  },
  evenMoney: { on: ['A', 'T', 'J', 'Q', 'K'], source: '003 § 17' },
  double: { on: 'any_two', afterSplit: true, source: '003 § 20, § 21(2)' },
  split: {
    by: 'value',
    maxSplits: null,
    aceOneCard: false,
    resplitAces: true,
    source: '003 § 21(1), (2) (equal value, re-split, any number of cards after a split)',
  },
  surrender: null,
  standOn21: { value: true, source: 'practice: 003 is silent; a 21 takes no more cards' },
  dealerBlackjackTakes: {
    value: 'all',
    source:
      'practice: 003 is silent; without a hole card the dealer blackjack takes doubles and splits too',
  },
  sources: {
    cardValues: '003 § 22',
    dealOrder: '003 § 15(4)',
    dealerDraws: '003 § 15(6)',
    blackjack: '003 § 16(1)',
    aceTenAfterSplit: '003 § 21(3)',
    dealerBust: '003 § 19(3)',
    boxes: 'practice: 003 does not give a number of boxes; 7',
  },
  notes: [
    'The second Bulgarian insurance form (003 § 18(2)): on a dealer 7, 8, 9, ten, picture or ace, against the dealer drawing a ten-value card. To offer it, set insurance to { form: "dealer_ten_value", on: ["7","8","9","T","J","Q","K","A"], pays: 2 }.',
    'Insurance may be the whole bet or half of it (003 § 18(3)); the result is given per unit of the insurance stake.',
  ],
};

export const BLACKJACK_RULESETS: readonly RulesetInput[] = [TDC_BLACKJACK, BULGARIA_BLACKJACK];
