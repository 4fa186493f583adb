/**
 * Triple Shot (000, Peru directive 004-2004): War, Blackjack and six-card
 * Poker on the same six cards per position. Positions are numbered 1-6
 * from the dealer's left, as boxes are in blackjack (box 1 "first base").
 *
 * Dealing, as read from 000 § 9:
 *   a. War: one card face up to each position, from the dealer's extreme
 *      right (the highest position) to the left, then one face up to the
 *      dealer; each position's War is settled against the dealer's card.
 *   b. Blackjack: the War card is the first blackjack card; a second card
 *      face up to each position from the dealer's extreme left, then the
 *      dealer's second card face down under the first. Insurance when the
 *      dealer's card is an ace, then each position plays from the dealer's
 *      left; only a pair of aces splits, once, one card each; six cards
 *      without busting are paid at once. The dealer then turns the hole card
 *      and draws to 16, stands on 17.
 *   c. Poker: each position's cards are completed face up to six, from the
 *      dealer's left, then the dealer's; best five of six against the
 *      dealer's, paid by the posted table.
 * Interpretations (the directive is silent): the dealer's War card is dealt
 * after the positions'; the dealer always plays its blackjack hand out (its
 * cards are its poker cards either way) and, a hand being six cards
 * (000 § 1.i), stops at six cards.
 */
import { rankIndex, rankOf, type StandardCard } from '../../../../device-protocol/cards.ts';
import { EngineError } from '../../../engine/errors.ts';
import type { TripleShotRuleset } from '../../../engine/rulesets/schema.ts';
import type {
  Action,
  Decision,
  GameEngine,
  NextStep,
  Outcome,
  RoundSetup,
} from '../../../engine/types.ts';
import { boxesFromSetup, refuseDarkBoxes } from '../blackjack/engine.ts';
import { blackjackTotal, dealerMustDraw, isBlackjackPair } from '../blackjack/hand.ts';
import { bestFive, type PokerCategory } from '../poker/evaluator.ts';

/** A hand is six cards (000 § 1.i). */
export const TRIPLE_SHOT_HAND_CARDS = 6;

export interface TripleShotHand {
  readonly cards: readonly StandardCard[];
  readonly fromSplit: boolean;
  readonly doubled: boolean;
  readonly stood: boolean;
  readonly hitPending: boolean;
}

export interface TripleShotPosition {
  readonly position: number;
  readonly hands: readonly TripleShotHand[];
  readonly insurance: 'taken' | 'declined' | null;
  /** Cards dealt in the poker phase to complete six. */
  readonly pokerCards: readonly StandardCard[];
}

export interface TripleShotState {
  readonly positions: readonly TripleShotPosition[];
  readonly dealer: readonly StandardCard[];
  /** Dealer cards dealt in the poker phase. */
  readonly dealerPokerCards: readonly StandardCard[];
  readonly initialDealt: number;
  readonly stakes: Readonly<Record<string, number>>;
}

export type ThreeWay = 'win' | 'tie' | 'lose';

export interface TripleShotOutcome extends Outcome {
  readonly game: 'triple-shot';
  readonly dealer: {
    readonly cards: readonly StandardCard[];
    readonly war: StandardCard;
    readonly blackjack: {
      readonly cards: readonly StandardCard[];
      readonly total: number;
      readonly blackjack: boolean;
      readonly bust: boolean;
    };
    readonly poker: { readonly category: PokerCategory; readonly best: readonly StandardCard[] };
  };
  readonly positions: readonly {
    readonly position: number;
    readonly cards: readonly StandardCard[];
    readonly war: ThreeWay;
    readonly blackjack: readonly {
      readonly cards: readonly StandardCard[];
      readonly total: number;
      readonly blackjack: boolean;
      readonly bust: boolean;
      readonly sixCards: boolean;
      readonly result: number;
    }[];
    readonly poker: {
      readonly category: PokerCategory;
      readonly best: readonly StandardCard[];
      readonly versusDealer: ThreeWay;
    };
    readonly bonus: boolean;
  }[];
  /** The aggregate payout limit (000 § 13), when the ruleset sets one. */
  readonly payoutLimit?: {
    readonly limit: number;
    /** SUM: the winnings before the limit, from the stakes given; null without stakes. */
    readonly sum: number | null;
    /** LIMIT / SUM when SUM exceeds LIMIT, else 1. */
    readonly factor: number;
    /** Results before the limit, where it changed them. */
    readonly unlimited: Readonly<Record<string, number>>;
  };
}

