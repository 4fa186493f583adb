/**
 * The five-card games against the dealer with a draw: Caribbean stud
 * (003 § 24-26) and Russian poker (004). One core, two rulesets' worth of
 * differences. The flow of a round lives in `locate`:
 *
 *   five cards to each box and the dealer, one at a time, the dealer's fifth
 *   face up → each box in turn (dark boxes skip this): exchange cards or buy
 *   a sixth (a fee of one Ante), the cards, then play on or fold; Russian
 *   poker: insurance for a box holding three of a kind or better → Russian
 *   poker, dealer without a game: each box playing on may buy the dealer a
 *   game → the dealer's replacement card(s) → complete.
 *
 * Exchange decisions name the 0-based positions of the cards given back
 * (`box2:exchange:0,3`); the new cards take those positions in order.
 * Decisions carry no `onCard`: a card drawn while a box decides does not say
 * what the box decided.
 */
import type { StandardCard } from '../../../../device-protocol/cards.ts';
import { EngineError } from '../../../engine/errors.ts';
import type {
  CaribbeanStudRuleset,
  DealerQualifier,
  RussianPokerRuleset,
} from '../../../engine/rulesets/poker.ts';
import type {
  Action,
  Decision,
  GameEngine,
  NextStep,
  Outcome,
  RoundSetup,
} from '../../../engine/types.ts';
import {
  betName,
  boxSeat,
  boxSteps,
  type CappedPayout,
  capPayout,
  categoryAtLeast,
  collectedFaceDown,
  type DecisionAt,
  describeStep,
  firstDealStep,
  type HandSummary,
  type Located,
  qualifies,
  rankValue,
  seatAgainstDealer,
  summarise,
  UNITS_NOTE,
  versus,
  winnersOf,
  withBox,
} from './common.ts';
import { evaluate, type PokerCategory } from './evaluator.ts';

export type DrawChoice =
  | { readonly kind: 'none' }
  | { readonly kind: 'exchange'; readonly positions: readonly number[]; readonly received: number }
  | { readonly kind: 'buy'; readonly received: number };

export interface DrawBox {
  readonly box: number;
  readonly dark: boolean;
  /** The hand now, by position; exchanged positions hold their new cards. */
  readonly cards: readonly StandardCard[];
  /** The first five cards as dealt (the Caribbean Bonus hand). */
  readonly firstFive: readonly StandardCard[];
  /** Cards given back in an exchange. */
  readonly discarded: readonly StandardCard[];
  readonly draw: DrawChoice | null;
  readonly play: 'play' | 'fold' | null;
  readonly insurance: 'taken' | 'declined' | null;
  readonly buyGame: 'bought' | 'declined' | null;
}

export interface DrawStudState {
  readonly boxes: readonly DrawBox[];
  /** The dealer's five cards as dealt; the fifth is face up. */
  readonly dealer: readonly StandardCard[];
  readonly initialDealt: number;
  /** Cards the dealer drew for a bought game (Russian poker). */
  readonly dealerDrawn: readonly StandardCard[];
  readonly stakes: Readonly<Record<string, number>>;
}

/** A paying combination: a poker category, or ace-king (Russian poker). */
export type Combination = PokerCategory | 'ace_king';

export interface DrawBoxOutcome {
  readonly box: number;
  readonly dark: boolean;
  readonly cards: readonly StandardCard[];
  readonly firstFive: readonly StandardCard[];
  readonly discarded: readonly StandardCard[];
  readonly draw: DrawChoice['kind'];
  readonly play: 'play' | 'fold';
  readonly hand: HandSummary;
  /** The paying combinations of the box: its main one, and a second where the rules allow. */
  readonly combinations: readonly {
    readonly combination: Combination;
    readonly cards: readonly StandardCard[];
  }[];
  /** The dealer hand this box was settled against (after a bought game, the new one). */
  readonly against: 'dealer' | 'dealer_after_purchase';
  readonly dealerQualifies: boolean;
  readonly result: 'win' | 'lose' | 'tie' | 'fold' | 'dealer_not_qualified';
  readonly insurance: 'taken' | 'declined' | null;
  readonly buyGame: 'bought' | 'declined' | null;
  readonly payoutLimit: CappedPayout | null;
}

