/**
 * What the table shows of its state: what the next card (or press) is for,
 * for the dealer's lights, and the JSON snapshot of the MQTT `state` topic.
 * Neither ever names a card still in the shoe. Pure.
 */
import type { Seat } from '../../../engine/types.ts';
import type { CardDestination } from '../../../table/events.ts';
import { burnPointBefore } from './plan.ts';
import { type SessionConfig, type SessionState, seatName } from './state.ts';

export type Expectation =
  | { readonly kind: 'shuffle'; readonly text: string }
  | {
      readonly kind: 'burn';
      readonly text: string;
      readonly owed?: number;
      readonly point?: string;
    }
  | { readonly kind: 'round'; readonly text: string }
  | {
      readonly kind: 'card';
      readonly to: CardDestination;
      readonly hand?: number;
      readonly face: 'up' | 'down';
      readonly text: string;
      readonly purpose?: string;
    }
  | {
      readonly kind: 'decision';
      readonly seat: Seat;
      readonly hand?: number;
      readonly options: readonly string[];
      /** What a card drawn now stands for (a hit); absent where a card now is an alarm. */
      readonly onCard?: string;
      readonly text: string;
    };

function destinationName(to: string): string {
  return to.startsWith('box:') ? `box ${to.slice(4)}` : to;
}

/** What the next card (or press) is for: the dealer lights. Never names a card. */
export function expecting(config: SessionConfig, state: SessionState): Expectation {
  const shoe = state.shoe;
  if (!shoe) return { kind: 'shuffle', text: 'shuffle: no shoe in play' };
  if (shoe.ended !== undefined)
    return { kind: 'shuffle', text: `shoe ended (${shoe.ended}): shuffle` };
  if (shoe.burn) {
    return shoe.burn.turned
      ? { kind: 'burn', owed: shoe.burn.owed, text: `burn ${shoe.burn.owed} more` }
      : { kind: 'burn', text: 'burn: turn the first card' };
  }
  const round = state.round;
  if (!round && config.ruleset.shoeEnd.kind === 'reshuffle_every_round' && shoe.rounds > 0) {
    // A deck serves one round: a shuffle (and, with two decks, the other colour)
    // before every round (000 § 7, § 2.c.2; 001 "El juego" 4 Barajar: "en cada mano").
    // The deck is not ended here: a round started on it anyway is the alarm
    // `onRound` raises (deck_not_alternated, missing_shuffle).
    return {
      kind: 'shuffle',
      text: `deck used for round ${state.rounds}: shuffle (${config.ruleset.shoeEnd.source})`,
    };
  }
  if (!round) {
    const last = shoe.lastHand ? ` (last hand: ${Math.max(0, shoe.lastHand.coupsLeft)} more)` : '';
    return { kind: 'round', text: `start a round${last}` };
  }
  const step = config.engine.next(round.engine);
  if (step.kind === 'decision') {
    return {
      kind: 'decision',
      seat: step.seat,
      ...(step.hand === undefined ? {} : { hand: step.hand }),
      options: step.options,
      ...(step.onCard ? { onCard: step.onCard } : {}),
      text: `${seatName(step.seat)}: ${step.options.join(' or ')}`,
    };
  }
  if (step.kind === 'complete') return { kind: 'round', text: 'start a round' };
  const point = burnPointBefore(config.ruleset, round, step);
  if (point !== undefined) return { kind: 'burn', point, text: `burn before the ${point}` };
  const so_far = round.cards[step.to] ?? 0;
  const name = destinationName(step.to);
  const text =
    step.to === 'board' || step.to === 'burn'
      ? `${name} card ${so_far + 1}`
      : so_far >= 2
        ? `${name} draws`
        : `${name} card ${so_far + 1}`;
  return {
    kind: 'card',
    to: step.to,
    ...(step.hand === undefined ? {} : { hand: step.hand }),
    face: step.face,
    text,
    ...(step.purpose ? { purpose: step.purpose } : {}),
  };
}

/** The JSON view for the MQTT `state` topic: cards dealt, counts, round, next step. Never undealt cards. */
export function snapshot(config: SessionConfig, state: SessionState): Record<string, unknown> {
  const shoe = state.shoe;
  const round = state.round;
  return {
    ruleset: config.ruleset.name,
    game: config.ruleset.game,
    shoe: shoe
      ? {
          number: shoe.number,
          decks: shoe.decks,
          backs: [...shoe.backs],
          cards: shoe.size,
          dealt: shoe.dealt,
          remaining: shoe.left,
          rounds: shoe.rounds,
          lastHand: shoe.lastHand !== undefined,
          cutOut: shoe.cutOut,
          ended: shoe.ended ?? null,
          shufflerOrder: shoe.order ? (shoe.orderBroken ? 'mismatch' : 'verified') : 'none',
        }
      : null,
    round: round
      ? {
          number: round.number,
          ...(round.boxes ? { boxes: [...round.boxes] } : {}),
          table: config.engine.view(round.engine),
          voided: [...round.voided],
          waitingCards: round.held.length,
        }
      : null,
    rounds: state.rounds,
    expecting: expecting(config, state),
  };
}
