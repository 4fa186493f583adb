import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type StandardCard, standardDeck } from '../../../../device-protocol/cards.ts';
import { dealInferred } from '../../../../firmware-host/engine/round.ts';
import type { Decision, Outcome, RoundSetup } from '../../../../firmware-host/engine/types.ts';
import { createEngine } from '../../../../firmware-host/games/engines.ts';
import { getRuleset } from '../../../../firmware-host/games/rulesets.ts';

const DECK = standardDeck();

interface Game {
  readonly ruleset: string;
  readonly seats: number;
  readonly minSeats: number;
  readonly dark: boolean;
  /** Positions for an exchange of a hand of `size` cards, from a random number. */
  readonly exchange?: (size: number, pick: number) => number[];
}

const GAMES: readonly Game[] = [
  { ruleset: 'spain-holdem-bonus', seats: 7, minSeats: 1, dark: false },
  { ruleset: 'tdc-casino-holdem', seats: 7, minSeats: 1, dark: true },
  {
    ruleset: 'bulgaria-caribbean-stud',
    seats: 7,
    minSeats: 1,
    dark: false,
    exchange: (size, pick) => [pick % size],
  },
  {
    ruleset: 'tdc-russian-poker',
    seats: 4,
    minSeats: 1,
    dark: true,
    exchange: (size, pick) => {
      const count = 2 + (pick % 4);
      return Array.from({ length: size }, (_, i) => i)
        .sort((a, b) => ((a * 7 + pick) % 11) - ((b * 7 + pick) % 11))
        .slice(0, count);
    },
  },
  { ruleset: 'bulgaria-seven-card-stud', seats: 7, minSeats: 2, dark: false },
];

/** Plays a round with random legal decisions from one shuffled deck; fails on a stall, a throw or no options. */
function playRandomly(
  game: Game,
  setup: RoundSetup,
  shoe: readonly StandardCard[],
  choices: readonly number[],
) {
  const engine = createEngine(getRuleset(game.ruleset));
  let state = engine.start(setup);
  let used = 0;
  let choice = 0;
  const draw = () => {
    const card = shoe[used++];
    if (card === undefined) throw new Error('one deck ran out');
    return card;
  };
  for (let step = 0; step < 500; step++) {
    const next = engine.next(state);
    if (next.kind === 'complete')
      return { outcome: engine.outcome(state) as Outcome, used, view: engine.view(state) };
    if (next.kind === 'card') {
      state = engine.deal(state, draw());
      continue;
    }
    expect(next.options.length).toBeGreaterThan(0);
    const pick = choices[choice++ % choices.length] ?? 0;
    if (next.onCard && pick % 5 === 0) {
      state = dealInferred(engine, state, draw());
      continue;
    }
    const action = next.options[pick % next.options.length]!;
    const view = engine.view(state) as { boxes?: { box: number; cards: number }[] };
    const size = view.boxes?.find((b) => `box:${b.box}` === next.seat)?.cards ?? 5;
    const decision: Decision = {
      seat: next.seat,
      action,
      ...(action === 'exchange' && game.exchange ? { cards: game.exchange(size, pick) } : {}),
    };
    state = engine.decide(state, decision);
  }
  throw new Error('the round did not complete in 500 steps');
}

describe('poker engines, property tests', () => {
  for (const game of GAMES) {
    it(`${game.ruleset}: any legal sequence of decisions and cards reaches complete with a well-formed outcome`, () => {
      const seats = fc.uniqueArray(fc.integer({ min: 1, max: game.seats }), {
        minLength: game.minSeats,
        maxLength: game.seats,
      });
      fc.assert(
        fc.property(
          fc.shuffledSubarray(DECK, { minLength: 52, maxLength: 52 }),
          seats,
          fc.array(fc.nat({ max: 1000 }), { minLength: 1, maxLength: 40 }),
          fc.array(fc.boolean(), { minLength: 7, maxLength: 7 }),
          (shoe, boxes, choices, darkFlags) => {
            const dark = game.dark ? boxes.filter((_, i) => darkFlags[i]) : [];
            const played = playRandomly(game, { boxes, dark }, shoe, choices);
            const { bets } = played.outcome;
            for (const result of Object.values(bets)) expect(Number.isFinite(result)).toBe(true);
            expect(() => JSON.stringify(played.view)).not.toThrow();
            expect(() => JSON.stringify(played.outcome)).not.toThrow();
            if (game.ruleset === 'bulgaria-seven-card-stud') {
              // Every player has a share, and the shares make the whole pot.
              const shares = boxes.map((box) => bets[`box:${box}.pot`]!);
              expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
              expect((played.outcome.winners as number[]).length).toBeGreaterThan(0);
            } else {
              // Every box settles its Ante; nothing else loses more than a bet's stake in Antes.
              for (const box of boxes) expect(bets[`box:${box}.ante`]).toBeDefined();
              for (const [bet, result] of Object.entries(bets)) {
                if (!/bonus|insurance/.test(bet)) expect(result).toBeGreaterThanOrEqual(-2);
              }
            }
          },
        ),
        { numRuns: 300 },
      );
    });
  }
});
