import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type StandardCard, standardDeck } from '../../../device-protocol/cards.ts';
import { isEngineError } from '../../../firmware-host/engine/errors.ts';
import { dealInferred } from '../../../firmware-host/engine/round.ts';
import type { Ruleset } from '../../../firmware-host/engine/rulesets/schema.ts';
import type {
  Decision,
  GameEngine,
  NextStep,
  Outcome,
  RoundSetup,
} from '../../../firmware-host/engine/types.ts';
import { createEngine, GAMES } from '../../../firmware-host/games/engines.ts';
import { listRulesets } from '../../../firmware-host/games/rulesets.ts';

const ONE_DECK = standardDeck();
const TWO_DECKS = [...ONE_DECK, ...ONE_DECK];
/** Games dealt from one deck per round get one deck; the others two (enough for any round). */
const shoeFor = (ruleset: Ruleset) => (ruleset.decks.default === 1 ? ONE_DECK : TWO_DECKS);
const shuffled = (cards: readonly StandardCard[]) =>
  fc.shuffledSubarray([...cards], { minLength: cards.length, maxLength: cards.length });

function seatsOf(ruleset: Ruleset): number {
  if ('maxBoxes' in ruleset && typeof ruleset.maxBoxes === 'number') return ruleset.maxBoxes;
  if ('maxPositions' in ruleset && typeof ruleset.maxPositions === 'number')
    return ruleset.maxPositions;
  if ('maxPlayers' in ruleset && typeof ruleset.maxPlayers === 'number') return ruleset.maxPlayers;
  return 0;
}

/** Games where players play each other need two of them. */
function minimumSeats(ruleset: Ruleset): number {
  return 'maxPlayers' in ruleset ? 2 : 1;
}

interface Played {
  outcome: Outcome;
  cards: number;
  view: Readonly<Record<string, unknown>>;
}

/**
 * Plays one round with random legal decisions. A decision with `onCard` is
 * sometimes answered by a card instead (the table's inferred hit). Fails if
 * the engine throws, stalls, or offers a decision with no options.
 */
function playRandomly(
  ruleset: Ruleset,
  setup: RoundSetup,
  shoe: readonly StandardCard[],
  choices: readonly number[],
): Played {
  const engine = createEngine(ruleset);
  let state = engine.start(setup);
  let used = 0;
  let choice = 0;
  for (let step = 0; step < 400; step++) {
    const next = engine.next(state);
    if (next.kind === 'complete') {
      return { outcome: engine.outcome(state), cards: used, view: engine.view(state) };
    }
    if (next.kind === 'card') {
      const card = shoe[used++];
      if (card === undefined) throw new Error('ran out of cards');
      state = engine.deal(state, card);
      continue;
    }
    expect(next.options.length).toBeGreaterThan(0);
    const pick = choices[choice++ % choices.length] ?? 0;
    if (next.onCard && pick % 5 === 0) {
      state = dealInferred(engine, state, shoe[used++]!);
      continue;
    }
    state = decideSomething(engine, state, next, pick);
  }
  throw new Error('the round did not complete in 400 steps');
}

/**
 * Takes the picked option, or the next one that the engine accepts: some
 * option must be legal. Draw games' exchanges get a random set of positions
 * of each size in turn, since NextStep does not say how many.
 */
function decideSomething<S>(
  engine: GameEngine<S>,
  state: S,
  next: Extract<NextStep, { kind: 'decision' }>,
  pick: number,
): S {
  const errors: string[] = [];
  for (let offset = 0; offset < next.options.length; offset++) {
    const action = next.options[(pick + offset) % next.options.length]!;
    const base = {
      seat: next.seat,
      action,
      ...(next.hand === undefined ? {} : { hand: next.hand }),
    };
    const attempts: Decision[] =
      action === 'exchange'
        ? [1, 2, 3, 4, 5].map((size) => ({
            ...base,
            cards: [0, 1, 2, 3, 4, 5].slice(pick % 2, (pick % 2) + size),
          }))
        : [base];
    for (const decision of attempts) {
      try {
        return engine.decide(state, decision);
      } catch (error) {
        if (!isEngineError(error) || error.code !== 'illegal_decision') throw error;
        errors.push(error.message);
      }
    }
  }
  throw new Error(`no offered option was legal: ${errors.join('; ')}`);
}

const playable = listRulesets().filter((ruleset) => Object.hasOwn(GAMES, ruleset.game));

describe('every game engine, property tests', () => {
  it('has an engine for every ruleset of the baccarat family, blackjack and Triple Shot', () => {
    // The poker games join these properties as soon as they are in POKER_GAMES.
    const ours = listRulesets().filter((r) =>
      ['punto-banco', 'blackjack', 'triple-shot'].includes(r.game),
    );
    expect(ours.length).toBe(6);
    expect(
      ours.filter((ruleset) => !Object.hasOwn(GAMES, ruleset.game)).map((r) => r.name),
    ).toEqual([]);
  });

  for (const ruleset of playable) {
    it(`${ruleset.name}: no deal reaches a state with no legal next step, and every bet settles to a finite multiple`, () => {
      const seats = seatsOf(ruleset);
      const boxes =
        seats > 0
          ? fc.uniqueArray(fc.integer({ min: 1, max: seats }), {
              minLength: minimumSeats(ruleset),
              maxLength: seats,
            })
          : fc.constant(undefined);
      fc.assert(
        fc.property(
          shuffled(shoeFor(ruleset)),
          boxes,
          fc.array(fc.nat({ max: 1000 }), { minLength: 1, maxLength: 40 }),
          (shoe, boxList, choices) => {
            const setup: RoundSetup = boxList ? { boxes: boxList } : {};
            const played = playRandomly(ruleset, setup, shoe, choices);
            expect(Object.keys(played.outcome.bets).length).toBeGreaterThan(0);
            for (const result of Object.values(played.outcome.bets)) {
              expect(Number.isFinite(result)).toBe(true);
            }
            expect(() => JSON.stringify(played.view)).not.toThrow();
            if (ruleset.game === 'punto-banco') {
              expect(played.cards).toBeGreaterThanOrEqual(4);
              expect(played.cards).toBeLessThanOrEqual(6);
            }
            if (ruleset.game === 'triple-shot') {
              // Six cards to every position and to the dealer (000 § 1.i).
              expect(played.cards).toBe(6 * (boxList?.length ?? 1) + 6);
            }
          },
        ),
        { numRuns: 300 },
      );
    });
  }

  it('is pure: the same cards and decisions give the same outcome', () => {
    for (const ruleset of playable) {
      fc.assert(
        fc.property(
          shuffled(shoeFor(ruleset)),
          fc.array(fc.nat({ max: 1000 }), { minLength: 1, maxLength: 20 }),
          (shoe, choices) => {
            const setup: RoundSetup = seatsOf(ruleset) > 0 ? { boxes: [1, 2] } : {};
            const first = playRandomly(ruleset, setup, shoe, choices);
            const second = playRandomly(ruleset, setup, shoe, choices);
            expect(second.outcome).toEqual(first.outcome);
          },
        ),
        { numRuns: 50 },
      );
    }
  });
});