export interface DrawStudOutcome extends Outcome {
  readonly game: 'caribbean-stud' | 'russian-poker';
  readonly dealer: {
    readonly cards: readonly StandardCard[];
    readonly hand: HandSummary;
    readonly qualifies: boolean;
    /** After a bought game: the cards discarded and drawn, and the new hand. */
    readonly purchase: {
      readonly discarded: readonly StandardCard[];
      readonly drawn: readonly StandardCard[];
      readonly hand: HandSummary;
      readonly qualifies: boolean;
    } | null;
  };
  readonly qualifier: { readonly description: string; readonly dealerQualifies: boolean };
  readonly boxes: readonly DrawBoxOutcome[];
  /** Boxes whose main hand beat a qualifying dealer. */
  readonly winners: readonly number[];
  readonly units: string;
}

/**
 * The outcome as the table exposed it, for consumers: the dealer turns the
 * four hidden cards only when a box plays on (003 § 24(6)), so when every
 * box folded the dealer's hand is collected face down; a folded box is
 * collected face down (practice), and an exchanged card went down face down
 * (003 § 24(4) 1), so `firstFive` and `discarded` are counts.
 */
export function exposedDrawStudOutcome(outcome: DrawStudOutcome): Outcome {
  const dealerShown = outcome.boxes.some((box) => box.play === 'play');
  const boxes = outcome.boxes.map((box) => ({
    ...(box.play === 'play' ? box : collectedFaceDown(box, ['hand', 'combinations'])),
    firstFive: box.firstFive.length,
    discarded: box.discarded.length,
    ...(dealerShown ? {} : { dealerQualifies: null }),
  }));
  if (dealerShown) return { ...outcome, boxes };
  // Only the fifth card is dealt face up (003 § 24(3)).
  const up = outcome.dealer.cards.slice(4);
  return {
    ...outcome,
    dealer: {
      cards: up,
      hidden: outcome.dealer.cards.length - up.length,
      hand: null,
      qualifies: null,
      purchase: null,
    },
    qualifier: { ...outcome.qualifier, dealerQualifies: null },
    boxes,
  };
}

/** What differs between the two games, read from their rulesets. */
interface Variant {
  readonly game: 'caribbean-stud' | 'russian-poker';
  readonly name: string;
  readonly maxBoxes: number;
  readonly playAction: 'raise' | 'bet';
  readonly playAntes: number;
  readonly exchange: { readonly min: number; readonly max: number };
  readonly buySixth: boolean;
  readonly drawFee: number;
  readonly qualifier: DealerQualifier;
  readonly darkOffered: boolean;
  readonly insuranceFrom: PokerCategory | null;
  readonly insurancePays: number;
  readonly buyDealerGame: { readonly fee: number; readonly freeRedrawOnSameRank: boolean } | null;
  readonly payoutLimit: number | null;
  settle(
    box: DrawBox,
    hand: HandSummary,
    dealer: HandSummary,
    dealerQualifies: boolean,
  ): Settlement;
  bonus(box: DrawBox): number | null;
  combinations(box: DrawBox, hand: HandSummary): DrawBoxOutcome['combinations'];
}

interface Settlement {
  readonly result: DrawBoxOutcome['result'];
  readonly ante: number;
  readonly play: number;
}

type Phase = 'draw' | 'play' | 'insurance' | 'buy_game';
type DrawLocated = Located<DrawStudState, { phase: Phase }>;
type DrawDecisionAt = DecisionAt<DrawStudState, { phase: Phase }>;

/** The highest card of a hand, the ace high: what the dealer gives back for a bought game. */
function highestCard(cards: readonly StandardCard[]): StandardCard {
  return [...cards].sort((a, b) => rankValue(b) - rankValue(a))[0]!;
}