type Located =
  | { kind: 'initial'; to: NextStep & { kind: 'card' } }
  | { kind: 'insurance'; index: number }
  | { kind: 'play'; index: number; hand: number; options: Action[] }
  | { kind: 'hand_card'; index: number; hand: number; purpose: string }
  | { kind: 'dealer_card'; purpose: string }
  | { kind: 'poker_card'; index: number; purpose: string }
  | { kind: 'dealer_poker_card'; purpose: string }
  | { kind: 'complete' };

const NEW_HAND: TripleShotHand = {
  cards: [],
  fromSplit: false,
  doubled: false,
  stood: false,
  hitPending: false,
};

/** War ranks: A K Q J 10 ... 2, the ace high (000 § 3). */
function warRank(card: StandardCard): number {
  return rankOf(card) === 'A' ? 13 : rankIndex(card);
}

function positionCards(position: TripleShotPosition): StandardCard[] {
  // The War card, then the second card, then the rest in the order dealt to the hands.
  return [...position.hands.flatMap((hand) => hand.cards), ...position.pokerCards];
}

function dealerCardCount(state: TripleShotState): number {
  return state.dealer.length + state.dealerPokerCards.length;
}

/** The ruleset-derived settings every transition reads. */
export type TripleShotRules = TripleShotRuleset;

/** A natural is two cards making 21, never after a split (000 § 9.b). */
function isNatural(hand: TripleShotHand): boolean {
  return !hand.fromSplit && isBlackjackPair(hand.cards);
}

/** The fixed opening deal: War cards, then blackjack second cards (000 § 9.a-b). */
function initialSequence(state: TripleShotState): (NextStep & { kind: 'card' })[] {
  const descending = [...state.positions].reverse();
  const sequence: (NextStep & { kind: 'card' })[] = [];
  // War: from the dealer's extreme right, then the dealer (000 § 9.a).
  for (const { position } of descending) {
    sequence.push({
      kind: 'card',
      to: `box:${position}`,
      face: 'up',
      purpose: `position ${position} War card`,
    });
  }
  sequence.push({ kind: 'card', to: 'dealer', face: 'up', purpose: 'dealer War card' });
  // Blackjack second cards from the dealer's extreme left; the dealer's face down (000 § 9.b).
  for (const { position } of state.positions) {
    sequence.push({
      kind: 'card',
      to: `box:${position}`,
      face: 'up',
      purpose: `position ${position} second card`,
    });
  }
  sequence.push({
    kind: 'card',
    to: 'dealer',
    face: 'down',
    purpose: 'dealer second card, face down',
  });
  return sequence;
}

function positionCardCount(position: TripleShotPosition): number {
  return (
    position.hands.reduce((sum, hand) => sum + hand.cards.length, 0) + position.pokerCards.length
  );
}

function handFinished(position: TripleShotPosition, hand: TripleShotHand): boolean {
  if (hand.hitPending) return false;
  if (hand.stood) return true;
  if (hand.cards.length < 2) return false;
  if (hand.doubled) return hand.cards.length >= 3;
  const { total } = blackjackTotal(hand.cards);
  if (total >= 21 || isNatural(hand)) return true;
  // Split aces get one card each (000 § 9.b).
  if (hand.fromSplit) return true;
  // Six cards without busting: paid at once, and the hand is full (000 § 9.b; § 1.i).
  return positionCardCount(position) >= TRIPLE_SHOT_HAND_CARDS;
}

