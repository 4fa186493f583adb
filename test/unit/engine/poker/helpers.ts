import { expect } from 'vitest';
import type { StandardCard } from '../../../../device-protocol/cards.ts';
import { parseDecisions, playRound } from '../../../../firmware-host/engine/round.ts';
import type { Outcome, RoundSetup } from '../../../../firmware-host/engine/types.ts';
import { createEngine } from '../../../../firmware-host/games/engines.ts';
import {
  getRuleset,
  parseRuleset,
  type Ruleset,
} from '../../../../firmware-host/games/rulesets.ts';

export function cards(text: string): StandardCard[] {
  return text.split(/\s+/).filter(Boolean) as StandardCard[];
}

/** A shipped ruleset with some fields replaced, validated again. */
export function variantOf(name: string, change: Record<string, unknown>): Ruleset {
  return parseRuleset({ ...getRuleset(name), ...change });
}

/** Plays a whole round and returns its outcome and the dealt cards; fails unless it completes. */
export function play<O extends Outcome>(
  ruleset: string | Ruleset,
  shoe: string,
  actions = '',
  setup: RoundSetup = {},
) {
  const engine = createEngine(typeof ruleset === 'string' ? getRuleset(ruleset) : ruleset);
  const run = playRound(engine, setup, cards(shoe), parseDecisions(actions));
  expect(run.stoppedAt).toEqual({ kind: 'complete' });
  return { outcome: engine.outcome(run.state) as O, dealt: run.dealt, state: run.state, engine };
}

/** Plays until input runs out; returns where the round stopped. */
export function playPartly(ruleset: string, shoe: string, actions = '', setup: RoundSetup = {}) {
  const engine = createEngine(getRuleset(ruleset));
  return playRound(engine, setup, cards(shoe), parseDecisions(actions));
}
