/**
 * A deck-per-round game's simulated deck holds the cards one planned legal
 * round takes. A dealer that seats the planned boxes and makes the planned
 * moves in order (a decision pressed, or a card drawn standing for it) takes
 * exactly those cards, and the table raises nothing: that is how the bench's
 * simulated dealer stays in step with its simulators. The plan can also
 * start with either colour, so a dealer taking over a table whose last deck
 * was red brings in the blue one (000 § 2.c.2).
 */
import { describe, expect, it } from 'vitest';
import type { LegalRound } from '../../../firmware-host/games/cards/simulated/legal-round.ts';
import {
  recipeFor,
  rulesetNames,
} from '../../../firmware-host/games/cards/simulated/legal-shoe.ts';
import { sessionConfig, TableSession } from '../../../firmware-host/games/table-session.ts';
import type { DomainEvent } from '../../../firmware-host/table/events.ts';
import { createMemoryPair } from '../../../hardware/transports/memory.ts';
import { BehaviourSet } from '../../../simulators/behaviours.ts';
import { SimulatedDevice } from '../../../simulators/device.ts';
import { planSession } from '../../../simulators/plan.ts';
import type { Step } from '../../../simulators/steps.ts';

const perRound = rulesetNames().filter((name) => recipeFor(name).shufflePerRound);

/** Deals each planned deck through a table session, making the planned moves. */
function replay(ruleset: string, seed: number) {
  const rounds: LegalRound[] = [];
  const steps = planSession({
    ruleset,
    seed,
    behaviours: new BehaviourSet(),
    rounds: 4,
    onRound: (round) => rounds.push(round),
  });
  const session = new TableSession(sessionConfig(ruleset, { anomaly: { enabled: false } }));
  const events: DomainEvent[] = [];
  const decks: Array<{ cards: Step[]; taken: number }> = [];
  for (const step of steps) {
    if (step.kind === 'shuffle') decks.push({ cards: [], taken: 0 });
    else if (step.kind === 'card') decks.at(-1)!.cards.push(step);
  }
  let shuffleIndex = 0;
  for (const [index, deck] of decks.entries()) {
    const shuffle = steps.filter((step) => step.kind === 'shuffle')[shuffleIndex++]!;
    expect(session.expecting().kind).toBe('shuffle');
    events.push(...session.apply({ t: 'shuffle', decks: shuffle.decks, backs: shuffle.backs }));
    const planned = rounds[index]!;
    const moves = [...planned.moves];
    const next = () => {
      const card = deck.cards[deck.taken++];
      if (card?.kind !== 'card') throw new Error(`deck ${index + 1} ran out`);
      events.push(
        ...session.apply({ t: 'card', card: card.card, back: card.back, face: card.face }),
      );
    };
    for (let guard = 0; guard < 200; guard++) {
      const expecting = session.expecting();
      if (expecting.kind === 'shuffle') break;
      if (expecting.kind === 'round') {
        events.push(
          ...session.apply({ t: 'round', ...(planned.boxes ? { boxes: planned.boxes } : {}) }),
        );
      } else if (expecting.kind === 'card' || expecting.kind === 'burn') {
        next();
      } else {
        const move = moves.shift();
        if (!move) throw new Error(`no planned move for ${expecting.text}`);
        if (move.kind === 'card') {
          expect(expecting.onCard).toBeDefined();
          next();
        } else {
          expect(expecting.seat).toBe(move.box === undefined ? 'dealer' : `box:${move.box}`);
          events.push(
            ...session.apply({
              t: 'action',
              action: move.action,
              ...(move.box === undefined ? {} : { box: move.box }),
              ...(move.cards ? { cards: move.cards } : {}),
            }),
          );
        }
      }
    }
    expect(moves).toEqual([]);
    expect(deck.taken).toBe(planned.cards);
    expect(deck.taken).toBe(deck.cards.length);
  }
  return { events, rounds };
}

describe('a dealer making the planned moves takes exactly the cards of each planned deck', () => {
  it.each(perRound)('%s: every planned round reaches its result with no alarm', (ruleset) => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const { events, rounds } = replay(ruleset, seed);
      expect(events.filter((event) => event.type === 'alarm')).toEqual([]);
      expect(events.filter((event) => event.type === 'result')).toHaveLength(rounds.length);
    }
  });

  it('records the exchanged card positions of a draw-poker exchange with its action', () => {
    const withCards = [1, 2, 3, 4, 5, 6, 7, 8].flatMap((seed) => {
      const rounds: LegalRound[] = [];
      planSession({
        ruleset: 'tdc-russian-poker',
        seed,
        behaviours: new BehaviourSet(),
        rounds: 4,
        onRound: (round) => rounds.push(round),
      });
      return rounds.flatMap((round) => round.actions.filter((action) => action.cards));
    });
    expect(withCards.length).toBeGreaterThan(0);
    for (const action of withCards) {
      expect(action.cards!.every((position) => position >= 0 && position <= 4)).toBe(true);
    }
  });

  it('starts the alternating decks with the colour asked, and only where the colours alternate', () => {
    const backsOf = (ruleset: string, firstBack?: 'red' | 'blue') =>
      planSession({
        ruleset,
        seed: 3,
        behaviours: new BehaviourSet(),
        rounds: 4,
        ...(firstBack ? { firstBack } : {}),
      })
        .filter((step) => step.kind === 'shuffle')
        .map((step) => (step as Extract<Step, { kind: 'shuffle' }>).backs.join());
    expect(backsOf('peru-triple-shot')).toEqual(['red', 'blue', 'red', 'blue']);
    expect(backsOf('peru-triple-shot', 'blue')).toEqual(['blue', 'red', 'blue', 'red']);
    expect(backsOf('spain-holdem-bonus', 'blue')).toEqual(['blue', 'red', 'blue', 'red']);
    expect(backsOf('tdc-casino-holdem', 'blue')).toEqual(['red', 'red', 'red', 'red']);
  });

  it('refuses a first colour the ruleset does not use', () => {
    expect(() =>
      planSession({
        ruleset: 'peru-triple-shot',
        seed: 3,
        behaviours: new BehaviourSet(),
        firstBack: 'green' as 'red',
      }),
    ).toThrow(/first back colour green is not one of peru-triple-shot's: red, blue/);
  });

  it('tells the next card-moving step not yet played: a deck dealt out shows the next shuffle', async () => {
    const wire = createMemoryPair('upcoming');
    const sim = new SimulatedDevice({
      kind: 'shoe',
      transport: wire.device,
      ruleset: 'peru-triple-shot',
      seed: 2,
      rounds: 2,
      boxes: [1],
    });
    expect(sim.upcoming()).toMatchObject({ kind: 'shuffle', backs: ['red'] });
    const cards = sim.legalRounds[0]!.cards;
    // Stepping without a host: play() only queues frames, nothing needs an ACK to advance.
    sim.start();
    for (let i = 0; i < cards; i++) expect(await sim.step()).toBe(true);
    expect(sim.upcoming()).toMatchObject({ kind: 'shuffle', backs: ['blue'] });
    await sim.step();
    expect(sim.upcoming()).toMatchObject({ kind: 'card' });
    await sim.stop();
  });
});
