/**
 * The card table: validator + game engine, as a pure reducer
 * `(state, record) => { state, events }`. Every card that leaves the shoe
 * is checked against the shoe (composition, back colour, shuffler order),
 * the shoe's life (burns, cut card, last-hand marker, shoe end) and the
 * game's plan (the engine's next step), and the ruleset's misdeal policy is
 * applied. No I/O, no clock: timestamps travel in the records and are not
 * needed here. The same records always give the same events.
 *
 * This file composes the parts, in the order each record needs them:
 * `validator.ts` (is it legal), `shoe-life.ts` (the shoe), `plan.ts` (the
 * engine's plan), `misdeal.ts` (the misdeal and void policy); `view.ts` is
 * what the table shows of the state.
 */
import { JOKER } from '../../../../device-protocol/cards.ts';
import { closeShoe } from '../../../table/anomaly.ts';
import type { CardRecord, RoundRecord, ShuffleRecord, TableLogRecord } from '../../../table/log.ts';
import {
  cutShortByNewRound,
  faceUpFound,
  holdCard,
  onMisdeal,
  onVoid,
  voidRound,
} from './misdeal.ts';
import { dealToRound, onAction, startRound } from './plan.ts';
import {
  burnAtShoeStart,
  cardsToDeal,
  endShoe,
  exhaustionPolicy,
  SHOE_EXHAUSTED,
  startLastHand,
  startNewShoe,
} from './shoe-life.ts';
import {
  cardEvent,
  type Draft,
  type Reduction,
  type SessionConfig,
  type SessionState,
  TABLE_PRACTICE,
} from './state.ts';
import {
  cardWithoutRound,
  cardWithoutShoe,
  checkOrder,
  checkRoundStart,
  checkShuffle,
  refuseCardFromShoe,
  shoeForNewRound,
  watchForAnomaly,
} from './validator.ts';

/** Applies one (already validated) table-log record. Pure. */
export function reduce(
  config: SessionConfig,
  state: SessionState,
  record: TableLogRecord,
): Reduction {
  const draft: Draft = {
    config,
    shoes: state.shoes,
    rounds: state.rounds,
    shoe: state.shoe && { ...state.shoe },
    round: state.round && { ...state.round },
    lastColour: state.lastColour,
    history: state.history,
    events: [],
  };
  switch (record.t) {
    case 'shuffle':
      onShuffle(draft, record);
      break;
    case 'round':
      onRound(draft, record);
      break;
    case 'card':
      onCard(draft, record);
      break;
    case 'cut':
      onCut(draft);
      break;
    case 'action':
      onAction(draft, record);
      break;
    case 'void':
      onVoid(draft, record.reason);
      break;
    case 'misdeal':
      onMisdeal(draft, record);
      break;
  }
  checkExhaustion(draft);
  return {
    state: {
      shoes: draft.shoes,
      rounds: draft.rounds,
      shoe: draft.shoe,
      round: draft.round,
      lastColour: draft.lastColour,
      history: draft.history,
    },
    events: draft.events,
  };
}

/**
 * A shoe that cannot go on ends instead of waiting for a card that will
 * never come: the round in play, when its next step is a card and none is
 * left to deal (or waiting), is void; between rounds, with fewer cards left
 * than a round needs, no round starts.
 */
function checkExhaustion(draft: Draft): void {
  const shoe = draft.shoe;
  if (!shoe || shoe.ended !== undefined) return;
  const { ruleset, engine } = draft.config;
  const policy = exhaustionPolicy(ruleset);
  const left = cardsToDeal(ruleset, shoe);
  const round = draft.round;
  if (round) {
    if (left > 0 || round.held.length > 0 || engine.next(round.engine).kind !== 'card') return;
    voidRound(
      draft,
      'all',
      `the shoe ran out of cards before round ${round.number} was complete`,
      policy.source,
      true,
    );
    return;
  }
  if (shoe.burn ? left === 0 : left < policy.coupNeeds)
    endShoe(draft, SHOE_EXHAUSTED, policy.source);
}

function onShuffle(draft: Draft, record: ShuffleRecord): void {
  const { options } = draft.config;
  if (draft.round) {
    voidRound(
      draft,
      'all',
      `a new shuffle came before round ${draft.round.number} was complete`,
      TABLE_PRACTICE.shuffleMidRound,
    );
  }
  if (draft.shoe) {
    if (draft.shoe.ended === undefined) endShoe(draft, 'replaced by a new shuffle');
    draft.history = closeShoe(draft.shoe.anomaly, options.anomaly.history);
  }

  checkShuffle(draft, record);
  startNewShoe(draft, record);
}

function onRound(draft: Draft, record: RoundRecord): void {
  cutShortByNewRound(draft);
  const shoe = shoeForNewRound(draft);
  if (!shoe) return;
  checkRoundStart(draft, shoe);
  startRound(draft, shoe, record);
}

function onCard(draft: Draft, record: CardRecord): void {
  const { options, engine } = draft.config;
  const { card, back } = record;
  const shoe = draft.shoe;
  if (!shoe) {
    cardWithoutShoe(draft, record);
    return;
  }
  const index = shoe.dealt;
  shoe.dealt += 1;
  if (refuseCardFromShoe(draft, shoe, record, index)) return;

  if (card === JOKER) {
    cardEvent(draft, card, 'marker', back, record.face, index);
    if (shoe.lastHand === undefined) startLastHand(draft, 'last-hand marker out');
    return;
  }

  checkOrder(draft, shoe, card, index);
  watchForAnomaly(draft, shoe, card, index);

  if (record.face === 'up' && faceUpFound(draft, card, back, index)) return;

  if (shoe.burn) {
    burnAtShoeStart(draft, shoe, card, back, index);
    return;
  }

  if (!draft.round && options.autoRound && engine.seatsBoxes === false) {
    onRound(draft, { t: 'round' });
  }
  const round = draft.round;
  if (!round) {
    cardWithoutRound(draft, shoe, card, back, index);
    return;
  }
  if (round.held.length > 0) {
    // The cards already drawn early come first: this one waits behind them.
    holdCard(draft, { card, back, index }, 'an earlier card is still waiting for its place');
    return;
  }
  dealToRound(draft, { card, back, index });
}

function onCut(draft: Draft): void {
  const shoe = draft.shoe;
  if (!shoe || shoe.ended !== undefined) return;
  const end = draft.config.ruleset.shoeEnd;
  if (end.kind === 'cut_card') {
    if (!draft.round) {
      endShoe(draft, 'cut card reached', end.source);
    } else if (end.finishRound) {
      shoe.cutOut = true;
      draft.events.push({
        type: 'last_hand',
        reason: `cut card out: round ${draft.round.number} is the last of this shoe`,
        rule: end.source,
      });
    } else {
      voidRound(draft, 'all', 'cut card reached during the round', end.source);
      endShoe(draft, 'cut card reached', end.source);
    }
    return;
  }
  if (end.kind === 'last_hand_marker' && shoe.lastHand === undefined) {
    startLastHand(draft, 'last-hand marker out');
  }
}
