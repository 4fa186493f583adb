/**
 * The engine's plan: a round started on the game's engine, each card routed
 * where the engine's next step says (with the ruleset's fixed burns before
 * it), cards drawn early held until one is due, decisions taken, and the
 * result once the engine says the round is complete. Pure.
 */
import { isEngineError } from '../../../engine/errors.ts';
import type { Ruleset } from '../../../engine/rulesets/schema.ts';
import type { Action, DealerReveal, NextStep, Seat } from '../../../engine/types.ts';
import type { ActionRecord, RoundRecord } from '../../../table/log.ts';
import { discardHeld, holdCard } from './misdeal.ts';
import { afterRound } from './shoe-life.ts';
import {
  alarm,
  cardEvent,
  type Draft,
  type HeldCard,
  type Mutable,
  type RoundState,
  type ShoeState,
  seatName,
} from './state.ts';

/** Starts the round on the game's engine (an engine that refuses the boxes or stakes is an alarm). */
export function startRound(draft: Draft, shoe: Mutable<ShoeState>, record: RoundRecord): void {
  const { engine } = draft.config;
  let engineState: unknown;
  try {
    engineState = engine.start({
      ...(record.boxes ? { boxes: record.boxes } : {}),
      ...(record.stakes ? { stakes: record.stakes } : {}),
    });
  } catch (error) {
    if (!isEngineError(error)) throw error;
    alarm(draft, 'illegal_action', `the round cannot start: ${error.message}`);
    return;
  }
  draft.rounds += 1;
  shoe.rounds += 1;
  shoe.faceUp = 0;
  draft.round = {
    number: draft.rounds,
    boxes: record.boxes,
    engine: engineState,
    afterMarker: shoe.lastHand !== undefined,
    voided: [],
    held: [],
    cards: {},
    decisions: 0,
    burns: {},
    engineBurns: false,
    dealerCardUp: false,
    dealerCardsDown: 0,
    dealerDue: false,
  };
  draft.events.push({
    type: 'round_start',
    round: draft.rounds,
    ...(record.boxes ? { boxes: [...record.boxes] } : {}),
  });
  settle(draft);
}

/**
 * Whether the dealer's hidden cards may be shown now, as the engine declares
 * (`dealerReveal`): once the boxes have played and the dealer plays its hand
 * (blackjack, Triple Shot after the blackjack decisions, 000 § 9.b); in the
 * poker games only at the showdown, when the round is complete (001
 * "Errores e infracciones" a).
 */
function dealerPlays(reveal: DealerReveal, round: RoundState, step: NextStep): boolean {
  if (round.decisions === 0 || step.kind === 'complete') return step.kind === 'complete';
  if (step.kind === 'decision') return step.seat === 'dealer';
  if (reveal === 'after_decisions') return true;
  return reveal === 'when_dealer_draws' && step.to === 'dealer';
}

/** Takes the result once the engine says the round is complete. */
export function settle(draft: Draft): void {
  const round = draft.round;
  if (!round) return;
  const { engine } = draft.config;
  const step = engine.next(round.engine);
  if (step.kind !== 'complete') {
    if (!round.dealerDue && dealerPlays(engine.dealerReveal ?? 'at_showdown', round, step)) {
      round.dealerDue = true;
    }
    return;
  }
  const outcome = engine.outcome(round.engine) as Record<string, unknown>;
  draft.events.push({
    type: 'result',
    round: round.number,
    outcome,
    ...(round.voided.length > 0 ? { voided: [...round.voided] } : {}),
  });
  discardHeld(draft);
  draft.round = undefined;
  afterRound(draft, round.afterMarker);
}

