/**
 * The misdeal and void policy: what the ruleset says happens to a round (or
 * a box) when a card is found face up, leaves the shoe out of turn, a hand
 * holds the wrong number of cards, a dealer card is shown early, or a
 * supervisor voids the round; and the void itself. Pure.
 */
import type { StandardCard } from '../../../../device-protocol/cards.ts';
import type { Seat } from '../../../engine/types.ts';
import type { MisdealRecord } from '../../../table/log.ts';
import { afterRound, requireReshuffle } from './shoe-life.ts';
import {
  alarm,
  cardEvent,
  type Draft,
  describeStep,
  type HeldCard,
  roundDetail,
  seatName,
  TABLE_PRACTICE,
} from './state.ts';

/** Closes the round with a void; held cards go to the discard. `exhausted`: the shoe ends with it. */
export function voidRound(
  draft: Draft,
  boxes: number[] | 'all',
  reason: string,
  rule?: string,
  exhausted = false,
): void {
  const round = draft.round;
  if (!round) return;
  draft.events.push({
    type: 'hand_voided',
    reason,
    boxes,
    ...(rule ? { rule } : {}),
  });
  if (boxes !== 'all') {
    round.voided = [...new Set([...round.voided, ...boxes])].sort((a, b) => a - b);
    return;
  }
  discardHeld(draft);
  draft.round = undefined;
  afterRound(draft, false, exhausted);
}

export function discardHeld(draft: Draft): void {
  const round = draft.round;
  if (!round) return;
  for (const held of round.held) {
    draft.events.push({
      type: 'card',
      card: held.card,
      to: 'discard',
      back: held.back,
      face: 'down',
      index: held.index,
    });
  }
  round.held = [];
}

/**
 * A round still open when the next one begins ended short of cards: the
 * ruleset's wrong-card-count policy voids it (and may ask for a reshuffle).
 */
export function cutShortByNewRound(draft: Draft): void {
  const { ruleset, engine } = draft.config;
  const round = draft.round;
  if (!round) return;
  const step = engine.next(round.engine);
  alarm(
    draft,
    'wrong_card_count',
    `round ${round.number} was not complete (next: ${describeStep(step)}) when a new round began`,
    { round: round.number, rule: ruleset.misdeal.wrongCardCount.source },
  );
  const policy = ruleset.misdeal.wrongCardCount;
  voidRound(draft, 'all', `round ${round.number} ended short of cards`, policy.source);
  if (policy.reshuffle) requireReshuffle(draft, 'wrong number of cards', policy.source);
}

/** A card found face up in the shoe (000 § 14.a; 001 "Errores e infracciones" b). True when it is not used. */
export function faceUpFound(
  draft: Draft,
  card: StandardCard,
  back: string,
  index: number,
): boolean {
  const shoe = draft.shoe!;
  const policy = draft.config.ruleset.misdeal.faceUpInShoe;
  shoe.faceUp += 1;
  const second = shoe.faceUp > 1 && policy.moreThanOne === 'void_all';
  alarm(
    draft,
    'face_up_card',
    `${card} was found face up in the shoe${shoe.faceUp > 1 ? ` (${shoe.faceUp} this round)` : ''}: ${second ? 'all hands are void' : policy.one === 'use' ? 'it is used' : 'it goes to the discard, dealing goes on'}`,
    { index, card, count: shoe.faceUp, rule: policy.source, ...roundDetail(draft) },
  );
  if (!second && policy.one === 'use' && shoe.faceUp === 1) return false;
  cardEvent(draft, card, 'discard', back, 'up', index);
  if (second) {
    if (draft.round) {
      voidRound(draft, 'all', 'more than one card found face up in the shoe', policy.source);
    } else {
      draft.events.push({
        type: 'hand_voided',
        reason: 'more than one card found face up in the shoe',
        boxes: 'all',
        rule: policy.source,
      });
    }
    if (policy.reshuffle)
      requireReshuffle(draft, 'more than one card found face up', policy.source);
  }
  return true;
}

export function holdCard(draft: Draft, held: HeldCard, why: string): void {
  const round = draft.round!;
  const policy = draft.config.ruleset.misdeal.unexposedCardInError;
  if (policy.action === 'void_all') {
    alarm(draft, 'unexpected_card', `${held.card} left the shoe out of turn: ${why}`, {
      index: held.index,
      card: held.card,
      round: round.number,
      rule: policy.source,
    });
    cardEvent(draft, held.card, 'discard', held.back, 'down', held.index);
    voidRound(draft, 'all', `a card left the shoe out of turn`, policy.source);
    return;
  }
  alarm(
    draft,
    'unexpected_card',
    `${held.card} left the shoe out of turn: ${why}; it is used as the next card once one is due`,
    { index: held.index, card: held.card, round: round.number, rule: policy.source },
  );
  round.held = [...round.held, held];
}

export function onVoid(draft: Draft, reason: string): void {
  if (!draft.round) {
    alarm(draft, 'illegal_action', `void (${reason}): no round in progress`);
    return;
  }
  voidRound(draft, 'all', reason, TABLE_PRACTICE.supervisorVoid);
}

export function onMisdeal(draft: Draft, record: MisdealRecord): void {
  const { ruleset } = draft.config;
  const round = draft.round;
  const seat: Seat = record.box === undefined ? 'dealer' : `box:${record.box}`;
  if (record.kind === 'dealer_card_exposed') {
    const policy = ruleset.misdeal.dealerCardExposedEarly;
    // Nothing hidden to expose yet, or the dealer's cards are due: not a misdeal.
    if (policy.action === 'not_applicable' || !round || round.dealerDue) return;
    if (round.dealerCardsDown === 0) return;
    alarm(
      draft,
      'dealer_card_exposed',
      `a dealer card was shown before its time in round ${round.number}`,
      { round: round.number, rule: policy.source },
    );
    if (policy.action === 'void_all') {
      voidRound(draft, 'all', 'a dealer card was shown before its time', policy.source);
      if (policy.reshuffle) requireReshuffle(draft, 'a dealer card was shown early', policy.source);
    }
    return;
  }
  const policy = ruleset.misdeal.wrongCardCount;
  const held = record.cards === undefined ? '' : ` (holds ${record.cards})`;
  if (!round) {
    alarm(
      draft,
      'wrong_card_count',
      `${seatName(seat)} has the wrong number of cards${held}, reported with no round in progress: nothing to void`,
      { seat },
    );
    return;
  }
  const action = seat === 'dealer' ? policy.dealer : policy.box;
  const corrected =
    action === 'void_all_unless_correctable' && record.correctable === true && !round.dealerCardUp;
  alarm(
    draft,
    'wrong_card_count',
    `${seatName(seat)} has the wrong number of cards${held} in round ${round.number}: ${corrected ? 'corrected without changing the card sequence, play goes on' : action === 'void_box' ? `box ${record.box} is void` : 'all hands are void'}`,
    { seat, round: round.number, rule: policy.source, ...(corrected ? { corrected: true } : {}) },
  );
  if (corrected) return;
  if (action === 'void_box' && record.box !== undefined) {
    voidRound(
      draft,
      [record.box],
      `box ${record.box} has the wrong number of cards`,
      policy.source,
    );
    if (policy.reshuffle && draft.shoe) {
      draft.shoe.reshuffleAfterRound = `box ${record.box} had the wrong number of cards`;
    }
    return;
  }
  voidRound(draft, 'all', `${seatName(seat)} has the wrong number of cards`, policy.source);
  if (policy.reshuffle) requireReshuffle(draft, 'wrong number of cards', policy.source);
}
