import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../../firmware-host/table/events.ts';
import { DeckRegistry } from '../../../hardware/readers/deck-registry.ts';
import { simRegistryDocument } from '../../../simulators/tags.ts';
import { benchPerTest, observedCards } from './helpers.ts';

describe('a reader maps tags through the deck registry and flags foreign tags', () => {
  const openBench = benchPerTest();

  it('every tag of an enrolled deck becomes its card; a foreign chip is an alarm, not a card', async () => {
    const registry = DeckRegistry.fromDocument(simRegistryDocument(['red', 'blue'], 1));
    const current = openBench(
      { kind: 'reader', ruleset: 'peru-triple-shot', seed: 51, faults: ['foreign=5'], rounds: 2 },
      { registry },
    );
    const alarms: DomainEvent[] = [];
    current.driver.on('alarm', (alarm) => alarms.push(alarm));
    const { sim, observations } = current;
    await sim.whenReady();
    while (await sim.step());
    await sim.whenDone();
    const dealt = sim.steps.flatMap((step) =>
      step.kind === 'card' && step.back !== 'grey' ? [`${step.card}/${step.back}/down`] : [],
    );
    expect(observedCards(observations)).toEqual(dealt);
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({ kind: 'foreign_card' });
  });
});
