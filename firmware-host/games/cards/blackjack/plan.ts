/**
 * The blackjack plan: whose card or decision is next, derived from the state
 * alone by `locate`, so there is one place where the flow of a round lives:
 *
 *   initial deal → insurance / even money round (when the dealer's first
 *   card allows it) → each box in order, each hand in order, plays →
 *   the dealer draws (as far as any bet still depends on it) → complete.
 *
 * A box awaiting a play decision reports `onCard: 'hit'`: a card drawn then
 * is that box's hit. During the insurance round `onCard` is `no_insurance`,
 * so a card drawn without asking is everyone declining and box 1 hitting.
 */
import { rankOf, type StandardCard } from '../../../../device-protocol/cards.ts';
import type { BlackjackRuleset } from '../../../engine/rulesets/schema.ts';
import type { Action, NextStep, Recipient } from '../../../engine/types.ts';
import {
  blackjackPoints,
  blackjackTotal,
  dealerMustDraw,
  isBlackjackPair,
  isTenValue,
} from './hand.ts';
import type { BlackjackBox, BlackjackHand, BlackjackState } from './state.ts';

type InitialCard = { to: Recipient; face: 'up' | 'down'; purpose: string };

export type Located =
  | ({ kind: 'initial' } & InitialCard)
  | { kind: 'insurance'; boxIndex: number; options: Action[] }
  | { kind: 'play'; boxIndex: number; handIndex: number; options: Action[] }
  | { kind: 'hand_card'; boxIndex: number; handIndex: number; purpose: string }
  | { kind: 'dealer_card'; purpose: string }
  | { kind: 'complete' };

/** The dealer takes a face-down second card before the boxes play. */
export function dealsHoleCard(rules: BlackjackRuleset): boolean {
  return rules.dealOrder === 'boxes_dealer_boxes_hole';
}

export function isNatural(hand: BlackjackHand): boolean {
  return !hand.fromSplit && isBlackjackPair(hand.cards);
}

function initialSequence(rules: BlackjackRuleset, state: BlackjackState): InitialCard[] {
  // One face-up card to each box from box 1 clockwise, one face up to the
  // dealer, a second card to each box (004; 003 § 15(4)); the hole card
  // only in the hole-card variant.
  const sequence: InitialCard[] = [];
  for (const { box } of state.boxes)
    sequence.push({ to: `box:${box}`, face: 'up', purpose: `box ${box} first card` });
  sequence.push({ to: 'dealer', face: 'up', purpose: 'dealer first card' });
  for (const { box } of state.boxes)
    sequence.push({ to: `box:${box}`, face: 'up', purpose: `box ${box} second card` });
  if (dealsHoleCard(rules))
    sequence.push({ to: 'dealer', face: 'down', purpose: 'dealer hole card' });
  return sequence;
}

export function insuranceOptions(
  rules: BlackjackRuleset,
  state: BlackjackState,
  box: BlackjackBox,
): Action[] {
  const up = state.dealer[0];
  if (!up) return [];
  const hand = box.hands[0]!;
  const upRank = rankOf(up);
  // Even money for a blackjack (004; 003 § 17), insurance for the others (004; 003 § 18).
  if (isNatural(hand)) {
    return rules.evenMoney?.on.includes(upRank) ? ['even_money', 'no_insurance'] : [];
  }
  return rules.insurance?.on.includes(upRank) ? ['insurance', 'no_insurance'] : [];
}

/** A box that has not answered the insurance round and is offered it. */
export function awaitsInsurance(
  rules: BlackjackRuleset,
  state: BlackjackState,
  box: BlackjackBox,
): boolean {
  return box.insurance === null && insuranceOptions(rules, state, box).length > 0;
}

function handFinished(rules: BlackjackRuleset, hand: BlackjackHand): boolean {
  if (hand.hitPending) return false;
  if (hand.surrendered || hand.evenMoney || hand.stood) return true;
  if (hand.cards.length < 2) return false;
  if (hand.doubled) return hand.cards.length >= 3;
  const { total } = blackjackTotal(hand.cards);
  if (total > 21) return true;
  if (isNatural(hand)) return true;
  // A player's 21 takes no more cards (004).
  if (total === 21 && rules.standOn21.value) return true;
  // Split aces take one card each (004).
  if (hand.fromSplit && rules.split.aceOneCard && rankOf(hand.cards[0]!) === 'A') return true;
  return false;
}

function playOptions(
  rules: BlackjackRuleset,
  state: BlackjackState,
  box: BlackjackBox,
  hand: BlackjackHand,
): Action[] {
  const options: Action[] = ['hit', 'stand'];
  const two = hand.cards.length === 2;
  const { total } = blackjackTotal(hand.cards);
  // Double on the first two cards, one card only (003 § 20; 004); not on
  // blackjack or 21 at TDC (004); after a split where allowed (003 § 21(2)).
  if (
    two &&
    (!hand.fromSplit || rules.double.afterSplit) &&
    !(rules.double.on === 'any_two_not_21' && total === 21)
  ) {
    options.push('double');
  }
  // Split two cards of one rank or value (003 § 21(1); 004), up to the limit.
  if (two) {
    const [a, b] = hand.cards as [StandardCard, StandardCard];
    const same =
      rules.split.by === 'rank'
        ? rankOf(a) === rankOf(b)
        : blackjackPoints(a) === blackjackPoints(b);
    const underLimit = rules.split.maxSplits === null || box.splits < rules.split.maxSplits;
    const acesAgain = hand.fromSplit && rankOf(a) === 'A';
    if (same && underLimit && (!acesAgain || rules.split.resplitAces)) options.push('split');
  }
  // Surrender on the first two cards, not against an ace (004).
  const up = state.dealer[0];
  if (
    rules.surrender &&
    two &&
    box.splits === 0 &&
    up !== undefined &&
    (rules.surrender.againstAce || rankOf(up) !== 'A')
  ) {
    options.push('surrender');
  }
  return options;
}