function playOptions(
  rules: TripleShotRules,
  position: TripleShotPosition,
  hand: TripleShotHand,
): Action[] {
  const bj = rules.blackjack;
  const options: Action[] = ['hit', 'stand'];
  if (hand.cards.length === 2 && !hand.fromSplit && bj.double.offered) options.push('double');
  // Only a pair of aces, once (000 § 9.b).
  if (
    bj.splitAces.offered &&
    position.hands.length === 1 &&
    hand.cards.length === 2 &&
    rankOf(hand.cards[0]!) === 'A' &&
    rankOf(hand.cards[1]!) === 'A'
  ) {
    options.push('split');
  }
  return options;
}

function insuranceOffered(rules: TripleShotRules, state: TripleShotState): boolean {
  const up = state.dealer[0];
  return up !== undefined && (rules.blackjack.insurance?.on.includes(rankOf(up)) ?? false);
}

/** The first blackjack hand still in play, and what it waits for: a card or a decision. */
function locatePlayerHand(rules: TripleShotRules, state: TripleShotState): Located | null {
  for (let index = 0; index < state.positions.length; index++) {
    const position = state.positions[index]!;
    for (let h = 0; h < position.hands.length; h++) {
      const hand = position.hands[h]!;
      if (handFinished(position, hand)) continue;
      const label = `position ${position.position}${position.hands.length > 1 ? ` hand ${h + 1}` : ''}`;
      if (hand.hitPending) return { kind: 'hand_card', index, hand: h, purpose: `${label} hit` };
      if (hand.cards.length < 2)
        return {
          kind: 'hand_card',
          index,
          hand: h,
          purpose: `${label} card after splitting aces`,
        };
      if (hand.doubled)
        return { kind: 'hand_card', index, hand: h, purpose: `${label} double card` };
      return { kind: 'play', index, hand: h, options: playOptions(rules, position, hand) };
    }
  }
  return null;
}

/** Poker: complete each position to six cards from the dealer's left, then the dealer (000 § 9.c). */
function locatePokerCard(state: TripleShotState): Located {
  for (let index = 0; index < state.positions.length; index++) {
    const position = state.positions[index]!;
    const count = positionCardCount(position);
    if (count < TRIPLE_SHOT_HAND_CARDS) {
      return {
        kind: 'poker_card',
        index,
        purpose: `position ${position.position} poker card ${count + 1} of 6`,
      };
    }
  }
  const dealerCount = dealerCardCount(state);
  if (dealerCount < TRIPLE_SHOT_HAND_CARDS) {
    return { kind: 'dealer_poker_card', purpose: `dealer poker card ${dealerCount + 1} of 6` };
  }
  return { kind: 'complete' };
}

/** The plan: whose card or decision is next, derived from the state alone. */
function locate(rules: TripleShotRules, state: TripleShotState): Located {
  const sequence = initialSequence(state);
  const initial = sequence[state.initialDealt];
  if (initial) return { kind: 'initial', to: initial };

  if (insuranceOffered(rules, state)) {
    const index = state.positions.findIndex((p) => p.insurance === null);
    if (index >= 0) return { kind: 'insurance', index };
  }

  const playerHand = locatePlayerHand(rules, state);
  if (playerHand) return playerHand;

  // The dealer turns its second card and plays its blackjack hand (000 § 9.b).
  if (
    state.dealer.length < TRIPLE_SHOT_HAND_CARDS &&
    !isBlackjackPair(state.dealer) &&
    dealerMustDraw(state.dealer, rules.blackjack.dealer.hitSoft17)
  ) {
    const { total, soft } = blackjackTotal(state.dealer);
    return {
      kind: 'dealer_card',
      purpose: `dealer blackjack draws on ${soft ? 'soft ' : ''}${total}`,
    };
  }
  return locatePokerCard(state);
}

