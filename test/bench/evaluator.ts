/**
 * Hand evaluation: every seven-card hand of one deck (C(52,7) =
 * 133,784,560), evaluated by our evaluator and by the npm package `phe` on
 * the same hands, side by side in the same run. Both take cards as
 * `rank * 4 + suit` integers (deuce = rank 0), so the loop is the same and
 * only the evaluator call differs. A checksum of the results keeps the work
 * from being optimised away and shows both saw every hand.
 */
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { evaluate7Ints } from '../../firmware-host/engine/poker/evaluator.ts';

export const ALL_SEVEN_CARD_HANDS = 133_784_560;

type Evaluate7 = (
  a: number,
  b: number,
  c: number,
  d: number,
  e: number,
  f: number,
  g: number,
) => number;

/** Runs `evaluate` over every 7-card hand whose first card is below `firstCardLimit` (52: all of them). */
export function enumerateSeven(
  evaluate: Evaluate7,
  firstCardLimit = 52,
): { hands: number; checksum: number } {
  let hands = 0;
  let checksum = 0;
  for (let a = 0; a < Math.min(46, firstCardLimit); a++)
    for (let b = a + 1; b < 47; b++)
      for (let c = b + 1; c < 48; c++)
        for (let d = c + 1; d < 49; d++)
          for (let e = d + 1; e < 50; e++)
            for (let f = e + 1; f < 51; f++)
              for (let g = f + 1; g < 52; g++) {
                checksum = (checksum + evaluate(a, b, c, d, e, f, g)) | 0;
                hands++;
              }
  return { hands, checksum };
}

export interface EvaluatorFigures {
  hands: number;
  exhaustive: boolean;
  hands_per_s: number;
  seconds: number;
  phe: { hands_per_s: number; seconds: number };
  ratio: number;
}

export function benchEvaluator(options: { firstCardLimit?: number } = {}): EvaluatorFigures {
  const require = createRequire(import.meta.url);
  const phe7 = require('phe/lib/evaluator7.js') as Evaluate7;
  const limit = options.firstCardLimit ?? 52;
  // A short warm-up of both, so neither pays its JIT inside the measurement.
  enumerateSeven(evaluate7Ints, 1);
  enumerateSeven(phe7, 1);
  let started = performance.now();
  const ours = enumerateSeven(evaluate7Ints, limit);
  const oursSeconds = (performance.now() - started) / 1000;
  started = performance.now();
  const theirs = enumerateSeven(phe7, limit);
  const pheSeconds = (performance.now() - started) / 1000;
  if (ours.hands !== theirs.hands) throw new Error('the two enumerations saw different hands');
  const oursRate = ours.hands / oursSeconds;
  const pheRate = theirs.hands / pheSeconds;
  return {
    hands: ours.hands,
    exhaustive: ours.hands === ALL_SEVEN_CARD_HANDS,
    hands_per_s: Math.round(oursRate),
    seconds: round(oursSeconds),
    phe: { hands_per_s: Math.round(pheRate), seconds: round(pheSeconds) },
    ratio: round(oursRate / pheRate),
  };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
