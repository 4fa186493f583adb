/**
 * What the poker engines share: seating, decision checks, hand summaries,
 * qualifiers stated as a least hand, and the table payout limit. Pure.
 */
import type { StandardCard } from '../../../device-protocol/cards.ts';
import { EngineError } from '../errors.ts';
import type { CategoryPays, DealerQualifier } from '../rulesets/poker.ts';
import type { Action, Decision, NextStep, RoundSetup, Seat } from '../types.ts';
import { bestFive, evaluate, type PokerCategory } from './evaluator.ts';

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

export function boxSeat(box: number): Seat {
  return `box:${box}`;
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

const CATEGORY_ORDER: readonly PokerCategory[] = [
  'high_card',
  'one_pair',
  'two_pair',
  'three_of_a_kind',
  'straight',
  'flush',
  'full_house',
  'four_of_a_kind',
  'straight_flush',
  'royal_flush',
];

export function categoryAtLeast(category: PokerCategory, least: PokerCategory): boolean {
  return CATEGORY_ORDER.indexOf(category) >= CATEGORY_ORDER.indexOf(least);
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
): { applied: boolean; won: number; factor: number } {
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
