import { describe, expect, it } from 'vitest';
import { BehaviourSet } from '../../../simulators/behaviours.ts';
import { planSession } from '../../../simulators/plan.ts';
import { parseScenarioText } from '../../../simulators/scenario.ts';

const YAML = `
name: a baccarat shoe with trouble
ruleset: tdc-baccarat-no-commission
seed: 99
on: [face-up=3]
steps:
  - shuffle
  - deal: 10
  - jam: 500
  - deal: 5
  - card: { card: AS, back: blue, face: up }
  - pause: 250
  - lid: open
  - lid: closed
  - on: corrupt-bytes=0.2
  - deal: 5
  - off: corrupt-bytes
  - cut
  - joker
`;

function plan(text: string, seed?: number) {
  const scenario = parseScenarioText(text);
  return planSession({
    ruleset: scenario.ruleset!,
    seed: seed ?? scenario.seed!,
    behaviours: new BehaviourSet(scenario.on),
    script: scenario.steps!,
  });
}

describe('scenario files replay identically for the same seed', () => {
  it('plans the same steps twice, and other steps for another seed', () => {
    expect(plan(YAML)).toEqual(plan(YAML));
    expect(plan(YAML, 100)).not.toEqual(plan(YAML));
  });

  it('the same scenario written as JSON plans the same session', () => {
    const json = JSON.stringify({
      name: 'a baccarat shoe with trouble',
      ruleset: 'tdc-baccarat-no-commission',
      seed: 99,
      on: ['face-up=3'],
      steps: [
        'shuffle',
        { deal: 10 },
        { jam: 500 },
        { deal: 5 },
        { card: { card: 'AS', back: 'blue', face: 'up' } },
        { pause: 250 },
        { lid: 'open' },
        { lid: 'closed' },
        { on: 'corrupt-bytes=0.2' },
        { deal: 5 },
        { off: 'corrupt-bytes' },
        'cut',
        'joker',
      ],
    });
    expect(plan(json)).toEqual(plan(YAML));
  });

  it('plays the script in order: cards, the jam, the scripted card, the toggles', () => {
    const steps = plan(YAML);
    expect(steps.map((step) => step.kind)).toEqual([
      'shuffle',
      ...Array(10).fill('card'),
      'jam',
      ...Array(5).fill('card'),
      'card',
      'pause',
      'lid',
      'lid',
      'behaviour',
      ...Array(5).fill('card'),
      'behaviour',
      'cut',
      'card',
    ]);
    const cards = steps.filter((step) => step.kind === 'card');
    expect(cards[2]).toMatchObject({ face: 'up' }); // face-up=3
    expect(cards[15]).toEqual({ kind: 'card', card: 'AS', back: 'blue', face: 'up' });
    expect(cards.at(-1)).toMatchObject({ card: 'JK', back: 'red' });
  });
});

function withoutLegalShoe(): BehaviourSet {
  const set = new BehaviourSet();
  set.set('legal-shoe', false);
  return set;
}

describe('without the legal-shoe feature the script is the whole session', () => {
  it('deals only the scripted cards', () => {
    const scenario = parseScenarioText('steps: [shuffle, { deal: 10 }, { card: 9C }, cut]');
    const steps = planSession({
      ruleset: 'tdc-blackjack',
      seed: 1,
      behaviours: withoutLegalShoe(),
      script: scenario.steps!,
    });
    expect(steps.filter((step) => step.kind === 'card')).toEqual([
      { kind: 'card', card: '9C', back: 'red', face: 'down' },
    ]);
  });
});
