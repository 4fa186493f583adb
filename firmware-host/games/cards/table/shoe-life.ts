/**
 * The shoe's life: a new shoe and its burns, the cards left to deal, the
 * cut card and last-hand marker, and the end of the shoe (run out, cut card,
 * reshuffle). Pure.
 */
import {
  type CardCode,
  compositionKey,
  JOKER,
  type StandardCard,
  shoeComposition,
  shoeSize,
} from '../../../../device-protocol/cards.ts';
import type { Ruleset } from '../../../engine/rulesets/schema.ts';
import { startShoe } from '../../../table/anomaly.ts';
import type { ShuffleRecord } from '../../../table/log.ts';
import { burnCount } from '../baccarat/burn.ts';
import { cardEvent, type Draft, type Mutable, type ShoeState } from './state.ts';

/** What the shoe ending for want of cards says, in `shoe_end.reason`. */
export const SHOE_EXHAUSTED = 'shoe exhausted';

/** Where the ruleset has no word on a shoe running out (every shoe but the marker kind). */
const RUNS_OUT_PRACTICE = {
  coupNeeds: 1,
  source:
    'practice: a round starts while a card is left to deal; one the shoe cannot complete is void',
} as const;

export function exhaustionPolicy(ruleset: Ruleset): { coupNeeds: number; source: string } {
  const end = ruleset.shoeEnd;
  return end.kind === 'last_hand_marker' ? end.exhaustion : RUNS_OUT_PRACTICE;
}

/**
 * Cards the shoe can still deal: what is left of its set but the marker
 * jokers, and not the covered last card, which nobody is to see (003 § 24(1)).
 */
export function cardsToDeal(ruleset: Ruleset, shoe: ShoeState): number {
  const end = ruleset.shoeEnd;
  const markers = shoe.remaining.get(compositionKey(JOKER, shoe.backs[0] ?? '')) ?? 0;
  const covered = end.kind === 'last_hand_marker' && end.lastCardCovered ? 1 : 0;
  return Math.max(0, shoe.left - markers - covered);
}

function jokersIn(ruleset: Ruleset): number {
  const end = ruleset.shoeEnd;
  if (end.kind !== 'last_hand_marker' || end.marker !== 'joker') return 0;
  // 003 § 24(1): a second cut card covers the last card; both are jokers in the shoe.
  return end.lastCardCovered ? 2 : 1;
}

/** The shoe a shuffle brings into play, and its `shoe_start`. */
export function startNewShoe(draft: Draft, record: ShuffleRecord): void {
  const { ruleset, options } = draft.config;
  const spec = { decks: record.decks, backs: record.backs, jokers: jokersIn(ruleset) };
  const size = shoeSize(spec);
  draft.shoes += 1;
  draft.shoe = {
    number: draft.shoes,
    decks: record.decks,
    backs: record.backs,
    size,
    remaining: shoeComposition(spec),
    left: size,
    dealt: 0,
    order: record.order,
    orderPosition: 0,
    orderBroken: false,
    ended: undefined,
    burn: shoeStartBurn(ruleset),
    cutOut: false,
    lastHand: undefined,
    rounds: 0,
    roundsFinished: 0,
    faceUp: 0,
    reshuffleAfterRound: undefined,
    anomaly: startShoe(record.decks * record.backs.length, options.anomaly, draft.history),
  };
  draft.events.push({
    type: 'shoe_start',
    decks: record.decks,
    backs: [...record.backs],
    cards: size,
  });
}

/** Burns due at a new shoe: turn-and-burn (the turned card decides), or a fixed count. */
function shoeStartBurn(ruleset: Ruleset): ShoeState['burn'] {
  const burn = ruleset.burn;
  if (burn.kind === 'turn_and_burn') return { turned: false, owed: 0 };
  if (burn.kind !== 'fixed') return undefined;
  const count = burn.points.find((point) => point.before === 'new_shoe')?.count ?? 0;
  return count > 0 ? { turned: true, owed: count } : undefined;
}

