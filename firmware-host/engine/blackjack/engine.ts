/**
 * The blackjack engine (003 § 14-23; 004 Blackjack). The state records
 * cards and decisions only; whose card or decision is next is derived from
 * it by `locate`, so there is one place where the flow of a round lives:
 *
 *   initial deal → insurance / even money round (when the dealer's first
 *   card allows it) → each box in order, each hand in order, plays →
 *   the dealer draws (as far as any bet still depends on it) → complete.
 *
 * A box awaiting a play decision reports `onCard: 'hit'`: a card drawn then
 * is that box's hit. During the insurance round `onCard` is `no_insurance`,
 * so a card drawn without asking is everyone declining and box 1 hitting.
 */
import { rankOf, type StandardCard } from '../../../device-protocol/cards.ts';
import { EngineError } from '../errors.ts';
import type { BlackjackRuleset } from '../rulesets/schema.ts';
import type {
  Action,
  Decision,
  GameEngine,
  NextStep,
  Outcome,
  Recipient,
  RoundSetup,
  Seat,
} from '../types.ts';
import {
  blackjackPoints,
  blackjackTotal,
  dealerMustDraw,
  isBlackjackPair,
  isTenValue,
} from './hand.ts';

export interface BlackjackHand {
  readonly cards: readonly StandardCard[];
  readonly fromSplit: boolean;
  readonly doubled: boolean;
  readonly stood: boolean;
  readonly surrendered: boolean;
  readonly evenMoney: boolean;
  /** A hit was called and its card has not come yet. */
  readonly hitPending: boolean;
}

export type InsuranceAnswer = 'taken' | 'declined' | 'even_money';

export interface BlackjackBox {
  readonly box: number;
  readonly hands: readonly BlackjackHand[];
  readonly splits: number;
  readonly insurance: InsuranceAnswer | null;
}

export interface BlackjackState {
  readonly boxes: readonly BlackjackBox[];
  readonly dealer: readonly StandardCard[];
  /** Cards of the initial deal dealt so far. */
  readonly initialDealt: number;
}

export interface BlackjackHandOutcome {
  readonly cards: readonly StandardCard[];
  readonly total: number;
  readonly soft: boolean;
  readonly blackjack: boolean;
  readonly bust: boolean;
  readonly doubled: boolean;
  readonly surrendered: boolean;
  readonly evenMoney: boolean;
  /** The bet name in `bets`. */
  readonly bet: string;
  readonly result: number;
}

export interface BlackjackOutcome extends Outcome {
  readonly game: 'blackjack';
  readonly dealer: {
    readonly cards: readonly StandardCard[];
    readonly total: number;
    readonly blackjack: boolean;
    readonly bust: boolean;
  };
  readonly boxes: readonly {
    readonly box: number;
    readonly insurance: InsuranceAnswer | null;
    readonly hands: readonly BlackjackHandOutcome[];
  }[];
}

type Located =
  | { kind: 'initial'; to: Recipient; face: 'up' | 'down'; purpose: string }
  | { kind: 'insurance'; boxIndex: number; options: Action[] }
  | { kind: 'play'; boxIndex: number; handIndex: number; options: Action[] }
  | { kind: 'hand_card'; boxIndex: number; handIndex: number; purpose: string }
  | { kind: 'dealer_card'; purpose: string }
  | { kind: 'complete' };

