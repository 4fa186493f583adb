import { describe, expect, it } from 'vitest';
import { encodeFrame, parseFrameLine } from '../../../device-protocol/frame.ts';
import {
  BehaviourSet,
  corruptFrame,
  MISMATCHED_FIRMWARE_SHA256,
  parseBehaviourSpec,
} from '../../../simulators/behaviours.ts';
import { defaultIdentity } from '../../../simulators/device.ts';
import { isSimulatorError } from '../../../simulators/errors.ts';
import { planSession } from '../../../simulators/plan.ts';
import { createRandom } from '../../../simulators/random.ts';
import type { Step } from '../../../simulators/steps.ts';

const script = [{ op: 'shuffle' as const }, { op: 'deal' as const, count: 30 }];
const cards = (steps: Step[]) =>
  steps.filter((step): step is Extract<Step, { kind: 'card' }> => step.kind === 'card');
const plan = (faults: string[], ruleset = 'tdc-baccarat-no-commission') =>
  planSession({ ruleset, seed: 5, behaviours: new BehaviourSet(faults), script });

describe('faults land at the card positions asked', () => {
  const clean = cards(plan([]));

  it('face-up=K turns the Kth card face up and nothing else', () => {
    const faulty = cards(plan(['face-up=7']));
    expect(faulty[6]).toEqual({ ...clean[6], face: 'up' });
    expect(faulty.filter((card) => card.face === 'up')).toHaveLength(1);
  });

  it("wrong-colour=K gives the Kth card the two-colour game's other back", () => {
    const steps = planSession({
      ruleset: 'peru-triple-shot',
      seed: 5,
      behaviours: new BehaviourSet(['wrong-colour=4']),
      script,
    });
    const dealt = cards(steps);
    expect(dealt[3]!.back).toBe(dealt[0]!.back === 'red' ? 'blue' : 'red');
  });

  it('foreign=K and extra=K insert one card before the Kth', () => {
    const foreign = cards(plan(['foreign=10']));
    expect(foreign).toHaveLength(31);
    expect(foreign[9]).toMatchObject({ back: 'grey' });
    expect(foreign[10]).toEqual(clean[9]);
    const extra = cards(plan(['extra=10']));
    expect(extra).toHaveLength(31);
    expect(clean.slice(0, 9).map((card) => card.card)).toContain(extra[9]!.card);
  });

  it('jam, lid and silence are inserted before the Kth card', () => {
    const steps = plan(['jam=3:100', 'lid=5:50', 'silence=8:200']);
    const cardsBefore = (kind: Step['kind']) =>
      cards(
        steps.slice(
          0,
          steps.findIndex((step) => step.kind === kind),
        ),
      ).length;
    expect(cardsBefore('jam')).toBe(2);
    expect(cardsBefore('lid')).toBe(4);
    expect(cardsBefore('silence')).toBe(7);
  });

  it('stacked deals the shoe in new-deck order', () => {
    const stacked = cards(plan(['stacked']));
    expect(stacked.slice(0, 13).map((card) => card.card)).toEqual([
      'AS',
      '2S',
      '3S',
      '4S',
      '5S',
      '6S',
      '7S',
      '8S',
      '9S',
      'TS',
      'JS',
      'QS',
      'KS',
    ]);
  });

  it('firmware-mismatch changes the HELLO hash only', () => {
    const identity = defaultIdentity('shoe', 1);
    const mismatched = new BehaviourSet(['firmware-mismatch']).identity(identity);
    expect(mismatched).toEqual({ ...identity, firmwareSha256: MISMATCHED_FIRMWARE_SHA256 });
  });

  it('a corrupted frame fails its CRC', () => {
    const line = encodeFrame({ talker: 'SH', seq: 3, type: 'CARD', fields: ['AS', 'red', 'down'] });
    for (let seed = 0; seed < 50; seed++) {
      const corrupted = corruptFrame(Buffer.from(line, 'latin1'), createRandom(seed)).toString(
        'latin1',
      );
      expect(parseFrameLine(corrupted)).toMatchObject({ kind: 'discard', reason: 'bad_crc' });
    }
  });

  it('switching a behaviour off and on is visible to the set', () => {
    const set = new BehaviourSet();
    expect(set.isOn('report-order')).toBe(true);
    set.set('report-order', false);
    expect(set.isOn('report-order')).toBe(false);
    expect(set.isSwitchedOff('report-order')).toBe(true);
    set.set('corrupt-bytes', true, '0.5');
    set.set('corrupt-bytes', true, '3');
    expect(set.describe()).toEqual(['legal-shoe', 'report-backs', 'corrupt-bytes=3']);
  });

  it.each([
    ['melt'],
    ['face-up'],
    ['face-up=0'],
    ['corrupt-bytes=1.5'],
    ['delay=fast'],
    ['firmware-mismatch=abc'],
  ])('refuses %s with a coded error', (spec) => {
    try {
      new BehaviourSet([spec]);
      expect.unreachable();
    } catch (error) {
      expect(isSimulatorError(error) && error.code).toBe('bad_fault');
    }
  });

  it('parses NAME=ARG', () => {
    expect(parseBehaviourSpec('jam=4:250')).toEqual({ name: 'jam', arg: '4:250' });
    expect(parseBehaviourSpec('stacked')).toEqual({ name: 'stacked', arg: undefined });
  });
});