/** The dealer's hand after a bought game: the highest card replaced, then the replacement replaced. */
function dealerAfterPurchase(
  dealer: readonly StandardCard[],
  drawn: readonly StandardCard[],
): {
  cards: StandardCard[];
  discarded: StandardCard[];
} {
  let cards = [...dealer];
  const discarded: StandardCard[] = [];
  for (const card of drawn) {
    const out = discarded.length === 0 ? highestCard(cards) : cards[cards.length - 1]!;
    discarded.push(out);
    cards = [...cards.filter((c) => c !== out), card];
  }
  return { cards, discarded };
}

/** The round before the first card: the boxes seated, dark boxes already in. */
function start(variant: Variant, setup: RoundSetup): DrawStudState {
  const { boxes, dark } = seatAgainstDealer(setup, variant, variant.darkOffered);
  return {
    boxes: boxes.map(
      (box): DrawBox => ({
        box,
        dark: dark.has(box),
        cards: [],
        firstFive: [],
        discarded: [],
        // 004: a dark box neither exchanges nor buys, and its Bet is in before the deal.
        draw: dark.has(box) ? { kind: 'none' } : null,
        play: dark.has(box) ? 'play' : null,
        insurance: null,
        buyGame: null,
      }),
    ),
    dealer: [],
    initialDealt: 0,
    dealerDrawn: [],
    stakes: setup.stakes ?? {},
  };
}

// ------------------------------------------------------------- the plan

function drawOptions(variant: Variant): Action[] {
  const options: Action[] = [];
  if (variant.exchange.max > 0) options.push('exchange');
  if (variant.buySixth) options.push('buy');
  return [...options, variant.playAction, 'fold'];
}

function initialStep(state: DrawStudState): DrawLocated | undefined {
  // Five rounds, one card at a time, box 1 first and the dealer last (practice);
  // the dealer's fifth card face up (003 § 24(3); 004).
  return firstDealStep(state, 5, {
    dealer: (round) => ({
      face: round === 4 ? 'up' : 'down',
      purpose: `dealer card ${round + 1}${round === 4 ? ' (face up)' : ''}`,
    }),
    box: (box, round) => `box ${box.box} card ${round + 1}${box.dark ? ' (dark)' : ''}`,
    put: (box, card) => ({
      ...box,
      cards: [...box.cards, card],
      firstFive: [...box.firstFive, card],
    }),
  });
}

function dealerQualifies(variant: Variant, cards: readonly StandardCard[]): boolean {
  return qualifies(summarise(cards), variant.qualifier);
}

function dealerCardsNeeded(variant: Variant, state: DrawStudState): number {
  if (!state.boxes.some((b) => b.buyGame === 'bought')) return 0;
  const first = state.dealerDrawn[0];
  if (first === undefined) return 1;
  // 004: a card of the same rank as the one given back, making no combination, is replaced once more, free.
  const gaveBack = highestCard(state.dealer);
  const after = dealerAfterPurchase(state.dealer, [first]).cards;
  const again =
    variant.buyDealerGame?.freeRedrawOnSameRank === true &&
    first[0] === gaveBack[0] &&
    evaluate(after).category === 'high_card';
  return again ? 2 : 1;
}

