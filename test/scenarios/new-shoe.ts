/**
 * The start of a new shoe, for the scenarios that play one from its shuffle:
 * six decks and the one burn card for blackjack, eight decks and the
 * turn-and-burn (BURN_TWO: a 2 turned, two burnt) for Punto Banco and
 * baccarat; and the flow of a shoe, for the shoe-end scenarios.
 */
import type { DomainEvent } from '../../firmware-host/table/events.ts';
import type { TableLogRecord } from '../../firmware-host/table/log.ts';
import { BURN_TWO, card, shuffle } from '../unit/table/helpers.ts';

export function newBlackjackShoe(): TableLogRecord[] {
  return [shuffle(6), card('AS')]; // AS: the burn card
}

export function newPuntoBancoShoe(): TableLogRecord[] {
  return [shuffle(8), ...BURN_TWO];
}

/** The events but the cards, each alarm as its kind: what happened to the shoe, in order. */
export function shoeFlow(events: readonly DomainEvent[]): string[] {
  return events.filter((e) => e.type !== 'card').map((e) => (e.type === 'alarm' ? e.kind : e.type));
}
