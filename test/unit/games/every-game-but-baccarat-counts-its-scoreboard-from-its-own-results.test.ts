import { describe, expect, it } from 'vitest';
import {
  dealLegalSession,
  seededRandom,
} from '../../../firmware-host/games/cards/table/legal-deal.ts';
import { createEngine, exposedOutcome } from '../../../firmware-host/games/engines.ts';
import type { HistoryRecord, Scoreboard } from '../../../firmware-host/games/game.ts';
import { allRulesetNames, gameOf } from '../../../firmware-host/games/registry.ts';
import { getRuleset } from '../../../firmware-host/games/rulesets.ts';
import { perHour } from '../../../firmware-host/games/scoreboard.ts';

const HOUR = 3_600_000;
const T0 = Date.parse('2026-12-07T10:00:00Z');

/** Event records, one a minute from T0 (the journal's times), as History hands them over. */
function records(events: Record<string, unknown>[], minutes = 1): HistoryRecord[] {
  return events.map((data, index) => ({
    seq: index + 1,
    ts: T0 + index * minutes * 60_000,
    kind: 'event',
    data,
    shown: data,
  }));
}

function boardOf(ruleset: string, fed: HistoryRecord[]): Scoreboard {
  const grouping = gameOf(ruleset).scoreboard(ruleset);
  expect(grouping, `${ruleset} has a scoreboard`).toBeDefined();
  for (const record of fed) grouping!.take(record);
  return grouping!.units().board;
}

function counts(board: Scoreboard, title: string): Record<string, number> {
  const tally = board.tallies.find((each) => each.title === title);
  expect(tally, `a tally "${title}" in ${JSON.stringify(board.tallies)}`).toBeDefined();
  return Object.fromEntries(tally!.rows.map((row) => [row.label, row.count]));
}

const hand = (total: number, result: number, more: object = {}) => ({
  cards: [],
  total,
  soft: false,
  blackjack: false,
  bust: total > 21,
  result,
  ...more,
});

function blackjackResult(round: number, dealer: object, results: number[]) {
  return {
    type: 'result',
    round,
    outcome: {
      game: 'blackjack',
      bets: {},
      dealer: { cards: [], total: 0, blackjack: false, bust: false, ...dealer },
      boxes: results.map((result, index) => ({
        box: index + 1,
        insurance: null,
        hands: [hand(18, result)],
      })),
    },
  };
}