/** The card or decision a box is waiting for after the first deal; undefined once it waits for nothing. */
function boxStep(variant: Variant, box: DrawBox, index: number): DrawLocated | undefined {
  if (box.draw === null)
    return { kind: 'decision', boxIndex: index, phase: 'draw', options: drawOptions(variant) };
  const draw = box.draw;
  if (draw.kind === 'exchange' && draw.received < draw.positions.length) {
    const position = draw.positions[draw.received]!;
    return {
      kind: 'card',
      to: boxSeat(box.box),
      face: 'down',
      purpose: `box ${box.box} replacement for card ${position + 1}`,
      put: (s, card) =>
        withBox(s, index, (b) => ({
          ...b,
          cards: b.cards.map((c, p) => (p === position ? card : c)),
          draw: { ...draw, received: draw.received + 1 },
        })),
    };
  }
  if (draw.kind === 'buy' && draw.received < 1) {
    return {
      kind: 'card',
      to: boxSeat(box.box),
      face: 'down',
      purpose: `box ${box.box} sixth card (bought)`,
      put: (s, card) =>
        withBox(s, index, (b) => ({
          ...b,
          cards: [...b.cards, card],
          draw: { kind: 'buy', received: 1 },
        })),
    };
  }
  if (box.play === null) {
    return {
      kind: 'decision',
      boxIndex: index,
      phase: 'play',
      options: [variant.playAction, 'fold'],
    };
  }
  if (
    variant.insuranceFrom !== null &&
    box.play === 'play' &&
    box.insurance === null &&
    categoryAtLeast(evaluate(box.cards).category, variant.insuranceFrom)
  ) {
    return {
      kind: 'decision',
      boxIndex: index,
      phase: 'insurance',
      options: ['insurance', 'no_insurance'],
    };
  }
  return undefined;
}

/** 004: the dealer without a game; each box playing on may buy it one, then the dealer draws. */
function boughtGameStep(variant: Variant, state: DrawStudState): DrawLocated | undefined {
  if (!variant.buyDealerGame || dealerQualifies(variant, state.dealer)) return undefined;
  const buying = state.boxes.findIndex((b) => b.play === 'play' && b.buyGame === null);
  if (buying >= 0) {
    return {
      kind: 'decision',
      boxIndex: buying,
      phase: 'buy_game',
      options: ['buy_dealer_game', 'check'],
    };
  }
  if (state.dealerDrawn.length >= dealerCardsNeeded(variant, state)) return undefined;
  const again = state.dealerDrawn.length === 1;
  return {
    kind: 'card',
    to: 'dealer',
    face: 'up',
    purpose: again
      ? 'dealer replaces the same-rank card once more, free (bought game)'
      : `dealer replaces its highest card ${highestCard(state.dealer)} (bought game)`,
    put: (s, card) => ({ ...s, dealerDrawn: [...s.dealerDrawn, card] }),
  };
}

/** Where the round stands, derived from the state alone: the first deal, each box in turn, the dealer's bought game. */
function locate(variant: Variant, state: DrawStudState): DrawLocated {
  const initial = initialStep(state);
  if (initial) return initial;
  for (let index = 0; index < state.boxes.length; index++) {
    const step = boxStep(variant, state.boxes[index]!, index);
    if (step) return step;
  }
  return boughtGameStep(variant, state) ?? { kind: 'complete' };
}

// ------------------------------------------------------- the transitions

function exchangePositions(variant: Variant, box: DrawBox, decision: Decision): number[] {
  const positions = decision.cards ?? [];
  const { min, max } = variant.exchange;
  const say = `${decision.seat} exchange`;
  if (positions.length < min || positions.length > max) {
    throw new EngineError(
      'illegal_decision',
      `${say}: name ${rangeText(variant.exchange)} card position${max > 1 ? 's' : ''} (0-${box.cards.length - 1}), like ${decision.seat.replace(':', '')}:exchange:${min === 1 ? '2' : '0,3'}; got ${positions.length}`,
    );
  }
  for (const position of positions) {
    if (!Number.isInteger(position) || position < 0 || position >= box.cards.length) {
      throw new EngineError(
        'illegal_decision',
        `${say}: card position ${position} does not exist (0-${box.cards.length - 1})`,
      );
    }
  }
  if (new Set(positions).size !== positions.length) {
    throw new EngineError(
      'illegal_decision',
      `${say}: a card position is named twice (${positions.join(',')})`,
    );
  }
  return [...positions].sort((a, b) => a - b);
}