function next(rules: TripleShotRules, state: TripleShotState): NextStep {
  const at = locate(rules, state);
  switch (at.kind) {
    case 'initial':
      return at.to;
    case 'insurance':
      return {
        kind: 'decision',
        seat: `box:${state.positions[at.index]!.position}`,
        options: ['insurance', 'no_insurance'],
        onCard: 'no_insurance',
        purpose: 'insurance?',
      };
    case 'play': {
      const position = state.positions[at.index]!;
      return {
        kind: 'decision',
        seat: `box:${position.position}`,
        hand: at.hand,
        options: at.options,
        onCard: 'hit',
        purpose: `position ${position.position} blackjack`,
      };
    }
    case 'hand_card':
      return {
        kind: 'card',
        to: `box:${state.positions[at.index]!.position}`,
        hand: at.hand,
        face: 'up',
        purpose: at.purpose,
      };
    case 'dealer_card':
    case 'dealer_poker_card':
      return { kind: 'card', to: 'dealer', face: 'up', purpose: at.purpose };
    case 'poker_card':
      return {
        kind: 'card',
        to: `box:${state.positions[at.index]!.position}`,
        face: 'up',
        purpose: at.purpose,
      };
    case 'complete':
      return { kind: 'complete' };
  }
}

/** One deck per round (000 § 2.c): a card seen twice is a foreign card, never a hand's. */
function refuseDuplicate(state: TripleShotState, card: StandardCard): void {
  const seen =
    state.dealer.includes(card) ||
    state.dealerPokerCards.includes(card) ||
    state.positions.some((p) => positionCards(p).includes(card));
  if (seen) {
    throw new EngineError(
      'duplicate_card',
      `${card} was already dealt this round: Triple Shot deals from one 52-card deck per round (000 § 2.c)`,
    );
  }
}

function dealInitial(
  state: TripleShotState,
  to: NextStep & { kind: 'card' },
  card: StandardCard,
): TripleShotState {
  const initialDealt = state.initialDealt + 1;
  if (to.to === 'dealer') return { ...state, dealer: [...state.dealer, card], initialDealt };
  const number = Number(to.to.slice(4));
  return {
    ...state,
    initialDealt,
    positions: state.positions.map((p) =>
      p.position === number
        ? withHand(p, 0, (hand) => ({ ...hand, cards: [...hand.cards, card] }))
        : p,
    ),
  };
}

/** Transition: the card the plan expects goes where the plan says. */
function deal(rules: TripleShotRules, state: TripleShotState, card: StandardCard): TripleShotState {
  refuseDuplicate(state, card);
  const at = locate(rules, state);
  switch (at.kind) {
    case 'initial':
      return dealInitial(state, at.to, card);
    case 'hand_card':
      return withPosition(state, at.index, (p) =>
        withHand(p, at.hand, (hand) => ({
          ...hand,
          cards: [...hand.cards, card],
          hitPending: false,
        })),
      );
    case 'dealer_card':
      return { ...state, dealer: [...state.dealer, card] };
    case 'poker_card':
      return withPosition(state, at.index, (p) => ({
        ...p,
        pokerCards: [...p.pokerCards, card],
      }));
    case 'dealer_poker_card':
      return { ...state, dealerPokerCards: [...state.dealerPokerCards, card] };
    case 'complete':
      throw new EngineError(
        'unexpected_card',
        `${card}: the round is complete, every hand has six cards; no card is due to anyone`,
      );
    default: {
      const step = next(rules, state) as Extract<NextStep, { kind: 'decision' }>;
      throw new EngineError(
        'unexpected_card',
        `${card}: ${step.seat} must decide first (${step.options.join(', ')})`,
      );
    }
  }
}

function decideInsurance(
  state: TripleShotState,
  index: number,
  decision: Decision,
): TripleShotState {
  // The dealer may close insurance for everyone still undecided.
  if (decision.seat === 'dealer' && decision.action === 'next') {
    return {
      ...state,
      positions: state.positions.map((p) =>
        p.insurance === null ? { ...p, insurance: 'declined' } : p,
      ),
    };
  }
  const seat = `box:${state.positions[index]!.position}`;
  check(decision, seat, ['insurance', 'no_insurance'], undefined);
  return withPosition(state, index, (p) => ({
    ...p,
    insurance: decision.action === 'insurance' ? 'taken' : 'declined',
  }));
}

