/**
 * Games that take a fresh deck every round (Triple Shot, the poker games)
 * deal, per round, the cards a legal round of the ruleset takes from that
 * deck (dealLegalSession's scripted dealer on the simulator's own shoe), not
 * an average count.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { LegalRound } from '../../../firmware-host/games/cards/simulated/legal-round.ts';
import {
  recipeFor,
  rulesetNames,
} from '../../../firmware-host/games/cards/simulated/legal-shoe.ts';
import { getRuleset } from '../../../firmware-host/games/rulesets.ts';
import { BehaviourSet } from '../../../simulators/behaviours.ts';
import { planSession } from '../../../simulators/plan.ts';
import { parseScenarioText } from '../../../simulators/scenario.ts';
import type { Step } from '../../../simulators/steps.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const perRound = rulesetNames().filter((name) => recipeFor(name).shufflePerRound);

function plan(ruleset: string, seed: number, extra: { boxes?: number[]; faults?: string[] } = {}) {
  const rounds: LegalRound[] = [];
  const steps = planSession({
    ruleset,
    seed,
    behaviours: new BehaviourSet(extra.faults ?? []),
    rounds: 5,
    ...(extra.boxes ? { boxes: extra.boxes } : {}),
    onRound: (round) => rounds.push(round),
  });
  return { steps, rounds };
}

/** The cards dealt after each shuffle step, with that shuffle's order. */
function dealsPerShuffle(steps: readonly Step[]) {
  const deals: Array<{ order: string[]; cards: string[] }> = [];
  for (const step of steps) {
    if (step.kind === 'shuffle') deals.push({ order: step.order, cards: [] });
    else if (step.kind === 'card') deals.at(-1)!.cards.push(step.card);
  }
  return deals;
}

describe('a deck-per-round game deals the cards one legal round takes', () => {
  it('covers Triple Shot and the poker games', () => {
    expect(perRound).toEqual(
      expect.arrayContaining([
        'peru-triple-shot',
        'spain-holdem-bonus',
        'tdc-casino-holdem',
        'tdc-russian-poker',
        'bulgaria-caribbean-stud',
        'bulgaria-seven-card-stud',
      ]),
    );
  });

  it.each(perRound)(
    '%s: each round takes the top cards of its own deck, as many as the legal round',
    (ruleset) => {
      for (const seed of [1, 2, 3, 4, 5, 6]) {
        const { steps, rounds } = plan(ruleset, seed);
        const deals = dealsPerShuffle(steps);
        expect(deals).toHaveLength(5);
        expect(rounds).toHaveLength(5);
        for (const [index, deal] of deals.entries()) {
          const round = rounds[index]!;
          expect(round.exhausted).toBe(false);
          expect(deal.cards).toEqual(deal.order.slice(0, round.cards));
          expect(round.cards).toBeGreaterThan(0);
        }
      }
    },
  );

  it('deals Triple Shot six cards to each position and the dealer (000 § 2.c), whatever the boxes', () => {
    const maxPositions = (getRuleset('peru-triple-shot') as { maxPositions?: number }).maxPositions;
    expect(maxPositions).toBeGreaterThanOrEqual(3);
    const counts = new Set<number>();
    for (const seed of [11, 12, 13, 14]) {
      const { steps, rounds } = plan('peru-triple-shot', seed);
      const deals = dealsPerShuffle(steps);
      for (const [index, round] of rounds.entries()) {
        expect(deals[index]!.cards).toHaveLength(6 * (round.boxes!.length + 1));
        counts.add(round.cards);
      }
    }
    // Not one fixed count any more.
    expect(counts.size).toBeGreaterThan(1);
    const fixed = plan('peru-triple-shot', 5, { boxes: [1, 2, 3] });
    expect(fixed.rounds.every((round) => round.boxes?.join() === '1,2,3')).toBe(true);
    expect(dealsPerShuffle(fixed.steps).map((deal) => deal.cards.length)).toEqual([
      24, 24, 24, 24, 24,
    ]);
  });

  it('deals a casino hold’em box two cards, the dealer two and a board of at most five', () => {
    for (const seed of [21, 22, 23]) {
      const { rounds } = plan('tdc-casino-holdem', seed, { boxes: [1, 2] });
      for (const round of rounds) {
        expect(round.cards).toBeGreaterThanOrEqual(2 * 2 + 2 + 3);
        expect(round.cards).toBeLessThanOrEqual(2 * 2 + 2 + 5);
      }
    }
  });

  it('plans the same rounds for the same seed, and deals a stacked deck by the same rules', () => {
    expect(plan('tdc-russian-poker', 9)).toEqual(plan('tdc-russian-poker', 9));
    const stacked = plan('peru-triple-shot', 9, { boxes: [1], faults: ['stacked'] });
    const deals = dealsPerShuffle(stacked.steps);
    expect(deals[0]!.order.slice(0, 3)).toEqual(['AS', '2S', '3S']);
    expect(deals.map((deal) => deal.cards.length)).toEqual([12, 12, 12, 12, 12]);
  });

  it('reads `deal: round` in a scenario file, and refuses boxes the game cannot seat', () => {
    const scenario = parseScenarioText('steps: [shuffle, { deal: round }, shuffle, { deal: 3 }]');
    expect(scenario.steps).toEqual([
      { op: 'shuffle' },
      { op: 'deal', count: 'round' },
      { op: 'shuffle' },
      { op: 'deal', count: 3 },
    ]);
    const rounds: LegalRound[] = [];
    const steps = planSession({
      ruleset: 'peru-triple-shot',
      seed: 3,
      behaviours: new BehaviourSet(),
      script: scenario.steps!,
      boxes: [2, 3],
      onRound: (round) => rounds.push(round),
    });
    expect(dealsPerShuffle(steps).map((deal) => deal.cards.length)).toEqual([18, 3]);
    expect(() =>
      planSession({
        ruleset: 'peru-triple-shot',
        seed: 3,
        behaviours: new BehaviourSet(),
        boxes: [1, 2, 3, 4, 5, 6, 7],
      }),
    ).toThrow(/no legal round of peru-triple-shot on this shoe with boxes 1,2,3,4,5,6,7/);
  });

  it('loads the ruleset registry when legal-shoe.ts is the first module imported', () => {
    const result = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        "const m = await import('./firmware-host/games/cards/simulated/legal-shoe.ts'); console.log(JSON.stringify(m.rulesetNames()));",
      ],
      { cwd: root, encoding: 'utf8', timeout: 20_000 },
    );
    expect(result.stderr).not.toMatch(/not iterable|Error/);
    expect(JSON.parse(result.stdout)).toHaveLength(11);
  });
});