describe("a game's scoreboard counts its own results (issue 35)", () => {
  it("blackjack: the dealer's outcomes, the boxes' hands, the last rounds and rounds per hour", () => {
    const board = boardOf(
      'tdc-blackjack',
      records([
        { type: 'round_start', round: 1 },
        blackjackResult(1, { total: 23, bust: true }, [1, 1]),
        blackjackResult(2, { total: 21, blackjack: true }, [-1, 0]),
        blackjackResult(3, { total: 19 }, [-1, 1]),
        blackjackResult(4, { total: 26, bust: true }, [1, 1.5]),
        // Another game's result (a journal from before a ruleset change) is not this board's.
        { type: 'result', round: 5, outcome: { game: 'punto-banco', bets: {}, winner: 'banker' } },
      ]),
    );
    expect(board.rounds).toBe(4);
    expect(board.unit).toBe('round');
    expect(counts(board, "Dealer's hands")).toMatchObject({
      Bust: 2,
      Blackjack: 1,
      '19': 1,
      '17': 0,
    });
    expect(counts(board, "Boxes' hands")).toEqual({ Win: 5, Push: 1, Lose: 2 });
    expect(board.tallies[0]!.of).toBe(4);
    expect(board.recent.map((result) => `${result.round} ${result.text}`)).toEqual([
      '4 Dealer has 26 bust.',
      '3 Dealer has 19.',
      '2 Dealer has blackjack.',
      '1 Dealer has 23 bust.',
    ]);
    // Results at minutes 1 to 4: three rounds in three minutes is 60 an hour.
    expect(board.perHour).toBe(60);
  });

  it('a banked poker game: the dealer qualifying, his hands and the boxes', () => {
    const result = (
      round: number,
      dealerQualifies: boolean | null,
      category: string | null,
      boxes: string[],
    ) => ({
      type: 'result',
      round,
      outcome: {
        game: 'casino-holdem',
        bets: {},
        board: [],
        qualifier: { description: 'pair of 4s', dealerQualifies },
        dealer: { hand: category ? { category, best: [] } : null },
        boxes: boxes.map((verdict, index) => ({ box: index + 1, result: verdict })),
      },
    });
    const board = boardOf(
      'tdc-casino-holdem',
      records([
        result(1, true, 'two_pair', ['win', 'lose']),
        result(2, false, 'high_card', ['dealer_not_qualified', 'fold']),
        result(3, true, 'two_pair', ['tie', 'win']),
        // Every box folded: the dealer's hand was never shown.
        result(4, null, null, ['fold', 'fold']),
      ]),
    );
    expect(counts(board, "Dealer's qualifying")).toEqual({ Qualifies: 2, 'Does not qualify': 1 });
    expect(counts(board, "Dealer's hands")).toEqual({
      'two pair': 2,
      'high card': 1,
      'not shown': 1,
    });
    expect(counts(board, 'Boxes')).toEqual({
      Win: 2,
      Tie: 1,
      Lose: 1,
      'Dealer not qualified': 1,
      Fold: 3,
    });
    expect(board.recent[2]!.text).toBe('Dealer has high card, does not qualify (pair of 4s).');
  });

  it("Triple Shot: each part of each box, and the dealer's poker hands", () => {
    const position = (number: number, war: string, blackjack: number, versus: string) => ({
      position: number,
      cards: [],
      war,
      blackjack: [
        { cards: [], total: 20, blackjack: false, bust: false, sixCards: false, result: blackjack },
      ],
      poker: { category: 'pair', best: [], versusDealer: versus },
      bonus: false,
    });
    const result = (round: number, positions: object[]) => ({
      type: 'result',
      round,
      outcome: {
        game: 'triple-shot',
        bets: {},
        dealer: {
          cards: [],
          war: '9H',
          blackjack: { cards: [], total: 22, blackjack: false, bust: true },
          poker: { category: 'flush', best: [] },
        },
        positions,
      },
    });
    const board = boardOf(
      'peru-triple-shot',
      records([
        result(1, [position(1, 'win', 1, 'lose'), position(2, 'lose', -1, 'win')]),
        result(2, [position(1, 'tie', 0, 'win')]),
      ]),
    );
    expect(counts(board, 'War')).toEqual({ Win: 1, Tie: 1, Lose: 1 });
    expect(counts(board, 'Blackjack hands')).toEqual({ Win: 1, Push: 1, Lose: 1 });
    expect(counts(board, 'Poker against the dealer')).toEqual({ Win: 2, Tie: 0, Lose: 1 });
    expect(counts(board, "Dealer's poker hands")).toEqual({ flush: 2 });
    expect(counts(board, 'Box 1')).toEqual({
      'War won': 1,
      'Blackjack won': 1,
      'Poker won': 1,
      Bonus: 0,
    });
    expect(board.tallies.find((tally) => tally.title === 'Box 1')!.of).toBe(2);
    expect(board.tallies.find((tally) => tally.title === 'Box 2')!.of).toBe(1);
    expect(board.recent[0]!.text).toBe('Dealer war 9H, blackjack 22 bust, poker flush.');
  });

  it('roulette: the last numbers in their colours, the even chances, the dozens, spins per hour', () => {
    const spin = (game: number, number: number, colour: string) => ({
      type: 'spin',
      game,
      number,
      colour,
    });
    const board = boardOf(
      'tdc-roulette',
      records(
        [
          spin(1, 17, 'black'),
          spin(2, 0, 'green'),
          { type: 'game_voided', game: 3, reason: 'no ball launch', rule: '003' },
          spin(4, 32, 'red'),
          spin(5, 3, 'red'),
        ],
        2,
      ),
    );
    expect(board.unit).toBe('spin');
    expect(board.rounds).toBe(4);
    expect(counts(board, 'Colours')).toEqual({ Red: 2, Black: 1, Zero: 1 });
    expect(counts(board, 'Odd or even')).toEqual({ Odd: 2, Even: 1 });
    expect(counts(board, 'Low or high')).toEqual({ '1-18': 2, '19-36': 1 });
    expect(counts(board, 'Dozens')).toEqual({ '1st 12': 1, '2nd 12': 1, '3rd 12': 1 });
    // A zero is a spin every even chance lost: shares are of all spins.
    expect(board.tallies.every((tally) => tally.of === 4)).toBe(true);
    expect(board.recent.map((result) => [result.text, result.mark])).toEqual([
      ['3', 'red'],
      ['32', 'red'],
      ['0', 'green'],
      ['17', 'black'],
    ]);
    // Spins at minutes 0, 2, 6 and 8: three intervals in eight minutes.
    expect(board.perHour).toBe(Math.round((3 * HOUR) / (8 * 60_000)));
  });

  it('baccarat counts none here: its scoreboard is its roads', () => {
    expect(gameOf('tdc-baccarat-no-commission').scoreboard('tdc-baccarat-no-commission')).toBe(
      undefined,
    );
    expect(gameOf('tdc-baccarat-no-commission').webViews('tdc-baccarat-no-commission')).toEqual({
      scoreboard: 'roads.js',
    });
  });

  it('no rate from fewer than two results or no time between them', () => {
    expect(perHour(undefined, undefined, 0)).toBe(null);
    expect(perHour(T0, T0, 1)).toBe(null);
    expect(perHour(T0, T0, 2)).toBe(null);
    expect(perHour(T0, T0 + HOUR, 31)).toBe(30);
  });

  for (const ruleset of allRulesetNames().filter(
    (name) => gameOf(name).id === 'cards' && getRuleset(name).game !== 'punto-banco',
  )) {
    it(`${ruleset}: every legal round dealt is one round of its board, each result in words a pit reads`, () => {
      const rules = getRuleset(ruleset);
      const deal = dealLegalSession({
        ruleset: rules,
        engine: createEngine(rules),
        random: seededRandom(5),
        shoes: rules.shoeEnd.kind === 'reshuffle_every_round' ? 6 : 1,
        maxRoundsPerShoe: 6,
      });
      const session = gameOf(ruleset).openSession(ruleset, { autoRound: false });
      const events = deal.records.flatMap((record) => session.apply(record));
      const results = events.filter((event) => event.type === 'result');
      expect(results.length).toBeGreaterThan(1);
      // As the console reads them: each outcome as the table exposed it.
      const shown = events.map((event) =>
        event.type === 'result'
          ? { ...event, outcome: exposedOutcome(event.outcome) }
          : (event as unknown as Record<string, unknown>),
      );
      const board = boardOf(ruleset, records(shown as Record<string, unknown>[]));
      expect(board.rounds).toBe(results.length);
      expect(board.recent.length).toBe(Math.min(results.length, 12));
      for (const result of board.recent) expect(result.text).not.toMatch(/undefined|NaN|_/);
      // Each latest result reads as one of the sentences the Table and History pages show for it.
      const words = new Map(
        shown
          .filter((event) => event.type === 'result')
          .map((event) => [Number(event.round), gameOf(ruleset).resultWords(event as never) ?? []]),
      );
      for (const result of board.recent) expect(words.get(result.round)).toContain(result.text);
      // The first tally counts each round once (the dealer's outcome or the winning hand).
      const first = board.tallies.find((tally) => tally.title !== "Dealer's qualifying")!;
      if (first.title !== 'War') {
        expect(first.rows.reduce((sum, row) => sum + row.count, 0)).toBe(results.length);
      }
    });
  }
});
