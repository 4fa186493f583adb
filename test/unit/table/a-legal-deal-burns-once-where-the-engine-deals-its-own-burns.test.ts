/**
 * 001 "Desarrollo del juego": one card is burned before the flop, the turn
 * and the river. The Hold'em engines deal those burns themselves (`burn`
 * card steps), so the legal deal must not add the ruleset's fixed burns on
 * top, however the step before the burn was reached: pressed, or implied by
 * the card (a box checking by letting the dealer go on).
 */
import { describe, expect, it } from 'vitest';
import type { GameEngine } from '../../../firmware-host/engine/types.ts';
import {
  dealLegalSession,
  seededRandom,
} from '../../../firmware-host/games/cards/table/legal-deal.ts';
import { createEngine } from '../../../firmware-host/games/engines.ts';
import { getRuleset } from '../../../firmware-host/games/rulesets.ts';
import { sessionConfig, TableSession } from '../../../firmware-host/games/table-session.ts';
import { alarms } from './helpers.ts';

const ruleset = getRuleset('spain-holdem-bonus');

/**
 * The engine with the decisions before each street expressed by the card (a
 * table where the dealer goes on unless a box folds): the Flop bet, the Turn
 * and River checks. The burn then follows a card-implied decision.
 */
function decidedByCard(engine: GameEngine<unknown>): GameEngine<unknown> {
  return {
    ...engine,
    next(state) {
      const step = engine.next(state);
      if (step.kind !== 'decision') return step;
      const onCard = step.options.includes('check') ? 'check' : 'bet';
      return step.options.includes(onCard) ? { ...step, onCard } : step;
    },
  };
}

describe("a legal deal burns once where the engine deals its own burns (spain-holdem-bonus, 001 'Desarrollo del juego')", () => {
  for (const [label, engine, impliedDecisions] of [
    ['every decision pressed', createEngine(ruleset), 0],
    ['the flop bet and the checks implied by the card', decidedByCard(createEngine(ruleset)), 1],
  ] as const) {
    it(`burns at most one card before the flop, the turn and the river: ${label}`, () => {
      let implied = 0;
      for (let seed = 1; seed <= 40; seed += 1) {
        const deal = dealLegalSession({
          ruleset,
          engine,
          random: seededRandom(seed),
          shoes: 2,
          impliedDecisions,
        });
        implied += deal.notes.filter((n) => n.kind === 'card' && n.implied).length;
        const burnsPerShoe = new Map<number, number>();
        for (const note of deal.notes) {
          const burn = note.kind === 'burn' || (note.kind === 'card' && note.to === 'burn');
          if (burn) burnsPerShoe.set(note.shoe, (burnsPerShoe.get(note.shoe) ?? 0) + 1);
        }
        for (const burns of burnsPerShoe.values()) expect(burns).toBeLessThanOrEqual(3);

        // The table, reading the same rules, burns exactly the cards the deal burned.
        const session = new TableSession(sessionConfig(ruleset, {}, engine));
        const events = deal.records.flatMap((record) => session.apply(record));
        expect(alarms(events), `seed ${seed}`).toEqual([]);
        const burned = events.filter((e) => e.type === 'card' && e.to === 'burn').length;
        expect(burned).toBe([...burnsPerShoe.values()].reduce((a, b) => a + b, 0));
      }
      if (impliedDecisions > 0) expect(implied).toBeGreaterThan(0);
    });
  }
});
