/**
 * What the poker engines share: seating, the first deal round the table, the
 * step machinery of engines that locate where a round stands, decision
 * checks, hand summaries, qualifiers stated as a least hand, bet names and
 * the table payout limit. Pure.
 */
import type { Face, StandardCard } from '../../../../device-protocol/cards.ts';
import { EngineError } from '../../../engine/errors.ts';
import type { CategoryPays, DealerQualifier } from '../../../engine/rulesets/poker.ts';
import type {
  Action,
  Decision,
  NextStep,
  Recipient,
  RoundSetup,
  Seat,
} from '../../../engine/types.ts';
import { bestFive, evaluate, POKER_CATEGORIES, type PokerCategory } from './evaluator.ts';

/** Read once per question: main-game bets in Ante units, side bets in their own. */
export const UNITS_NOTE =
  'main-game bets (ante, flop, turn, river, call, raise, bet, fees) in units of the box Ante; bonus and insurance in units of their own stake';

/** Boxes in play from a setup: default `fallback`; unique whole numbers 1..max, ascending. */
export function seatBoxes(
  setup: RoundSetup,
  limits: {
    min: number;
    max: number;
    fallback: readonly number[];
    rulesetName: string;
    word?: string;
  },
): number[] {
  const word = limits.word ?? 'box';
  const words = word === 'box' ? 'boxes' : `${word}s`;
  const boxes = setup.boxes === undefined ? [...limits.fallback] : [...setup.boxes];
  if (boxes.length < limits.min) {
    throw new EngineError(
      'bad_setup',
      `${boxes.length} ${boxes.length === 1 ? word : words} in play: ${limits.rulesetName} needs at least ${limits.min}`,
    );
  }
  for (const box of boxes) {
    if (!Number.isInteger(box) || box < 1 || box > limits.max) {
      throw new EngineError(
        'bad_setup',
        `${word} ${box} does not exist: ${limits.rulesetName} has ${words} 1-${limits.max}`,
      );
    }
  }
  if (new Set(boxes).size !== boxes.length) {
    throw new EngineError('bad_setup', `a ${word} is listed twice in ${boxes.join(',')}`);
  }
  return boxes.sort((a, b) => a - b);
}

/** Dark boxes from a setup, checked against the boxes in play and the ruleset's offer. */
export function darkBoxes(
  setup: RoundSetup,
  boxes: readonly number[],
  offered: boolean,
  rulesetName: string,
): Set<number> {
  const dark = setup.dark ?? [];
  if (dark.length > 0 && !offered) {
    throw new EngineError(
      'bad_setup',
      `${rulesetName} has no dark boxes (asked for ${dark.join(',')})`,
    );
  }
  for (const box of dark) {
    if (!boxes.includes(box)) {
      throw new EngineError(
        'bad_setup',
        `dark box ${box} is not in play (boxes ${boxes.join(',')})`,
      );
    }
  }
  return new Set(dark);
}

/** Boxes playing the dealer: box 1 when none are named, up to the ruleset's maximum; the dark ones. */
export function seatAgainstDealer(
  setup: RoundSetup,
  table: { readonly maxBoxes: number; readonly name: string },
  darkOffered: boolean,
): { boxes: number[]; dark: Set<number> } {
  const boxes = seatBoxes(setup, {
    min: 1,
    max: table.maxBoxes,
    fallback: [1],
    rulesetName: table.name,
  });
  return { boxes, dark: darkBoxes(setup, boxes, darkOffered, table.name) };
}

export function boxSeat(box: number): Seat {
  return `box:${box}`;
}

/** Names a box's bets in an outcome: `betName(3)('ante')` is `box:3.ante`. */
export function betName(box: number): (bet: string) => string {
  return (bet) => `box:${box}.${bet}`;
}

export interface SeatedBox {
  readonly box: number;
}

export interface BoxesState<B extends SeatedBox = SeatedBox> {
  readonly boxes: readonly B[];
}

/** The state with the box at `index` changed. */
export function withBox<S extends BoxesState>(
  state: S,
  index: number,
  change: (box: S['boxes'][number]) => S['boxes'][number],
): S {
  return { ...state, boxes: state.boxes.map((box, i) => (i === index ? change(box) : box)) };
}

/**
 * Where a round stands: the card due (where it goes, and how it changes the
 * state), the decision of a box awaited (with what the game adds, `D`), or
 * the end of the round.
 */
export type Located<S, D = unknown> =
  | {
      kind: 'card';
      to: Recipient;
      face: Face;
      purpose: string;
      put: (state: S, card: StandardCard) => S;
    }
  | ({ kind: 'decision'; boxIndex: number; options: Action[] } & D)
  | { kind: 'complete' };

export type DecisionAt<S, D> = Extract<Located<S, D>, { kind: 'decision' }>;