/** The fixed burn due before this card step, if any (001 "Desarrollo del juego": flop, turn, river). */
export function burnPointBefore(
  ruleset: Ruleset,
  round: RoundState,
  step: NextStep & { kind: 'card' },
): string | undefined {
  const policy = ruleset.burn;
  if (policy.kind !== 'fixed' || round.engineBurns) return undefined;
  const board = round.cards.board ?? 0;
  const dealtAny = Object.entries(round.cards).some(([to, count]) => to !== 'burn' && count > 0);
  const point = !dealtAny
    ? 'round'
    : step.to === 'board'
      ? board === 0
        ? 'flop'
        : board === 3
          ? 'turn'
          : board === 4
            ? 'river'
            : undefined
      : undefined;
  if (point === undefined) return undefined;
  const wanted = policy.points.find((p) => p.before === point)?.count ?? 0;
  return (round.burns[point] ?? 0) < wanted ? point : undefined;
}

/** Routes a card into the round: the engine's plan decides where it goes. */
export function dealToRound(draft: Draft, held: HeldCard): void {
  const { engine, ruleset } = draft.config;
  const round = draft.round!;
  let state = round.engine;
  let step = engine.next(state);
  // A card can stand for several decisions in a row (every box declining insurance, then a hit).
  while (step.kind === 'decision' && step.onCard) {
    state = engine.decide(state, {
      seat: step.seat,
      action: step.onCard,
      ...(step.hand === undefined ? {} : { hand: step.hand }),
    });
    round.decisions += 1;
    step = engine.next(state);
  }
  if (step.kind === 'decision') {
    round.engine = state;
    holdCard(
      draft,
      held,
      `${seatName(step.seat)} is deciding (${step.options.join(', ')})${step.purpose ? `: ${step.purpose}` : ''}`,
    );
    return;
  }
  if (step.kind === 'complete') {
    round.engine = state;
    settle(draft);
    return;
  }
  const point = burnPointBefore(ruleset, round, step);
  if (point !== undefined) {
    round.burns = { ...round.burns, [point]: (round.burns[point] ?? 0) + 1 };
    round.cards = { ...round.cards, burn: (round.cards.burn ?? 0) + 1 };
    const face = ruleset.burn.kind === 'fixed' ? ruleset.burn.face : 'down';
    cardEvent(draft, held.card, 'burn', held.back, face, held.index);
    return;
  }
  if (step.to === 'burn') round.engineBurns = true;
  round.engine = engine.deal(state, held.card);
  round.cards = { ...round.cards, [step.to]: (round.cards[step.to] ?? 0) + 1 };
  if (step.to === 'dealer' && step.face === 'up') round.dealerCardUp = true;
  if (step.to === 'dealer' && step.face === 'down') round.dealerCardsDown += 1;
  cardEvent(draft, held.card, step.to, held.back, step.face, held.index, step.hand);
  settle(draft);
}

/** Feeds held cards (drawn early) into the round as soon as cards are due again. */
export function drainHeld(draft: Draft): void {
  const { engine } = draft.config;
  for (;;) {
    const round = draft.round;
    if (!round || round.held.length === 0) return;
    const step = engine.next(round.engine);
    if (step.kind === 'complete') {
      settle(draft);
      return;
    }
    if (step.kind === 'decision' && !step.onCard) return;
    const [first, ...rest] = round.held;
    round.held = rest;
    dealToRound(draft, first!);
  }
}

export function onAction(draft: Draft, record: ActionRecord): void {
  const round = draft.round;
  const seat: Seat = record.box === undefined ? 'dealer' : `box:${record.box}`;
  if (!round) {
    alarm(draft, 'illegal_action', `${seatName(seat)} ${record.action}: no round in progress`, {
      seat,
      action: record.action,
    });
    return;
  }
  const { engine } = draft.config;
  try {
    round.engine = engine.decide(round.engine, {
      seat,
      action: record.action as Action,
      ...(record.cards ? { cards: record.cards } : {}),
    });
  } catch (error) {
    if (!isEngineError(error)) throw error;
    alarm(draft, 'illegal_action', `${seatName(seat)} ${record.action}: ${error.message}`, {
      seat,
      action: record.action,
      round: round.number,
    });
    return;
  }
  round.decisions += 1;
  settle(draft);
  drainHeld(draft);
}