function decisionPurpose(variant: Variant, box: DrawBox, at: DrawDecisionAt): string {
  const purposes = {
    draw: `box ${box.box}: exchange ${rangeText(variant.exchange)} card${variant.exchange.max > 1 ? 's' : ''}${variant.buySixth ? ' or buy a sixth' : ''} (${variant.drawFee} x Ante), or ${variant.playAction} (${variant.playAntes} x Ante) or fold`,
    play: `box ${box.box}: ${variant.playAction} (${variant.playAntes} x Ante) or fold`,
    insurance: `box ${box.box}: insure against the dealer having no game?`,
    buy_game: `box ${box.box}: buy the dealer a game (${variant.buyDealerGame?.fee ?? 1} x Ante)?`,
  };
  return purposes[at.phase];
}

function decisionPhase(at: DrawDecisionAt): string {
  return `${at.phase.replace('_', ' ')} decision`;
}

/** What a legal decision changes in the box that made it. */
function applyDecision(
  variant: Variant,
  state: DrawStudState,
  at: DrawDecisionAt,
  decision: Decision,
): DrawStudState {
  return withBox(state, at.boxIndex, (b): DrawBox => {
    switch (at.phase) {
      case 'draw':
        if (decision.action === 'exchange') {
          const positions = exchangePositions(variant, b, decision);
          return {
            ...b,
            draw: { kind: 'exchange', positions, received: 0 },
            discarded: positions.map((p) => b.cards[p]!),
          };
        }
        if (decision.action === 'buy') return { ...b, draw: { kind: 'buy', received: 0 } };
        return {
          ...b,
          draw: { kind: 'none' },
          play: decision.action === 'fold' ? 'fold' : 'play',
        };
      case 'play':
        return { ...b, play: decision.action === 'fold' ? 'fold' : 'play' };
      case 'insurance':
        return { ...b, insurance: decision.action === 'insurance' ? 'taken' : 'declined' };
      case 'buy_game':
        return { ...b, buyGame: decision.action === 'buy_dealer_game' ? 'bought' : 'declined' };
    }
  });
}

/** `next`, `deal`, `decide` and the completeness check of a variant: its plan and decisions wired through `boxSteps`. */
function transitions(variant: Variant) {
  return boxSteps<DrawStudState, { phase: Phase }>({
    locate: (state) => locate(variant, state),
    purpose: (box, at) => decisionPurpose(variant, box, at),
    phase: decisionPhase,
    apply: (state, at, decision) => applyDecision(variant, state, at, decision),
  });
}

// ---------------------------------------------------------- the outcome

type DealerOutcome = DrawStudOutcome['dealer'];

/** The dealer's hand as dealt and, after a bought game, as it became. */
function dealerOutcome(variant: Variant, state: DrawStudState): DealerOutcome {
  const hand = summarise(state.dealer);
  const purchased =
    state.dealerDrawn.length > 0 ? dealerAfterPurchase(state.dealer, state.dealerDrawn) : null;
  const purchase = purchased
    ? (() => {
        const after = summarise(purchased.cards);
        return {
          discarded: purchased.discarded,
          drawn: state.dealerDrawn,
          hand: after,
          qualifies: qualifies(after, variant.qualifier),
        };
      })()
    : null;
  return {
    cards: state.dealer,
    hand,
    qualifies: qualifies(hand, variant.qualifier),
    purchase,
  };
}

