import { describe, expect, it } from 'vitest';
import { payoutWords } from '../../../firmware-host/games/cards/result-words.ts';
import {
  dealLegalSession,
  seededRandom,
} from '../../../firmware-host/games/cards/table/legal-deal.ts';
import { createEngine, exposedOutcome } from '../../../firmware-host/games/engines.ts';
import { allRulesetNames, gameOf, resultWordsOf } from '../../../firmware-host/games/registry.ts';
import { getRuleset } from '../../../firmware-host/games/rulesets.ts';
import type { DomainEvent } from '../../../firmware-host/table/events.ts';

const CARD_CODE = /\b[2-9TJQKA][SHDC]\b/g;

/** The result events of a few legal rounds of a card ruleset, dealt through its plug-in's session. */
function results(ruleset: string, seed: number): Extract<DomainEvent, { type: 'result' }>[] {
  const rules = getRuleset(ruleset);
  const deal = dealLegalSession({
    ruleset: rules,
    engine: createEngine(rules),
    random: seededRandom(seed),
    shoes: rules.shoeEnd.kind === 'reshuffle_every_round' ? 4 : 1,
    maxRoundsPerShoe: 4,
  });
  const session = gameOf(ruleset).openSession(ruleset, { autoRound: false });
  return deal.records.flatMap((record) =>
    session.apply(record).filter((event) => event.type === 'result'),
  );
}

/** The boxes an outcome settles, from its bets (`box:N.<bet>`). */
function boxesOf(outcome: Record<string, unknown>): number[] {
  const boxes = Object.keys((outcome.bets ?? {}) as object)
    .map((bet) => /^box:(\d+)\./.exec(bet)?.[1])
    .filter((box): box is string => box !== undefined)
    .map(Number);
  return [...new Set(boxes)];
}

describe("every ruleset's result reads as sentences naming each box, its hand and payout", () => {
  const cardRulesets = allRulesetNames().filter((name) => gameOf(name).id === 'cards');
  const rouletteRulesets = allRulesetNames().filter((name) => gameOf(name).id === 'roulette');

  it('covers the 13 shipped rulesets', () => {
    expect(cardRulesets.length + rouletteRulesets.length).toBe(13);
  });

  for (const ruleset of cardRulesets) {
    it(`${ruleset}: each box's sentence, no raw bet key, no card the table kept face down`, () => {
      const events = [...results(ruleset, 3), ...results(ruleset, 11)];
      expect(events.length).toBeGreaterThan(0);
      for (const event of events) {
        const words = resultWordsOf(event);
        expect(words, JSON.stringify(event.outcome)).toBeDefined();
        for (const line of words!) {
          expect(line).toMatch(/^[A-Z0-9].*\.$/);
          expect(line).not.toMatch(/box:\d|_/);
        }
        const text = words!.join(' ');
        for (const box of boxesOf(event.outcome)) {
          expect(text).toMatch(new RegExp(`Box(es)? (\\d+, )*${box}\\b`));
        }
        if (boxesOf(event.outcome).length === 0) expect(text).toMatch(/wins|tie/i);
        // Every card named is one the table exposed (the guard's view of the outcome).
        const exposed = new Set(JSON.stringify(exposedOutcome(event.outcome)).match(CARD_CODE));
        for (const card of text.match(CARD_CODE) ?? []) expect(exposed.has(card), card).toBe(true);
        // The same words whether a caller holds the journal's outcome or the screened one.
        expect(resultWordsOf({ ...event, outcome: exposedOutcome(event.outcome) })).toEqual(words);
      }
    });
  }

  for (const ruleset of rouletteRulesets) {
    it(`${ruleset}: a spin is its number and colour`, () => {
      expect(
        gameOf(ruleset).resultWords({ type: 'spin', game: 4, number: 17, colour: 'black' }),
      ).toEqual(['17 black.']);
      expect(
        gameOf(ruleset).resultWords({ type: 'spin', game: 5, number: 0, colour: 'green' }),
      ).toEqual(['0 green.']);
    });
  }

  it('words a blackjack box with its hand and what it paid', () => {
    const words = resultWordsOf({
      type: 'result',
      round: 2,
      outcome: {
        game: 'blackjack',
        dealer: { cards: ['TH', '7C'], total: 17, blackjack: false, bust: false },
        boxes: [
          {
            box: 1,
            insurance: null,
            hands: [{ cards: ['AS', 'KD'], total: 21, blackjack: true, bust: false, result: 1.5 }],
          },
          {
            box: 3,
            insurance: null,
            hands: [{ cards: ['9S', '8D'], total: 17, blackjack: false, bust: false, result: 0 }],
          },
        ],
        bets: { 'box:1.main': 1.5, 'box:3.main': 0 },
      },
    });
    expect(words).toEqual([
      'Dealer has 17 (TH 7C).',
      'Box 1 has blackjack (AS KD): wins 3 to 2.',
      'Box 3 has 17 (9S 8D): push.',
    ]);
  });

  it('says what a bet paid in words', () => {
    expect([2, 1, 0, -0.5, -1, -2].map(payoutWords)).toEqual([
      'wins 2 to 1',
      'wins 1 to 1',
      'push',
      'loses half',
      'loses',
      'loses 2 stakes',
    ]);
  });

  it('titles every ruleset in plain words (no quotation inside a title)', () => {
    for (const name of allRulesetNames()) expect(gameOf(name).ruleset(name).title).not.toMatch(/"/);
  });

  it('gives no words for an event that is no result', () => {
    expect(resultWordsOf({ type: 'round_start', round: 1 })).toBeUndefined();
  });
});