/**
 * `next`, `deal` and `decide` of an engine whose `locate` says where the
 * round stands and whose decisions are the boxes' own, and the check that
 * the round is complete before its outcome. The game says what a decision
 * is for (`purpose`), how its errors name it (`phase`) and what it changes
 * (`apply`, called once the decision is legal).
 */
export function boxSteps<S extends BoxesState, D>(game: {
  locate(state: S): Located<S, D>;
  purpose(box: S['boxes'][number], at: DecisionAt<S, D>): string;
  phase(at: DecisionAt<S, D>): string;
  apply(state: S, at: DecisionAt<S, D>, decision: Decision): S;
}) {
  function next(state: S): NextStep {
    const at = game.locate(state);
    if (at.kind === 'card') return { kind: 'card', to: at.to, face: at.face, purpose: at.purpose };
    if (at.kind === 'complete') return { kind: 'complete' };
    const decision = at as DecisionAt<S, D>;
    const box = state.boxes[decision.boxIndex]!;
    return {
      kind: 'decision',
      seat: boxSeat(box.box),
      options: decision.options,
      purpose: game.purpose(box, decision),
    };
  }

  function deal(state: S, card: StandardCard): S {
    const at = game.locate(state);
    if (at.kind !== 'card') throw unexpectedCard(card, next(state));
    return at.put(state, card);
  }

  function decide(state: S, decision: Decision): S {
    const at = game.locate(state);
    if (at.kind !== 'decision') throw noDecisionAwaited(decision, next(state));
    const awaited = at as DecisionAt<S, D>;
    const box = state.boxes[awaited.boxIndex]!;
    expectLegal(decision, boxSeat(box.box), awaited.options, game.phase(awaited));
    return game.apply(state, awaited, decision);
  }

  function expectComplete(state: S): void {
    if (game.locate(state).kind !== 'complete') throw notComplete(next(state));
  }

  return { next, deal, decide, expectComplete };
}

export interface FirstDealState<B extends SeatedBox> extends BoxesState<B> {
  readonly dealer: readonly StandardCard[];
  /** Cards of the first deal dealt so far. */
  readonly initialDealt: number;
}

/**
 * The next card of the first deal: `passes` times round the table, one card
 * at a time, each box in order face down and the dealer last; undefined
 * once it is dealt. The game names the cards and says how a box takes one.
 */
export function firstDealStep<S extends FirstDealState<SeatedBox>>(
  state: S,
  passes: number,
  cards: {
    dealer(pass: number): { face: Face; purpose: string };
    box(box: S['boxes'][number], pass: number): string;
    put(box: S['boxes'][number], card: StandardCard): S['boxes'][number];
  },
): Located<S, never> | undefined {
  const n = state.boxes.length;
  const i = state.initialDealt;
  if (i >= passes * (n + 1)) return undefined;
  const pass = Math.floor(i / (n + 1));
  const within = i % (n + 1);
  const bump = { initialDealt: i + 1 };
  if (within === n) {
    return {
      kind: 'card',
      to: 'dealer',
      ...cards.dealer(pass),
      put: (s, card) => ({ ...s, ...bump, dealer: [...s.dealer, card] }),
    };
  }
  const box = state.boxes[within]!;
  return {
    kind: 'card',
    to: boxSeat(box.box),
    face: 'down',
    purpose: cards.box(box, pass),
    put: (s, card) => withBox({ ...s, ...bump }, within, (b) => cards.put(b, card)),
  };
}

/** Throws the EngineError naming who decides and what is legal, unless the decision is. */
export function expectLegal(
  decision: Decision,
  seat: Seat,
  options: readonly Action[],
  phase: string,
): void {
  if (decision.seat !== seat) {
    throw new EngineError(
      'illegal_decision',
      `${decision.seat} ${decision.action}: it is ${seat}'s turn (${phase}: ${options.join(', ')})`,
    );
  }
  if (!options.includes(decision.action)) {
    throw new EngineError(
      'illegal_decision',
      `${decision.seat} ${decision.action}: not legal now; ${seat} may ${options.join(', ')} (${phase})`,
    );
  }
}

export function describeStep(step: NextStep): string {
  if (step.kind === 'complete') return 'complete';
  if (step.kind === 'card')
    return `next card: ${step.to}${step.purpose ? ` (${step.purpose})` : ''}`;
  return `${step.seat} decides: ${step.options.join(', ')}${step.purpose ? ` (${step.purpose})` : ''}`;
}