/** One box settled; its bets are written into `bets` (in the order the bets table lists them). */
function boxOutcome(
  variant: Variant,
  state: DrawStudState,
  dealer: DealerOutcome,
  box: DrawBox,
  bets: Record<string, number>,
): DrawBoxOutcome {
  const name = betName(box.box);
  const hand = summarise(box.cards);
  const draw = box.draw ?? { kind: 'none' };
  // 003 § 24(4); 004 (Exchange and purchase): the draw costs a fee of one Ante, not returned.
  if (draw.kind !== 'none') bets[name('draw')] = -variant.drawFee;
  const purchase = dealer.purchase;
  const bought = box.buyGame === 'bought' && purchase !== null;
  const against = bought ? purchase.hand : dealer.hand;
  const qualifiesAgainst = bought ? purchase.qualifies : dealer.qualifies;
  const play = box.play ?? 'fold';
  let result: DrawBoxOutcome['result'] = 'fold';
  if (play === 'fold') {
    bets[name('ante')] = -1; // 003 § 24(5) item 1; 004: folding loses the Ante
  } else {
    const settled = variant.settle(box, hand, against, qualifiesAgainst);
    result = settled.result;
    bets[name('ante')] = settled.ante;
    bets[name(variant.playAction)] = settled.play;
  }
  if (box.buyGame === 'bought') bets[name('buy_game')] = -(variant.buyDealerGame?.fee ?? 1);
  if (box.insurance === 'taken' && variant.game === 'russian-poker') {
    // Insurance against the dealer having no game, on the hand as turned (004).
    bets[name('insurance')] = dealer.qualifies ? -1 : variant.insurancePays;
  }
  const bonus = variant.bonus(box);
  if (bonus !== null) bets[name('bonus')] = bonus;
  return {
    box: box.box,
    dark: box.dark,
    cards: box.cards,
    firstFive: box.firstFive,
    discarded: box.discarded,
    draw: draw.kind,
    play,
    hand,
    combinations: variant.combinations(box, hand),
    against: bought ? 'dealer_after_purchase' : 'dealer',
    dealerQualifies: qualifiesAgainst,
    result,
    insurance: box.insurance,
    buyGame: box.buyGame,
    payoutLimit: boxPayoutLimit(variant, state, box, bets),
  };
}

/** The payout limit on a box's Bet and insurance (004), capping `bets`; null where the game has none. */
function boxPayoutLimit(
  variant: Variant,
  state: DrawStudState,
  box: DrawBox,
  bets: Record<string, number>,
): DrawBoxOutcome['payoutLimit'] {
  const name = betName(box.box);
  const ante = state.stakes[name('ante')];
  if (variant.payoutLimit === null || ante === undefined) return null;
  const insuranceStake = state.stakes[name('insurance')];
  return capPayout(
    bets,
    [name(variant.playAction), name('insurance')],
    {
      [name(variant.playAction)]: ante,
      ...(insuranceStake === undefined ? {} : { [name('insurance')]: insuranceStake }),
    },
    variant.payoutLimit,
  );
}

/** The settled round; the caller has checked that it is complete. */
function outcome(variant: Variant, state: DrawStudState): DrawStudOutcome {
  const dealer = dealerOutcome(variant, state);
  const bets: Record<string, number> = {};
  const boxes = state.boxes.map((box) => boxOutcome(variant, state, dealer, box, bets));
  return {
    game: variant.game,
    bets,
    dealer,
    qualifier: { description: variant.qualifier.description, dealerQualifies: dealer.qualifies },
    boxes,
    winners: winnersOf(boxes),
    units: UNITS_NOTE,
  };
}

function view(variant: Variant, state: DrawStudState, next: NextStep) {
  return {
    game: variant.game,
    // Only the dealer's fifth card is face up until the showdown.
    dealer: {
      up: state.dealer[4] ?? null,
      cards: state.dealer.length,
      drawn: state.dealerDrawn,
    },
    boxes: state.boxes.map((b) => ({
      box: b.box,
      dark: b.dark,
      cards: b.cards.length,
      draw: b.draw?.kind ?? null,
      play: b.play,
      insurance: b.insurance,
      buyGame: b.buyGame,
    })),
    next: describeStep(next),
  };
}

/** The engine of a variant: the state machine above, assembled into the GameEngine interface. */
function createDrawStudEngine(variant: Variant): GameEngine<DrawStudState, DrawStudOutcome> {
  const { next, deal, decide, expectComplete } = transitions(variant);
  return {
    game: variant.game,
    start: (setup) => start(variant, setup),
    next,
    deal,
    decide,
    outcome(state) {
      expectComplete(state);
      return outcome(variant, state);
    },
    view: (state) => view(variant, state, next(state)),
  };
}