function playAction(
  position: TripleShotPosition,
  hand: number,
  action: Action,
): TripleShotPosition {
  switch (action) {
    case 'hit':
      return withHand(position, hand, (h) => ({ ...h, hitPending: true }));
    case 'stand':
      return withHand(position, hand, (h) => ({ ...h, stood: true }));
    case 'double':
      return withHand(position, hand, (h) => ({ ...h, doubled: true }));
    case 'split': {
      const [first, second] = position.hands[0]!.cards as [StandardCard, StandardCard];
      return {
        ...position,
        hands: [
          { ...NEW_HAND, cards: [first], fromSplit: true },
          { ...NEW_HAND, cards: [second], fromSplit: true },
        ],
      };
    }
    default:
      return position;
  }
}

/** Transition: the decision the plan awaits, checked against the seat, hand and options. */
function decide(
  rules: TripleShotRules,
  state: TripleShotState,
  decision: Decision,
): TripleShotState {
  const at = locate(rules, state);
  if (at.kind === 'insurance') return decideInsurance(state, at.index, decision);
  if (at.kind !== 'play') {
    const step = next(rules, state);
    throw new EngineError(
      'illegal_decision',
      `${decision.seat} ${decision.action}: no decision is awaited (${step.kind === 'card' ? `next card: ${step.to}, ${step.purpose}` : 'the round is complete'})`,
    );
  }
  const seat = `box:${state.positions[at.index]!.position}`;
  check(decision, seat, at.options, at.hand);
  return withPosition(state, at.index, (p) => playAction(p, at.hand, decision.action));
}

type DealerOutcome = TripleShotOutcome['dealer'];
type PositionOutcome = TripleShotOutcome['positions'][number];
type BlackjackHandOutcome = PositionOutcome['blackjack'][number];

function threeWay(mine: number, theirs: number): ThreeWay {
  return mine > theirs ? 'win' : mine === theirs ? 'tie' : 'lose';
}

/** The dealer's hands, and its poker value that every position's poker bet meets. */
function dealerOutcome(state: TripleShotState): { dealer: DealerOutcome; pokerValue: number } {
  const total = blackjackTotal(state.dealer).total;
  const cards = [...state.dealer, ...state.dealerPokerCards];
  const poker = bestFive(cards);
  const dealer: DealerOutcome = {
    cards,
    war: state.dealer[0]!,
    blackjack: {
      cards: state.dealer,
      total,
      blackjack: isBlackjackPair(state.dealer),
      bust: total > 21,
    },
    poker: { category: poker.hand.category, best: poker.cards },
  };
  return { dealer, pokerValue: poker.hand.value };
}

/** War: the higher card wins 1:1, a tie loses half (000 § 9.a; § 11). */
function warBet(
  rules: TripleShotRules,
  position: TripleShotPosition,
  dealer: DealerOutcome,
): { war: ThreeWay; result: number } {
  const war = threeWay(warRank(position.hands[0]!.cards[0]!), warRank(dealer.war));
  const result = war === 'win' ? rules.war.win : war === 'tie' ? rules.war.tie : -1;
  return { war, result };
}

function blackjackHandBet(
  rules: TripleShotRules,
  hand: TripleShotHand,
  dealer: DealerOutcome,
): BlackjackHandOutcome {
  const bj = rules.blackjack;
  const { total } = blackjackTotal(hand.cards);
  const natural = isNatural(hand);
  const bust = total > 21;
  const sixCards = !bust && hand.cards.length >= TRIPLE_SHOT_HAND_CARDS;
  const stake = hand.doubled ? 2 : 1;
  const dealerBlackjack = dealer.blackjack.blackjack;
  const dealerTotal = dealer.blackjack.total;
  let result: number;
  if (bust) result = -stake;
  else if (sixCards)
    result = bj.sixCards; // paid at once (000 § 9.b; § 11)
  else if (natural)
    result = dealerBlackjack ? 0 : bj.blackjack; // 000 § 11: 3 a 2
  else if (dealerBlackjack) result = -stake;
  else if (dealer.blackjack.bust || total > dealerTotal) result = stake * bj.win;
  else if (total === dealerTotal) result = 0;
  else result = -stake;
  return { cards: hand.cards, total, blackjack: natural, bust, sixCards, result };
}