export function burnAtShoeStart(
  draft: Draft,
  shoe: Mutable<ShoeState>,
  card: StandardCard,
  back: string,
  index: number,
): void {
  const burn = shoe.burn!;
  if (!burn.turned) {
    const policy = draft.config.ruleset.burn;
    const owed = burnCount(card, policy.kind === 'turn_and_burn' ? policy.tenValueBurns : 10);
    shoe.burn = { turned: true, owed };
    cardEvent(draft, card, 'burn', back, 'up', index);
    return;
  }
  const owed = burn.owed - 1;
  shoe.burn = owed > 0 ? { turned: true, owed } : undefined;
  const policy = draft.config.ruleset.burn;
  cardEvent(draft, card, 'burn', back, policy.kind === 'fixed' ? policy.face : 'down', index);
}

/** Takes a card out of the shoe's remaining set; false when the shoe has none of it left. */
export function consume(shoe: Mutable<ShoeState>, card: CardCode, back: string): boolean {
  const key = compositionKey(card, back);
  const count = shoe.remaining.get(key) ?? 0;
  if (count <= 0) return false;
  const remaining = new Map(shoe.remaining);
  remaining.set(key, count - 1);
  shoe.remaining = remaining;
  shoe.left -= 1;
  return true;
}

export function endShoe(draft: Draft, reason: string, rule?: string): void {
  const shoe = draft.shoe;
  if (!shoe || shoe.ended !== undefined) return;
  shoe.ended = reason;
  draft.events.push({ type: 'shoe_end', reason, ...(rule ? { rule } : {}) });
}

export function requireReshuffle(draft: Draft, reason: string, rule: string): void {
  draft.events.push({ type: 'reshuffle_required', reason, rule });
  endShoe(draft, `reshuffle required: ${reason}`, rule);
}

export function startLastHand(draft: Draft, reason: string): void {
  const shoe = draft.shoe!;
  const end = draft.config.ruleset.shoeEnd;
  const coupsAfter = end.kind === 'last_hand_marker' ? end.coupsAfter : 0;
  shoe.lastHand = { coupsLeft: coupsAfter };
  draft.events.push({ type: 'last_hand', reason, rule: end.source });
  if (!draft.round && coupsAfter === 0) endShoe(draft, 'last-hand marker out', end.source);
}

/**
 * Shoe bookkeeping once a round is over. `countsAfterMarker`: a coup begun
 * after the last-hand marker was finished (a voided coup is dealt again, so
 * it does not count). `exhausted`: the round was void for want of cards, so
 * the shoe ends, whatever else was due.
 */
export function afterRound(draft: Draft, countsAfterMarker: boolean, exhausted = false): void {
  const shoe = draft.shoe;
  if (!shoe) return;
  shoe.roundsFinished += 1;
  if (exhausted) {
    shoe.reshuffleAfterRound = undefined;
    endShoe(draft, SHOE_EXHAUSTED, exhaustionPolicy(draft.config.ruleset).source);
    return;
  }
  if (shoe.reshuffleAfterRound !== undefined) {
    const reason = shoe.reshuffleAfterRound;
    shoe.reshuffleAfterRound = undefined;
    requireReshuffle(draft, reason, draft.config.ruleset.misdeal.wrongCardCount.source);
    return;
  }
  const end = draft.config.ruleset.shoeEnd;
  if (shoe.cutOut) {
    endShoe(draft, 'cut card reached, the round in progress finished', end.source);
    return;
  }
  if (shoe.lastHand && (countsAfterMarker || shoe.lastHand.coupsLeft <= 0)) {
    const coupsLeft = shoe.lastHand.coupsLeft - (countsAfterMarker ? 1 : 0);
    shoe.lastHand = { coupsLeft };
    if (coupsLeft <= 0) endShoe(draft, 'last hand dealt after the marker', end.source);
  }
}
