/**
 * RoundSetup.dark (004: Russian poker, casino hold'em at TDC) is a bet only
 * some games have. Blackjack, baccarat and Triple Shot have none, so a dark
 * list is a setup error naming the ruleset and the boxes, never ignored.
 */
import { describe, expect, it } from 'vitest';
import { EngineError } from '../../../firmware-host/engine/errors.ts';
import { createEngine } from '../../../firmware-host/games/engines.ts';
import { getRuleset } from '../../../firmware-host/games/rulesets.ts';

const WITHOUT_DARK = [
  'tdc-blackjack',
  'bulgaria-blackjack',
  'bulgaria-punto-banco',
  'monaco-punto-2000',
  'tdc-baccarat-no-commission',
  'peru-triple-shot',
];

describe('games without dark boxes refuse a dark box', () => {
  for (const name of WITHOUT_DARK) {
    const engine = createEngine(getRuleset(name));
    const boxes = engine.game === 'punto-banco' ? {} : { boxes: [1, 2] };

    it(`${name} refuses a round with a dark box as a bad setup naming the ruleset and the box`, () => {
      let thrown: unknown;
      try {
        engine.start({ ...boxes, dark: [2] });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(EngineError);
      expect((thrown as EngineError).code).toBe('bad_setup');
      expect((thrown as EngineError).message).toMatch(
        new RegExp(`^${name} has no dark boxes \\(asked for 2\\)`),
      );
    });

    it(`${name} still starts a round with an empty dark list`, () => {
      expect(() => engine.start({ ...boxes, dark: [] })).not.toThrow();
      expect(engine.next(engine.start({ ...boxes, dark: [] })).kind).toBe('card');
    });
  }
});