function rangeText({ min, max }: { min: number; max: number }): string {
  return min === max ? `${min}` : `${min}-${max}`;
}

// ---------------------------------------------------------- Caribbean stud

export function createCaribbeanStudEngine(
  ruleset: CaribbeanStudRuleset,
): GameEngine<DrawStudState, DrawStudOutcome> {
  return createDrawStudEngine({
    game: 'caribbean-stud',
    name: ruleset.name,
    maxBoxes: ruleset.maxBoxes,
    playAction: 'raise',
    playAntes: ruleset.raise.antes,
    exchange: ruleset.draw.replace,
    buySixth: ruleset.draw.buySixth,
    drawFee: ruleset.draw.fee,
    qualifier: ruleset.dealerQualifier,
    darkOffered: false,
    insuranceFrom: null,
    insurancePays: 0,
    buyDealerGame: null,
    payoutLimit: null,
    settle(_box, hand, dealer, dealerQualifies) {
      // 003 § 24(8): the dealer without ace-king: the Ante 1:1, the Raise not paid (returned).
      if (!dealerQualifies)
        return { result: 'dealer_not_qualified', ante: ruleset.ante.pays, play: 0 };
      const result = versus(hand, dealer);
      // 003 § 24(7), (9): the Ante 1:1 and the Raise by the payout scheme.
      if (result === 'win') {
        return {
          result: 'win',
          ante: ruleset.ante.pays,
          play: ruleset.raise.antes * ruleset.raisePays.table[hand.category],
        };
      }
      if (result === 'tie')
        return {
          result: 'tie',
          ante: ruleset.tie.result,
          play: ruleset.tie.result * ruleset.raise.antes,
        };
      // 003 § 24(10): the dealer takes Ante and Raise.
      return { result: 'lose', ante: -1, play: -ruleset.raise.antes };
    },
    bonus(box) {
      // 003 § 26(1): the Bonus bet on the first five cards.
      if (box.play === 'fold' && !ruleset.bonus.paidOnFold) return -1;
      return ruleset.bonus.table[evaluate(box.firstFive).category];
    },
    combinations(_box, hand) {
      return [{ combination: hand.category, cards: hand.best }];
    },
  });
}

// ----------------------------------------------------------- Russian poker

/** The cards of a five-card hand that make its category (the pair, the trips, all five of a straight...). */
export function combinationCards(
  best: readonly StandardCard[],
  category: PokerCategory,
): StandardCard[] {
  const counts = new Map<string, number>();
  for (const card of best) counts.set(card[0]!, (counts.get(card[0]!) ?? 0) + 1);
  const ofCount = (n: number) => best.filter((card) => counts.get(card[0]!) === n);
  switch (category) {
    case 'one_pair':
    case 'two_pair':
      return ofCount(2);
    case 'three_of_a_kind':
      return ofCount(3);
    case 'four_of_a_kind':
      return ofCount(4);
    case 'high_card': {
      const ace = best.find((card) => card[0] === 'A');
      const king = best.find((card) => card[0] === 'K');
      return ace && king ? [ace, king] : [];
    }
    default:
      return [...best];
  }
}

/** What a set of cards is, when it is exactly one combination and nothing more; else null. */
export function exactCombination(cards: readonly StandardCard[]): Combination | null {
  const ranks = cards.map((card) => card[0]!);
  const distinct = new Set(ranks);
  if (cards.length === 2) {
    if (distinct.size === 1) return 'one_pair';
    return distinct.has('A') && distinct.has('K') ? 'ace_king' : null;
  }
  if (cards.length === 3) return distinct.size === 1 ? 'three_of_a_kind' : null;
  if (cards.length === 4) {
    if (distinct.size === 1) return 'four_of_a_kind';
    if (
      distinct.size === 2 &&
      [...distinct].every((r) => ranks.filter((x) => x === r).length === 2)
    )
      return 'two_pair';
    return null;
  }
  if (cards.length === 5) {
    const category = evaluate(cards).category;
    return ['straight', 'flush', 'full_house', 'straight_flush', 'royal_flush'].includes(category)
      ? category
      : null;
  }
  return null;
}