/** The EngineError for a card that arrives while a decision is awaited or the round is over. */
export function unexpectedCard(card: StandardCard, step: NextStep): EngineError {
  if (step.kind === 'complete') {
    return new EngineError(
      'unexpected_card',
      `${card}: the round is complete, no card is due to anyone`,
    );
  }
  if (step.kind === 'decision') {
    return new EngineError(
      'unexpected_card',
      `${card}: ${step.seat} must decide first (${step.options.join(', ')})${step.onCard ? `; use dealInferred to take the card as ${step.onCard}` : ''}`,
    );
  }
  return new EngineError('unexpected_card', `${card}: no card is awaited`);
}

export function noDecisionAwaited(decision: Decision, step: NextStep): EngineError {
  const now =
    step.kind === 'complete'
      ? 'the round is complete'
      : step.kind === 'card'
        ? `the next card is for ${step.to}${step.purpose ? ` (${step.purpose})` : ''}`
        : `${step.seat} is deciding`;
  return new EngineError(
    'illegal_decision',
    `${decision.seat} ${decision.action}: no decision of that seat is awaited, ${now}`,
  );
}

export function notComplete(step: NextStep): EngineError {
  return new EngineError('not_complete', `the round is not complete: ${describeStep(step)}`);
}

export interface HandSummary {
  /** Every card the hand chose from. */
  readonly cards: readonly StandardCard[];
  readonly category: PokerCategory;
  /** Orders hands exactly: higher is better, equal is a tie. */
  readonly value: number;
  /** The five cards that make the hand. */
  readonly best: readonly StandardCard[];
}

/**
 * A hand as the table exposed it when it was collected face down (a fold, a
 * dealer nobody played against): its cards become their number, and what
 * they make (`derived`: rank, combinations) is withheld as null.
 */
export function collectedFaceDown<T extends { readonly cards: readonly unknown[] }>(
  hand: T,
  derived: readonly (keyof T & string)[],
): Record<string, unknown> {
  const shown: Record<string, unknown> = { ...hand, cards: hand.cards.length };
  for (const key of derived) shown[key] = null;
  return shown;
}

/** The best five of 5-7 cards, with what it chose from. */
export function summarise(cards: readonly StandardCard[]): HandSummary {
  const best = bestFive(cards);
  return { cards, category: best.hand.category, value: best.hand.value, best: best.cards };
}

/** Whether a hand is worth at least the qualifier's least hand. */
export function qualifies(hand: HandSummary, qualifier: DealerQualifier): boolean {
  return hand.value >= evaluate(qualifier.minimum as StandardCard[]).value;
}

export function payOf(table: CategoryPays, category: PokerCategory): number {
  return table[category];
}

export function compareValues(a: number, b: number): -1 | 0 | 1 {
  return a > b ? 1 : a < b ? -1 : 0;
}

/** A box's hand against the dealer's: the higher wins, equal hands tie. */
export function versus(hand: HandSummary, dealer: HandSummary): 'win' | 'lose' | 'tie' {
  const compared = compareValues(hand.value, dealer.value);
  return compared > 0 ? 'win' : compared < 0 ? 'lose' : 'tie';
}

/** The boxes whose result is a win, in box order. */
export function winnersOf(boxes: readonly { box: number; result: string }[]): number[] {
  return boxes.filter((b) => b.result === 'win').map((b) => b.box);
}

/** POKER_CATEGORIES runs from the royal flush down, so a better category has a lower index. */
export function categoryAtLeast(category: PokerCategory, least: PokerCategory): boolean {
  return POKER_CATEGORIES.indexOf(category) <= POKER_CATEGORIES.indexOf(least);
}

/** Rank value for comparisons: 2..14, the ace high. */
export function rankValue(card: StandardCard, aceLow = false): number {
  const rank = card[0]!;
  if (rank === 'A') return aceLow ? 1 : 14;
  if (rank === 'T') return 10;
  if (rank === 'J') return 11;
  if (rank === 'Q') return 12;
  if (rank === 'K') return 13;
  return Number(rank);
}

/**
 * The table maximum payout for one box (004): when the money won on the
 * capped bets passes `limit`, each winning capped bet is scaled down by the
 * same factor, so together they pay exactly `limit`. Results are in the
 * units of `unitStakes` (bet → money per unit of its result).
 */
export function capPayout(
  bets: Record<string, number>,
  capped: readonly string[],
  unitStakes: Readonly<Record<string, number>>,
  limit: number,
): CappedPayout {
  let won = 0;
  for (const bet of capped) {
    const result = bets[bet];
    const unit = unitStakes[bet];
    if (result !== undefined && unit !== undefined && result > 0) won += result * unit;
  }
  if (won <= limit) return { applied: false, won, factor: 1 };
  const factor = limit / won;
  for (const bet of capped) {
    const result = bets[bet];
    if (result !== undefined && result > 0) bets[bet] = result * factor;
  }
  return { applied: true, won, factor };
}

/** What the table maximum did to a box's winnings. */
export interface CappedPayout {
  readonly applied: boolean;
  readonly won: number;
  readonly factor: number;
}
