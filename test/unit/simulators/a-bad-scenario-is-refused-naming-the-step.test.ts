import { describe, expect, it } from 'vitest';
import { isSimulatorError } from '../../../simulators/errors.ts';
import { parseScenarioText } from '../../../simulators/scenario.ts';

function refusal(text: string): string {
  try {
    parseScenarioText(text, 'test.yaml');
  } catch (error) {
    expect(isSimulatorError(error) && error.code).toBe('bad_scenario');
    return (error as Error).message;
  }
  throw new Error('accepted');
}

describe('a bad scenario is refused naming the step', () => {
  it.each([
    ['steps: [shuffle, { card: ZZ }]', /test\.yaml: steps\[1\]: bad card code "ZZ"/],
    ['steps: [{ deal: -3 }]', /steps\[0\]: deal: expected a number of cards, rest or round/],
    ['steps: [{ lid: ajar }]', /steps\[0\]: lid: expected open or closed/],
    ['steps: [{ fault: melt }]', /steps\[0\]: unknown behaviour "melt"/],
    ['steps: [{ on: face-up=zero }]', /steps\[0\]: bad argument "zero" for face-up/],
    ['steps: [{ deal: 1, cut: true }]', /steps\[0\]: expected one key per step/],
    ['steps: [dance]', /steps\[0\]: unknown step "dance"/],
    ['seed: -1', /seed:/],
    ['colour: red', /Unrecognized key/],
    ['device: toaster', /device:/],
    ['steps: [{ tag: "XYZ" }]', /tag: expected a UID/],
    ['{ unbalanced', /not YAML or JSON/],
  ])('%s', (text, expected) => {
    expect(refusal(text)).toMatch(expected);
  });
});
