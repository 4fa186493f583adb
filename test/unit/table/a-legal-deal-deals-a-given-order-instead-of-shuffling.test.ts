/**
 * `dealLegalSession({ order })`: the simulators deal their own shoes (stacked,
 * two-colour, what is left of one) through the scripted dealer, so the deal
 * takes the cards in the order given instead of shuffling, reports that order
 * as the shuffler's, and leaves a marker joker where the order has it.
 */
import { describe, expect, it } from 'vitest';
import { type CardCode, JOKER, standardDeck } from '../../../device-protocol/cards.ts';
import {
  dealLegalSession,
  seededRandom,
  shuffleCards,
} from '../../../firmware-host/games/cards/table/legal-deal.ts';
import { createEngine } from '../../../firmware-host/games/engines.ts';
import { getRuleset } from '../../../firmware-host/games/rulesets.ts';
import { sessionConfig, TableSession } from '../../../firmware-host/games/table-session.ts';
import type { TableLogRecord } from '../../../firmware-host/table/log.ts';
import { alarms } from './helpers.ts';

function dealtCards(records: readonly TableLogRecord[]): CardCode[] {
  return records.flatMap((record) => (record.t === 'card' ? [record.card] : []));
}

function decks(count: number): CardCode[] {
  return Array.from({ length: count }, () => standardDeck()).flat();
}

describe('a legal deal deals a given order instead of shuffling', () => {
  it('deals the order card by card, reports it as the shuffler order, and the table verifies it (tdc-blackjack)', () => {
    const ruleset = getRuleset('tdc-blackjack');
    const order = shuffleCards(decks(6), seededRandom(99));
    const deal = dealLegalSession({
      ruleset,
      engine: createEngine(ruleset),
      random: seededRandom(1),
      decks: 6,
      withOrder: true,
      order,
    });
    const shuffle = deal.records[0] as Extract<TableLogRecord, { t: 'shuffle' }>;
    expect(shuffle.order).toEqual(order);
    const dealt = dealtCards(deal.records);
    expect(dealt.length).toBeGreaterThan(200);
    expect(dealt).toEqual(order.slice(0, dealt.length));

    const session = new TableSession(sessionConfig(ruleset));
    const events = deal.records.flatMap((record) => session.apply(record));
    expect(alarms(events)).toEqual([]);
    expect(session.snapshot().shoe).toMatchObject({ shufflerOrder: 'verified' });
  });

  it('the same order deals the same cards whatever the seed of the dealer; a shuffle would not', () => {
    const ruleset = getRuleset('tdc-baccarat-no-commission');
    const order = shuffleCards(decks(8), seededRandom(7));
    const dealWith = (seed: number, given?: CardCode[]) =>
      dealtCards(
        dealLegalSession({
          ruleset,
          engine: createEngine(ruleset),
          random: seededRandom(seed),
          maxRoundsPerShoe: 10,
          ...(given ? { order: given } : {}),
        }).records,
      );
    expect(dealWith(1, order)).toEqual(dealWith(2, order));
    expect(dealWith(1)).not.toEqual(dealWith(2));
  });

  it('a joker in the order is the last-hand marker where it lies, and none is added (bulgaria-punto-banco, 003 § 24 item 5)', () => {
    const ruleset = getRuleset('bulgaria-punto-banco');
    const cards = shuffleCards(decks(4), seededRandom(5));
    const at = cards.length - 30;
    const order = [...cards.slice(0, at), JOKER, ...cards.slice(at)];
    const deal = dealLegalSession({
      ruleset,
      engine: createEngine(ruleset),
      random: seededRandom(3),
      decks: 4,
      withOrder: true,
      order,
    });
    const shuffle = deal.records[0] as Extract<TableLogRecord, { t: 'shuffle' }>;
    expect(shuffle.order).toEqual(cards); // the shuffler reports the cards; the marker comes after
    const dealt = dealtCards(deal.records);
    expect(dealt.filter((card) => card === JOKER)).toHaveLength(1);
    expect(dealt.indexOf(JOKER)).toBe(at);
    expect(dealt).toEqual(order.slice(0, dealt.length));

    const session = new TableSession(sessionConfig(ruleset));
    const events = deal.records.flatMap((record) => session.apply(record));
    expect(alarms(events)).toEqual([]);
    expect(events.at(-1)).toMatchObject({
      type: 'shoe_end',
      reason: 'last hand dealt after the marker',
    });
  });

  it('an order shorter than a shoe (what is left of one) deals a round from its top (peru-triple-shot)', () => {
    const ruleset = getRuleset('peru-triple-shot');
    const order = shuffleCards(standardDeck(), seededRandom(11)).slice(0, 40);
    const deal = dealLegalSession({
      ruleset,
      engine: createEngine(ruleset),
      random: seededRandom(4),
      decks: 1,
      boxes: [1],
      order,
    });
    const dealt = dealtCards(deal.records);
    expect(dealt.length).toBeGreaterThan(10);
    expect(dealt).toEqual(order.slice(0, dealt.length));
    expect(deal.exhausted).toEqual([]);
  });
});