/** Poker: best five of six against the dealer's, paid by the table (000 § 9.c; § 10; § 11). */
function pokerBet(
  rules: TripleShotRules,
  cards: readonly StandardCard[],
  dealerPokerValue: number,
): { poker: PositionOutcome['poker']; result: number } {
  const mine = bestFive(cards);
  const versusDealer = threeWay(mine.hand.value, dealerPokerValue);
  const result =
    versusDealer === 'win'
      ? rules.poker.table[mine.hand.category]
      : versusDealer === 'tie'
        ? rules.poker.tie
        : -1;
  return { poker: { category: mine.hand.category, best: mine.cards, versusDealer }, result };
}

/** Settles one position's four bets, recording each result in `bets` in the order paid. */
function positionOutcome(
  rules: TripleShotRules,
  position: TripleShotPosition,
  dealer: DealerOutcome,
  dealerPokerValue: number,
  bets: Record<string, number>,
): PositionOutcome {
  const name = `box:${position.position}`;
  const cards = positionCards(position);
  const war = warBet(rules, position, dealer);
  bets[`${name}.war`] = war.result;

  const blackjack = position.hands.map((hand, h) => {
    const settled = blackjackHandBet(rules, hand, dealer);
    bets[h === 0 ? `${name}.blackjack` : `${name}.blackjack_split`] = settled.result;
    return settled;
  });
  const insurance = rules.blackjack.insurance;
  if (position.insurance === 'taken' && insurance) {
    bets[`${name}.insurance`] = dealer.blackjack.blackjack ? insurance.pays : -1; // 000 § 11: 2 a 1
  }

  const poker = pokerBet(rules, cards, dealerPokerValue);
  bets[`${name}.poker`] = poker.result;

  // Bonus: War and Blackjack won or tied, and Poker won (000 § 9.d; § 11).
  const blackjackHeld = blackjack.every((hand) => hand.result >= 0);
  const bonus = war.war !== 'lose' && blackjackHeld && poker.poker.versusDealer === 'win';
  bets[`${name}.bonus`] = bonus ? rules.bonus.pays : -1;

  return { position: position.position, cards, war: war.war, blackjack, poker: poker.poker, bonus };
}

/** The settlement of a complete round: every bet of every position, then the payout limit. */
function outcome(rules: TripleShotRules, state: TripleShotState): TripleShotOutcome {
  if (locate(rules, state).kind !== 'complete') {
    const step = next(rules, state);
    throw new EngineError(
      'not_complete',
      `the round is not complete: ${step.kind === 'card' ? `next card: ${step.to} (${step.purpose})` : step.kind === 'decision' ? `${step.seat} decides: ${step.options.join(', ')}` : ''}`,
    );
  }
  const { dealer, pokerValue } = dealerOutcome(state);
  const bets: Record<string, number> = {};
  const positions = state.positions.map((position) =>
    positionOutcome(rules, position, dealer, pokerValue, bets),
  );
  const result: TripleShotOutcome = { game: 'triple-shot', dealer, positions, bets };
  const limit = rules.payoutLimit.amount;
  if (limit === null) return result;
  return { ...result, ...applyPayoutLimit(bets, state.stakes, limit) };
}

function start(rules: TripleShotRules, setup: RoundSetup): TripleShotState {
  refuseDarkBoxes(setup, rules.name);
  const positions = boxesFromSetup(setup, rules.maxPositions, rules.name);
  const stakes = setup.stakes ?? {};
  for (const [bet, stake] of Object.entries(stakes)) {
    if (!Number.isFinite(stake) || stake < 0) {
      throw new EngineError(
        'bad_setup',
        `stake ${stake} for ${bet}: expected an amount of 0 or more`,
      );
    }
  }
  return {
    positions: positions.map((position) => ({
      position,
      hands: [NEW_HAND],
      insurance: null,
      pokerCards: [],
    })),
    dealer: [],
    dealerPokerCards: [],
    initialDealt: 0,
    stakes,
  };
}