export function createRussianPokerEngine(
  ruleset: RussianPokerRuleset,
): GameEngine<DrawStudState, DrawStudOutcome> {
  const pays = (combination: Combination) => ruleset.betPays.table[combination];

  /** The main combination: the best five's category, ace-king for an ace-king high card. */
  function mainOf(hand: HandSummary): { combination: Combination; cards: StandardCard[] } {
    const cards = combinationCards(hand.best, hand.category);
    const combination: Combination =
      hand.category === 'high_card' && cards.length === 2 ? 'ace_king' : hand.category;
    return { combination, cards };
  }

  /**
   * 004: a second combination, paid too, must hold at least one card outside
   * the main one; on five cards it can only be ace-king. The best-paying one
   * is taken (the hand plays its best).
   */
  function secondOf(
    box: DrawBox,
    main: { cards: readonly StandardCard[] },
  ): { combination: Combination; cards: StandardCard[] } | null {
    if (!ruleset.secondCombination.offered) return null;
    const cards = box.cards;
    let best: { combination: Combination; cards: StandardCard[] } | null = null;
    for (let mask = 1; mask < 1 << cards.length; mask++) {
      const subset = cards.filter((_, i) => (mask >> i) & 1);
      if (subset.length < 2 || subset.length > 5) continue;
      if (subset.every((card) => main.cards.includes(card))) continue;
      const combination = exactCombination(subset);
      if (combination === null) continue;
      if (
        cards.length === 5 &&
        !(ruleset.secondCombination.onFiveCards as string[]).includes(combination)
      )
        continue;
      if (best === null || pays(combination) > pays(best.combination))
        best = { combination, cards: subset };
    }
    return best;
  }

  return createDrawStudEngine({
    game: 'russian-poker',
    name: ruleset.name,
    maxBoxes: ruleset.maxBoxes,
    playAction: 'bet',
    playAntes: ruleset.bet.antes,
    exchange: ruleset.draw.exchange,
    buySixth: ruleset.draw.buySixth,
    drawFee: ruleset.draw.fee,
    qualifier: ruleset.dealerQualifier,
    darkOffered: ruleset.darkBoxes.offered,
    insuranceFrom: ruleset.insurance?.from ?? null,
    insurancePays: ruleset.insurance?.pays ?? 0,
    buyDealerGame: ruleset.buyDealerGame,
    payoutLimit: ruleset.payoutLimit.amount,
    settle(box, hand, dealer, dealerQualifies) {
      // 004: the Ante is paid 1:1 only when the dealer has no game; the Bet is then returned.
      if (!dealerQualifies)
        return { result: 'dealer_not_qualified', ante: ruleset.ante.noGame, play: 0 };
      const result = versus(hand, dealer);
      if (result === 'win') {
        // 004: the Bet by the pay table, for the main combination and a second one.
        const main = mainOf(hand);
        const second = secondOf(box, main);
        const multiple = pays(main.combination) + (second ? pays(second.combination) : 0);
        return { result: 'win', ante: ruleset.ante.playerWins, play: ruleset.bet.antes * multiple };
      }
      // 004: equal hands are a stand off.
      if (result === 'tie')
        return {
          result: 'tie',
          ante: ruleset.tie.result,
          play: ruleset.tie.result * ruleset.bet.antes,
        };
      return { result: 'lose', ante: -1, play: -ruleset.bet.antes };
    },
    bonus() {
      return null;
    },
    combinations(box, hand) {
      const main = mainOf(hand);
      const second = secondOf(box, main);
      const list = main.cards.length > 0 ? [main] : [];
      return second ? [...list, second] : list;
    },
  });
}
