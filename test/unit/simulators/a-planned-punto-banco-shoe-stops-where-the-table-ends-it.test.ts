/**
 * The simulated dealer stops where a real one stops (issue 16 item 7): a
 * legal Punto Banco shoe, planned for many seeds, is dealt into the table
 * session as the daemon plays it (a card between coups starts the next
 * coup); the session ends the shoe by its own rule after the last card the
 * plan deals, and no card comes after the end, so no alarm is raised. The
 * same over a real pty and daemon: test/e2e/a-legal-shoe-dealt-by-tableside-
 * sim-shoe-over-a-pty-raises-no-alarm-in-any-shoe-ruleset.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { getRuleset, rulesetNames } from '../../../firmware-host/games/rulesets.ts';
import { sessionConfig, TableSession } from '../../../firmware-host/games/table-session.ts';
import type { TableLogRecord } from '../../../firmware-host/table/log.ts';
import { BehaviourSet } from '../../../simulators/behaviours.ts';
import { planSession } from '../../../simulators/plan.ts';
import type { Step } from '../../../simulators/steps.ts';

const SHOE_RULESETS = rulesetNames().filter((name) => getRuleset(name).game === 'punto-banco');
const SEEDS = Array.from({ length: 12 }, (_, i) => i + 1);

function record(step: Step): TableLogRecord | undefined {
  if (step.kind === 'shuffle') return { t: 'shuffle', decks: step.decks, backs: step.backs };
  if (step.kind === 'card') return { t: 'card', card: step.card, back: step.back, face: step.face };
  if (step.kind === 'cut') return { t: 'cut' };
  return undefined;
}

describe('a planned punto banco shoe stops where the table ends it', () => {
  it('has the three shipped Punto Banco rulesets to check', () => {
    expect(SHOE_RULESETS.length).toBeGreaterThanOrEqual(3);
  });

  it.each(SHOE_RULESETS)('%s: the shoe ends on its last planned card, no alarm', (ruleset) => {
    for (const seed of SEEDS) {
      const steps = planSession({ ruleset, seed, behaviours: new BehaviourSet() });
      const session = new TableSession(sessionConfig(ruleset, { autoRound: true }));
      const types: string[] = [];
      const alarms: unknown[] = [];
      let endedAtCard = -1;
      let cards = 0;
      for (const step of steps) {
        const next = record(step);
        if (!next) continue;
        if (next.t === 'card') cards++;
        for (const event of session.apply(next)) {
          types.push(event.type);
          if (event.type === 'alarm') alarms.push(event);
          if (event.type === 'shoe_end') endedAtCard = cards;
        }
      }
      expect(alarms, `${ruleset} seed ${seed}`).toEqual([]);
      expect(
        types.filter((type) => type === 'shoe_end'),
        `${ruleset} seed ${seed}`,
      ).toHaveLength(1);
      // Ended by the last card the dealer dealt: nothing dealt after the end, nothing missing.
      expect(endedAtCard, `${ruleset} seed ${seed}`).toBe(cards);
      expect(types.filter((type) => type === 'result').length).toBeGreaterThan(50);
    }
  });
});
