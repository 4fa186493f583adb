/**
 * The blackjack engine (003 § 14-23; 004 Blackjack) as a state machine: the
 * state (state.ts), the plan deriving whose card or decision is next from it
 * (plan.ts), the transitions (transitions.ts) and the settlement (outcome.ts),
 * each a function of the rules and the state. `createBlackjackEngine` only
 * binds them to one ruleset as a GameEngine.
 */
import { EngineError } from '../../../engine/errors.ts';
import type { BlackjackRuleset } from '../../../engine/rulesets/schema.ts';
import type { GameEngine, RoundSetup } from '../../../engine/types.ts';
import { blackjackTotal } from './hand.ts';
import { outcome } from './outcome.ts';
import { dealsHoleCard, describeStep, next } from './plan.ts';
import { type BlackjackOutcome, type BlackjackState, NEW_HAND } from './state.ts';
import { deal, decide } from './transitions.ts';

export type {
  BlackjackBox,
  BlackjackHand,
  BlackjackHandOutcome,
  BlackjackOutcome,
  BlackjackState,
  InsuranceAnswer,
} from './state.ts';

/** Boxes in play from a setup: default box 1; unique whole numbers 1..max. */
export function boxesFromSetup(setup: RoundSetup, maxBoxes: number, rulesetName: string): number[] {
  const boxes = setup.boxes === undefined ? [1] : [...setup.boxes];
  if (boxes.length === 0)
    throw new EngineError('bad_setup', 'no boxes in play: a round needs at least one box');
  for (const box of boxes) {
    if (!Number.isInteger(box) || box < 1 || box > maxBoxes) {
      throw new EngineError(
        'bad_setup',
        `box ${box} does not exist: ${rulesetName} has boxes 1-${maxBoxes}`,
      );
    }
  }
  if (new Set(boxes).size !== boxes.length) {
    throw new EngineError('bad_setup', `a box is listed twice in ${boxes.join(',')}`);
  }
  return boxes.sort((a, b) => a - b);
}

/**
 * Games where every box plays its own hand have no dark boxes (RoundSetup.dark,
 * a Russian poker and TDC casino hold'em bet, 004): asking for one is an
 * error, never silently ignored, since a box played dark settles differently.
 */
export function refuseDarkBoxes(setup: RoundSetup, rulesetName: string): void {
  const dark = setup.dark ?? [];
  if (dark.length === 0) return;
  throw new EngineError(
    'bad_setup',
    `${rulesetName} has no dark boxes (asked for ${dark.join(',')}): only games that offer them (Russian poker, casino hold'em at TDC, 004) play a box dark`,
  );
}

export function createBlackjackEngine(
  ruleset: BlackjackRuleset,
): GameEngine<BlackjackState, BlackjackOutcome> {
  return {
    game: 'blackjack',
    // The hole card is turned when the dealer plays, after the boxes (000 § 9.b).
    dealerReveal: 'when_dealer_draws',
    start(setup) {
      refuseDarkBoxes(setup, ruleset.name);
      const boxes = boxesFromSetup(setup, ruleset.maxBoxes, ruleset.name);
      return {
        boxes: boxes.map((box) => ({ box, hands: [NEW_HAND], splits: 0, insurance: null })),
        dealer: [],
        initialDealt: 0,
      };
    },
    next: (state) => next(ruleset, state),
    deal: (state, card) => deal(ruleset, state, card),
    decide: (state, decision) => decide(ruleset, state, decision),
    outcome: (state) => outcome(ruleset, state),
    view: (state) => view(ruleset, state),
  };
}

/**
 * What displays and the retained MQTT state show. With a hole card, the
 * dealer's second card stays hidden while any box still plays.
 */
function view(ruleset: BlackjackRuleset, state: BlackjackState): Readonly<Record<string, unknown>> {
  const step = next(ruleset, state);
  const boxesPlaying =
    (step.kind === 'decision' && step.seat !== 'dealer') ||
    (step.kind === 'card' && step.to !== 'dealer');
  const hidden = dealsHoleCard(ruleset) && boxesPlaying && state.dealer.length > 1;
  const shown = hidden ? state.dealer.slice(0, 1) : state.dealer;
  return {
    game: 'blackjack',
    dealer: {
      cards: shown,
      total: blackjackTotal(shown).total,
      ...(hidden ? { hidden: state.dealer.length - 1 } : {}),
    },
    boxes: state.boxes.map((box) => ({
      box: box.box,
      insurance: box.insurance,
      hands: box.hands.map((hand) => ({
        cards: hand.cards,
        ...blackjackTotal(hand.cards),
        doubled: hand.doubled,
      })),
    })),
    next: describeStep(step),
  };
}