function view(rules: TripleShotRules, state: TripleShotState): Readonly<Record<string, unknown>> {
  const phase = locate(rules, state).kind;
  const holeHidden =
    phase === 'initial' || phase === 'insurance' || phase === 'play' || phase === 'hand_card';
  return {
    game: 'triple-shot',
    // The dealer's second card is face down until the dealer plays (000 § 9.b).
    dealer: holeHidden
      ? { cards: state.dealer.slice(0, 1), hidden: Math.max(0, state.dealer.length - 1) }
      : { cards: [...state.dealer, ...state.dealerPokerCards] },
    positions: state.positions.map((p) => ({
      position: p.position,
      cards: positionCards(p),
      insurance: p.insurance,
    })),
  };
}

export function createTripleShotEngine(
  ruleset: TripleShotRuleset,
): GameEngine<TripleShotState, TripleShotOutcome> {
  return {
    game: 'triple-shot',
    // After the blackjack decisions every card is the dealer's play (000 § 9.b).
    dealerReveal: 'after_decisions',
    start: (setup) => start(ruleset, setup),
    next: (state) => next(ruleset, state),
    deal: (state, card) => deal(ruleset, state, card),
    decide: (state, decision) => decide(ruleset, state, decision),
    outcome: (state) => outcome(ruleset, state),
    view: (state) => view(ruleset, state),
  };
}

/**
 * 000 § 13: when the winnings of a round (SUM) exceed the table's LIMIT,
 * each winning is paid LIMIT / SUM of its unlimited amount. Amounts come
 * from the stakes; a bet without a stake counts as not placed.
 */
function applyPayoutLimit(
  bets: Record<string, number>,
  stakes: Readonly<Record<string, number>>,
  limit: number,
): Pick<TripleShotOutcome, 'bets' | 'payoutLimit'> {
  const stakeOf = (bet: string) =>
    stakes[bet] ??
    (bet.endsWith('.blackjack_split') ? stakes[bet.replace(/_split$/, '')] : undefined);
  const hasStakes = Object.keys(stakes).length > 0;
  let sum = 0;
  for (const [bet, result] of Object.entries(bets)) {
    if (result > 0) sum += result * (stakeOf(bet) ?? 0);
  }
  if (!hasStakes) return { bets, payoutLimit: { limit, sum: null, factor: 1, unlimited: {} } };
  if (sum <= limit) return { bets, payoutLimit: { limit, sum, factor: 1, unlimited: {} } };
  const factor = limit / sum;
  const limited: Record<string, number> = {};
  const unlimited: Record<string, number> = {};
  for (const [bet, result] of Object.entries(bets)) {
    if (result > 0 && (stakeOf(bet) ?? 0) > 0) {
      limited[bet] = result * factor;
      unlimited[bet] = result;
    } else limited[bet] = result;
  }
  return { bets: limited, payoutLimit: { limit, sum, factor, unlimited } };
}

function check(
  decision: Decision,
  seat: string,
  options: readonly Action[],
  hand: number | undefined,
): void {
  if (decision.seat !== seat) {
    throw new EngineError(
      'illegal_decision',
      `${decision.seat} ${decision.action}: it is ${seat}'s turn (${options.join(', ')})`,
    );
  }
  if (decision.hand !== undefined && hand !== undefined && decision.hand !== hand) {
    throw new EngineError(
      'illegal_decision',
      `${decision.seat} hand ${decision.hand + 1}: it is hand ${hand + 1}'s turn`,
    );
  }
  if (!options.includes(decision.action)) {
    throw new EngineError(
      'illegal_decision',
      `${decision.seat} ${decision.action}: not legal now; ${seat} may ${options.join(', ')}`,
    );
  }
}

function withPosition(
  state: TripleShotState,
  index: number,
  change: (position: TripleShotPosition) => TripleShotPosition,
): TripleShotState {
  return { ...state, positions: state.positions.map((p, i) => (i === index ? change(p) : p)) };
}

function withHand(
  position: TripleShotPosition,
  index: number,
  change: (hand: TripleShotHand) => TripleShotHand,
): TripleShotPosition {
  return {
    ...position,
    hands: position.hands.map((hand, i) => (i === index ? change(hand) : hand)),
  };
}
