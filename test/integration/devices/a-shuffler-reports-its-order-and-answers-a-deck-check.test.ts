import { describe, expect, it } from 'vitest';
import { benchPerTest, otherColourThanLast, until } from './helpers.ts';

describe('a shuffler reports its order and answers a deck check', () => {
  const openBench = benchPerTest();

  it('each planned shuffle becomes one shuffle record with the order, colours alternating', async () => {
    const current = openBench(
      {
        kind: 'shuffler',
        ruleset: 'tdc-baccarat-no-commission',
        seed: 41,
        faults: ['two-colour'],
        rounds: 3,
      },
      // A shuffler that does not name its colours gets the ones the table expects.
      { expectedBacks: () => otherColourThanLast(current.observations, ['red', 'blue']) },
    );
    const { sim, observations } = current;
    await sim.whenReady();
    while (await sim.step());
    await sim.whenDone();
    const shuffles = sim.steps.filter((step) => step.kind === 'shuffle');
    expect(observations.map((o) => o.record)).toMatchObject(
      shuffles.map((step, index) => ({
        t: 'shuffle',
        decks: 8,
        backs: [index % 2 === 0 ? 'red' : 'blue'],
        order: step.kind === 'shuffle' ? step.order.filter((card) => card !== 'JK') : [],
      })),
    );
  });

  it('without report-order the record carries no order', async () => {
    const current = openBench({
      kind: 'shuffler',
      ruleset: 'tdc-baccarat-no-commission',
      seed: 42,
      off: ['report-order'],
    });
    const { sim, observations } = current;
    await sim.whenReady();
    await sim.step();
    await until(() => observations.length === 1, 5_000, 'the shuffle');
    expect(observations[0]!.record).toMatchObject({ t: 'shuffle', decks: 8, backs: ['red'] });
    expect('order' in observations[0]!.record).toBe(false);
  });

  it('SHUFFLE and DECKCHECK commands are ACKed and answered', async () => {
    const current = openBench({
      kind: 'shuffler',
      ruleset: 'tdc-baccarat-no-commission',
      seed: 43,
    });
    const { sim, driver, observations } = current;
    await sim.whenReady();
    await driver.whenOnline();
    await driver.shuffle(6);
    await until(() => observations.length === 1, 5_000, 'the commanded shuffle');
    expect(observations[0]!.record).toMatchObject({ t: 'shuffle', decks: 6 });
    const count = await driver.deckCheck(6);
    expect(count).toMatchObject({ type: 'COUNT', counted: 312, missing: 0, extra: 0 });
  });
});
