/**
 * The blackjack transitions: a card dealt and a decision taken, each a pure
 * function of the rules and the state, checked against the plan (plan.ts).
 */
import type { StandardCard } from '../../../../device-protocol/cards.ts';
import { EngineError } from '../../../engine/errors.ts';
import type { BlackjackRuleset } from '../../../engine/rulesets/schema.ts';
import type { Action, Decision, NextStep, Seat } from '../../../engine/types.ts';
import { awaitsInsurance, type Located, locate, next } from './plan.ts';
import {
  type BlackjackBox,
  type BlackjackHand,
  type BlackjackState,
  type InsuranceAnswer,
  NEW_HAND,
} from './state.ts';

export function deal(
  rules: BlackjackRuleset,
  state: BlackjackState,
  card: StandardCard,
): BlackjackState {
  const at = locate(rules, state);
  switch (at.kind) {
    case 'initial': {
      const initialDealt = state.initialDealt + 1;
      if (at.to === 'dealer') return { ...state, dealer: [...state.dealer, card], initialDealt };
      const boxNumber = Number(at.to.slice(4));
      return {
        ...state,
        initialDealt,
        boxes: state.boxes.map((box) =>
          box.box === boxNumber
            ? withHand(box, 0, (hand) => ({ ...hand, cards: [...hand.cards, card] }))
            : box,
        ),
      };
    }
    case 'hand_card':
      return withBox(state, at.boxIndex, (box) =>
        withHand(box, at.handIndex, (hand) => ({
          ...hand,
          cards: [...hand.cards, card],
          hitPending: false,
        })),
      );
    case 'dealer_card':
      return { ...state, dealer: [...state.dealer, card] };
    case 'complete':
      throw new EngineError(
        'unexpected_card',
        `${card}: the round is complete, no card is due to anyone`,
      );
    default: {
      const step = next(rules, state) as Extract<NextStep, { kind: 'decision' }>;
      throw new EngineError(
        'unexpected_card',
        `${card}: ${step.seat} must decide first (${step.options.join(', ')}); use dealInferred to take a card as ${step.onCard}`,
      );
    }
  }
}

export function decide(
  rules: BlackjackRuleset,
  state: BlackjackState,
  decision: Decision,
): BlackjackState {
  const at = locate(rules, state);
  if (at.kind === 'insurance') return decideInsurance(rules, state, at, decision);
  if (at.kind === 'play') return decidePlay(state, at, decision);
  const step = next(rules, state);
  const now =
    step.kind === 'complete'
      ? 'the round is complete'
      : `the next card is for ${step.kind === 'card' ? `${step.to} (${step.purpose ?? ''})` : step.seat}`;
  throw new EngineError(
    'illegal_decision',
    `${decision.seat} ${decision.action}: no decision is awaited, ${now}`,
  );
}

function decideInsurance(
  rules: BlackjackRuleset,
  state: BlackjackState,
  at: Extract<Located, { kind: 'insurance' }>,
  decision: Decision,
): BlackjackState {
  // The dealer closing the insurance round declines it for every box still to answer.
  if (decision.seat === 'dealer' && decision.action === 'next') {
    return {
      ...state,
      boxes: state.boxes.map((box) =>
        awaitsInsurance(rules, state, box) ? { ...box, insurance: 'declined' } : box,
      ),
    };
  }
  const box = state.boxes[at.boxIndex]!;
  expectLegal(decision, `box:${box.box}`, undefined, at.options, 'insurance round');
  const answer: InsuranceAnswer =
    decision.action === 'insurance'
      ? 'taken'
      : decision.action === 'even_money'
        ? 'even_money'
        : 'declined';
  return withBox(state, at.boxIndex, (b) => ({
    ...(answer === 'even_money' ? withHand(b, 0, (hand) => ({ ...hand, evenMoney: true })) : b),
    insurance: answer,
  }));
}

function decidePlay(
  state: BlackjackState,
  at: Extract<Located, { kind: 'play' }>,
  decision: Decision,
): BlackjackState {
  const box = state.boxes[at.boxIndex]!;
  expectLegal(decision, `box:${box.box}`, at.handIndex, at.options, 'play');
  return withBox(state, at.boxIndex, (b) => {
    switch (decision.action) {
      case 'hit':
        return withHand(b, at.handIndex, (hand) => ({ ...hand, hitPending: true }));
      case 'stand':
        return withHand(b, at.handIndex, (hand) => ({ ...hand, stood: true }));
      case 'double':
        return withHand(b, at.handIndex, (hand) => ({ ...hand, doubled: true }));
      case 'surrender':
        return withHand(b, at.handIndex, (hand) => ({ ...hand, surrendered: true }));
      case 'split':
        return splitHand(b, at.handIndex);
      default:
        return b;
    }
  });
}

/** A pair becomes two hands of one card each, in place (003 § 21(1); 004). */
function splitHand(box: BlackjackBox, handIndex: number): BlackjackBox {
  const [first, second] = box.hands[handIndex]!.cards as [StandardCard, StandardCard];
  const split = (card: StandardCard): BlackjackHand => ({
    ...NEW_HAND,
    cards: [card],
    fromSplit: true,
  });
  const hands = [...box.hands];
  hands.splice(handIndex, 1, split(first), split(second));
  return { ...box, hands, splits: box.splits + 1 };
}

function expectLegal(
  decision: Decision,
  seat: Seat,
  hand: number | undefined,
  options: readonly Action[],
  phase: string,
): void {
  const where = `${seat}${hand === undefined || hand === 0 ? '' : ` hand ${hand + 1}`}`;
  if (decision.seat !== seat) {
    throw new EngineError(
      'illegal_decision',
      `${decision.seat} ${decision.action}: it is ${where}'s turn (${phase}: ${options.join(', ')})`,
    );
  }
  if (decision.hand !== undefined && hand !== undefined && decision.hand !== hand) {
    throw new EngineError(
      'illegal_decision',
      `${decision.seat} hand ${decision.hand + 1} ${decision.action}: it is ${where}'s turn`,
    );
  }
  if (!options.includes(decision.action)) {
    throw new EngineError(
      'illegal_decision',
      `${decision.seat} ${decision.action}: not legal now; ${where} may ${options.join(', ')}`,
    );
  }
}

function withBox(
  state: BlackjackState,
  index: number,
  change: (box: BlackjackBox) => BlackjackBox,
): BlackjackState {
  return { ...state, boxes: state.boxes.map((box, i) => (i === index ? change(box) : box)) };
}

function withHand(
  box: BlackjackBox,
  index: number,
  change: (hand: BlackjackHand) => BlackjackHand,
): BlackjackBox {
  return { ...box, hands: box.hands.map((hand, i) => (i === index ? change(hand) : hand)) };
}