/** Which bets still depend on the dealer's cards: drives how far the dealer draws. */
function dealerNeeds(state: BlackjackState): 'total' | 'second_card' | 'nothing' {
  const up = state.dealer[0];
  const upCouldBlackjack = up !== undefined && (rankOf(up) === 'A' || isTenValue(up));
  let pendingNatural = false;
  let insured = false;
  for (const box of state.boxes) {
    if (box.insurance === 'taken') insured = true;
    for (const hand of box.hands) {
      if (hand.surrendered || hand.evenMoney) continue;
      if (blackjackTotal(hand.cards).total > 21) continue;
      if (isNatural(hand)) {
        // A blackjack against a 2-9 is paid at once (004): it needs nothing more.
        if (upCouldBlackjack) pendingNatural = true;
        continue;
      }
      return 'total';
    }
  }
  return pendingNatural || insured ? 'second_card' : 'nothing';
}

/** Before play: the initial deal, then the insurance round. */
function locateBeforePlay(rules: BlackjackRuleset, state: BlackjackState): Located | undefined {
  const initial = initialSequence(rules, state)[state.initialDealt];
  if (initial) return { kind: 'initial', ...initial };
  const boxIndex = state.boxes.findIndex((box) => awaitsInsurance(rules, state, box));
  if (boxIndex < 0) return undefined;
  return {
    kind: 'insurance',
    boxIndex,
    options: insuranceOptions(rules, state, state.boxes[boxIndex]!),
  };
}

/** The boxes' play: the first unfinished hand, box by box, hand by hand. */
function locatePlay(rules: BlackjackRuleset, state: BlackjackState): Located | undefined {
  for (let boxIndex = 0; boxIndex < state.boxes.length; boxIndex++) {
    const box = state.boxes[boxIndex]!;
    for (let handIndex = 0; handIndex < box.hands.length; handIndex++) {
      const hand = box.hands[handIndex]!;
      if (handFinished(rules, hand)) continue;
      const card = (why: string): Located => ({
        kind: 'hand_card',
        boxIndex,
        handIndex,
        purpose: `box ${box.box}${handLabel(box, handIndex)} ${why}`,
      });
      if (hand.hitPending) return card('hit');
      if (hand.cards.length < 2) return card('second card after the split');
      if (hand.doubled) return card('double card');
      return { kind: 'play', boxIndex, handIndex, options: playOptions(rules, state, box, hand) };
    }
  }
  return undefined;
}

/** After play: the dealer draws as far as any bet still depends on it. */
function locateDealer(rules: BlackjackRuleset, state: BlackjackState): Located {
  if (isBlackjackPair(state.dealer)) return { kind: 'complete' };
  const needs = dealerNeeds(state);
  if (needs === 'nothing') return { kind: 'complete' };
  if (state.dealer.length < 2) return { kind: 'dealer_card', purpose: 'dealer second card' };
  if (needs === 'total' && dealerMustDraw(state.dealer, rules.dealer.hitSoft17)) {
    return { kind: 'dealer_card', purpose: `dealer draws on ${describeTotal(state.dealer)}` };
  }
  return { kind: 'complete' };
}

export function locate(rules: BlackjackRuleset, state: BlackjackState): Located {
  const before = locateBeforePlay(rules, state);
  if (before) return before;
  // With a hole card the dealer's blackjack ends the round before any play (practice).
  const playSkipped = dealsHoleCard(rules) && isBlackjackPair(state.dealer);
  const play = playSkipped ? undefined : locatePlay(rules, state);
  return play ?? locateDealer(rules, state);
}

export function next(rules: BlackjackRuleset, state: BlackjackState): NextStep {
  const at = locate(rules, state);
  switch (at.kind) {
    case 'initial':
      return { kind: 'card', to: at.to, face: at.face, purpose: at.purpose };
    case 'insurance': {
      const box = state.boxes[at.boxIndex]!;
      return {
        kind: 'decision',
        seat: `box:${box.box}`,
        options: at.options,
        onCard: 'no_insurance',
        purpose: at.options.includes('even_money') ? 'even money?' : 'insurance?',
      };
    }
    case 'play': {
      const box = state.boxes[at.boxIndex]!;
      return {
        kind: 'decision',
        seat: `box:${box.box}`,
        hand: at.handIndex,
        options: at.options,
        onCard: 'hit',
        purpose: `box ${box.box}${handLabel(box, at.handIndex)} plays on ${describeTotal(box.hands[at.handIndex]!.cards)}`,
      };
    }
    case 'hand_card': {
      const box = state.boxes[at.boxIndex]!;
      return {
        kind: 'card',
        to: `box:${box.box}`,
        hand: at.handIndex,
        face: 'up',
        purpose: at.purpose,
      };
    }
    case 'dealer_card':
      return { kind: 'card', to: 'dealer', face: 'up', purpose: at.purpose };
    case 'complete':
      return { kind: 'complete' };
  }
}

function handLabel(box: BlackjackBox, handIndex: number): string {
  return box.hands.length > 1 ? ` hand ${handIndex + 1}` : '';
}

function describeTotal(cards: readonly StandardCard[]): string {
  const { total, soft } = blackjackTotal(cards);
  return `${soft ? 'soft ' : ''}${total}`;
}

export function describeStep(step: NextStep): string {
  if (step.kind === 'complete') return 'complete';
  if (step.kind === 'card')
    return `next card: ${step.to}${step.purpose ? ` (${step.purpose})` : ''}`;
  return `${step.seat} decides: ${step.options.join(', ')}`;
}