const NEW_HAND: BlackjackHand = {
  cards: [],
  fromSplit: false,
  doubled: false,
  stood: false,
  surrendered: false,
  evenMoney: false,
  hitPending: false,
};

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
  const holeCard = ruleset.dealOrder === 'boxes_dealer_boxes_hole';

  function initialSequence(
    state: BlackjackState,
  ): { to: Recipient; face: 'up' | 'down'; purpose: string }[] {
    // One face-up card to each box from box 1 clockwise, one face up to the
    // dealer, a second card to each box (004; 003 § 15(4)); the hole card
    // only in the hole-card variant.
    const sequence: { to: Recipient; face: 'up' | 'down'; purpose: string }[] = [];
    for (const { box } of state.boxes)
      sequence.push({ to: `box:${box}`, face: 'up', purpose: `box ${box} first card` });
    sequence.push({ to: 'dealer', face: 'up', purpose: 'dealer first card' });
    for (const { box } of state.boxes)
      sequence.push({ to: `box:${box}`, face: 'up', purpose: `box ${box} second card` });
    if (holeCard) sequence.push({ to: 'dealer', face: 'down', purpose: 'dealer hole card' });
    return sequence;
  }

  const isNatural = (hand: BlackjackHand) => !hand.fromSplit && isBlackjackPair(hand.cards);
  const dealerUp = (state: BlackjackState) => state.dealer[0];

  function insuranceOptions(state: BlackjackState, box: BlackjackBox): Action[] {
    const up = dealerUp(state);
    if (!up) return [];
    const hand = box.hands[0]!;
    const upRank = rankOf(up);
    // Even money for a blackjack (004; 003 § 17), insurance for the others (004; 003 § 18).
    if (isNatural(hand)) {
      return ruleset.evenMoney?.on.includes(upRank) ? ['even_money', 'no_insurance'] : [];
    }
    return ruleset.insurance?.on.includes(upRank) ? ['insurance', 'no_insurance'] : [];
  }

  function handFinished(hand: BlackjackHand): boolean {
    if (hand.hitPending) return false;
    if (hand.surrendered || hand.evenMoney || hand.stood) return true;
    if (hand.cards.length < 2) return false;
    if (hand.doubled) return hand.cards.length >= 3;
    const { total } = blackjackTotal(hand.cards);
    if (total > 21) return true;
    if (isNatural(hand)) return true;
    // A player's 21 takes no more cards (004).
    if (total === 21 && ruleset.standOn21.value) return true;
    // Split aces take one card each (004).
    if (hand.fromSplit && ruleset.split.aceOneCard && rankOf(hand.cards[0]!) === 'A') return true;
    return false;
  }

  function playOptions(state: BlackjackState, box: BlackjackBox, hand: BlackjackHand): Action[] {
    const options: Action[] = ['hit', 'stand'];
    const two = hand.cards.length === 2;
    const { total } = blackjackTotal(hand.cards);
    // Double on the first two cards, one card only (003 § 20; 004); not on
    // blackjack or 21 at TDC (004); after a split where allowed (003 § 21(2)).
    if (
      two &&
      (!hand.fromSplit || ruleset.double.afterSplit) &&
      !(ruleset.double.on === 'any_two_not_21' && total === 21)
    ) {
      options.push('double');
    }
    // Split two cards of one rank or value (003 § 21(1); 004), up to the limit.
    if (two) {
      const [a, b] = hand.cards as [StandardCard, StandardCard];
      const same =
        ruleset.split.by === 'rank'
          ? rankOf(a) === rankOf(b)
          : blackjackPoints(a) === blackjackPoints(b);
      const underLimit = ruleset.split.maxSplits === null || box.splits < ruleset.split.maxSplits;
      const acesAgain = hand.fromSplit && rankOf(a) === 'A';
      if (same && underLimit && (!acesAgain || ruleset.split.resplitAces)) options.push('split');
    }
    // Surrender on the first two cards, not against an ace (004).
    const up = dealerUp(state);
    if (
      ruleset.surrender &&
      two &&
      box.splits === 0 &&
      up !== undefined &&
      (ruleset.surrender.againstAce || rankOf(up) !== 'A')
    ) {
      options.push('surrender');
    }
    return options;
  }

  /** Which bets still depend on the dealer's cards: drives how far the dealer draws. */
  function dealerNeeds(state: BlackjackState): 'total' | 'second_card' | 'nothing' {
    const up = dealerUp(state);
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

  function locate(state: BlackjackState): Located {
    const sequence = initialSequence(state);
    const initial = sequence[state.initialDealt];
    if (initial) return { kind: 'initial', ...initial };

    const insuranceBox = state.boxes.findIndex(
      (box) => box.insurance === null && insuranceOptions(state, box).length > 0,
    );
    if (insuranceBox >= 0) {
      return {
        kind: 'insurance',
        boxIndex: insuranceBox,
        options: insuranceOptions(state, state.boxes[insuranceBox]!),
      };
    }

    // With a hole card the dealer's blackjack ends the round before any play (practice).
    const dealerBlackjack = isBlackjackPair(state.dealer);
    if (!(holeCard && dealerBlackjack)) {
      for (let boxIndex = 0; boxIndex < state.boxes.length; boxIndex++) {
        const box = state.boxes[boxIndex]!;
        for (let handIndex = 0; handIndex < box.hands.length; handIndex++) {
          const hand = box.hands[handIndex]!;
          if (handFinished(hand)) continue;
          if (hand.hitPending) {
            return {
              kind: 'hand_card',
              boxIndex,
              handIndex,
              purpose: `box ${box.box}${handLabel(box, handIndex)} hit`,
            };
          }
          if (hand.cards.length < 2) {
            return {
              kind: 'hand_card',
              boxIndex,
              handIndex,
              purpose: `box ${box.box}${handLabel(box, handIndex)} second card after the split`,
            };
          }
          if (hand.doubled) {
            return {
              kind: 'hand_card',
              boxIndex,
              handIndex,
              purpose: `box ${box.box}${handLabel(box, handIndex)} double card`,
            };
          }
          return { kind: 'play', boxIndex, handIndex, options: playOptions(state, box, hand) };
        }
      }
    }

    if (dealerBlackjack) return { kind: 'complete' };
    const needs = dealerNeeds(state);
    if (needs === 'nothing') return { kind: 'complete' };
    if (state.dealer.length < 2) return { kind: 'dealer_card', purpose: 'dealer second card' };
    if (needs === 'total' && dealerMustDraw(state.dealer, ruleset.dealer.hitSoft17)) {
      const { total, soft } = blackjackTotal(state.dealer);
      return { kind: 'dealer_card', purpose: `dealer draws on ${soft ? 'soft ' : ''}${total}` };
    }
    return { kind: 'complete' };
  }

  function next(state: BlackjackState): NextStep {
    const at = locate(state);
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

  function deal(state: BlackjackState, card: StandardCard): BlackjackState {
    const at = locate(state);
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
        const step = next(state) as Extract<NextStep, { kind: 'decision' }>;
        throw new EngineError(
          'unexpected_card',
          `${card}: ${step.seat} must decide first (${step.options.join(', ')}); use dealInferred to take a card as ${step.onCard}`,
        );
      }
    }
  }

  function decide(state: BlackjackState, decision: Decision): BlackjackState {
    const at = locate(state);
    if (at.kind === 'insurance') {
      // The dealer closing the insurance round declines it for every box still to answer.
      if (decision.seat === 'dealer' && decision.action === 'next') {
        return {
          ...state,
          boxes: state.boxes.map((box) =>
            box.insurance === null && insuranceOptions(state, box).length > 0
              ? { ...box, insurance: 'declined' }
              : box,
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
    if (at.kind !== 'play') {
      const step = next(state);
      const now =
        step.kind === 'complete'
          ? 'the round is complete'
          : `the next card is for ${step.kind === 'card' ? `${step.to} (${step.purpose ?? ''})` : step.seat}`;
      throw new EngineError(
        'illegal_decision',
        `${decision.seat} ${decision.action}: no decision is awaited, ${now}`,
      );
    }
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
        case 'split': {
          const hand = b.hands[at.handIndex]!;
          const [first, second] = hand.cards as [StandardCard, StandardCard];
          const split = (card: StandardCard): BlackjackHand => ({
            ...NEW_HAND,
            cards: [card],
            fromSplit: true,
          });
          const hands = [...b.hands];
          hands.splice(at.handIndex, 1, split(first), split(second));
          return { ...b, hands, splits: b.splits + 1 };
        }
        default:
          return b;
      }
    });
  }

  function outcome(state: BlackjackState): BlackjackOutcome {
    if (locate(state).kind !== 'complete') {
      throw new EngineError(
        'not_complete',
        `the round is not complete: ${describeStep(next(state))}`,
      );
    }
    const dealerTotal = blackjackTotal(state.dealer).total;
    const dealerBlackjack = isBlackjackPair(state.dealer);
    const dealerBust = dealerTotal > 21;
    const bets: Record<string, number> = {};
    const boxes = state.boxes.map((box) => {
      const hands = box.hands.map((hand, handIndex): BlackjackHandOutcome => {
        const { total, soft } = blackjackTotal(hand.cards);
        const natural = isNatural(hand);
        const stake = hand.doubled ? 2 : 1;
        const bet = handIndex === 0 ? `box:${box.box}.main` : `box:${box.box}.split${handIndex}`;
        let result: number;
        if (hand.evenMoney)
          result = ruleset.payouts.win; // 004; 003 § 17
        else if (hand.surrendered)
          result = ruleset.surrender?.loses ?? -0.5; // 004
        else if (total > 21) result = -stake;
        else if (natural)
          result = dealerBlackjack ? 0 : ruleset.payouts.blackjack; // 003 § 16(1); 004
        else if (dealerBlackjack) {
          // No hole card: the dealer's blackjack takes all, or only the original stake.
          result = ruleset.dealerBlackjackTakes.value === 'all' ? -stake : handIndex === 0 ? -1 : 0;
        } else if (dealerBust || total > dealerTotal)
          result = stake * ruleset.payouts.win; // 003 § 19
        else if (total === dealerTotal)
          result = 0; // 003 § 19(2); 004 stand-off
        else result = -stake;
        bets[bet] = result;
        return {
          cards: hand.cards,
          total,
          soft,
          blackjack: natural,
          bust: total > 21,
          doubled: hand.doubled,
          surrendered: hand.surrendered,
          evenMoney: hand.evenMoney,
          bet,
          result,
        };
      });
      if (box.insurance === 'taken' && ruleset.insurance) {
        const second = state.dealer[1];
        const wins =
          ruleset.insurance.form === 'dealer_blackjack'
            ? dealerBlackjack
            : second !== undefined && isTenValue(second); // 003 § 18(2)
        bets[`box:${box.box}.insurance`] = wins ? ruleset.insurance.pays : -1;
      }
      return { box: box.box, insurance: box.insurance, hands };
    });
    return {
      game: 'blackjack',
      dealer: {
        cards: state.dealer,
        total: dealerTotal,
        blackjack: dealerBlackjack,
        bust: dealerBust,
      },
      boxes,
      bets,
    };
  }

  return {
    game: 'blackjack',
    start(setup) {
      refuseDarkBoxes(setup, ruleset.name);
      const boxes = boxesFromSetup(setup, ruleset.maxBoxes, ruleset.name);
      return {
        boxes: boxes.map((box) => ({ box, hands: [NEW_HAND], splits: 0, insurance: null })),
        dealer: [],
        initialDealt: 0,
      };
    },
    next,
    deal,
    decide,
    outcome,
    view(state) {
      // With a hole card, the dealer's second card stays hidden while any box
      // still plays: the view feeds displays and the retained MQTT state.
      const step = next(state);
      const boxesPlaying =
        (step.kind === 'decision' && step.seat !== 'dealer') ||
        (step.kind === 'card' && step.to !== 'dealer');
      const hidden = holeCard && boxesPlaying && state.dealer.length > 1;
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
        next: describeStep(next(state)),
      };
    },
  };
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

function handLabel(box: BlackjackBox, handIndex: number): string {
  return box.hands.length > 1 ? ` hand ${handIndex + 1}` : '';
}

function describeTotal(cards: readonly StandardCard[]): string {
  const { total, soft } = blackjackTotal(cards);
  return `${soft ? 'soft ' : ''}${total}`;
}

function describeStep(step: NextStep): string {
  if (step.kind === 'complete') return 'complete';
  if (step.kind === 'card')
    return `next card: ${step.to}${step.purpose ? ` (${step.purpose})` : ''}`;
  return `${step.seat} decides: ${step.options.join(', ')}`;
}
