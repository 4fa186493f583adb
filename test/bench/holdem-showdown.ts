/**
 * The hold'em showdown behind the Casino Hold'em and Hold'em Bonus studies
 * (issue 16 item 6): every board, box and dealer hand, counted by card
 * classes on the 42,783 board classes (holdem-board-classes.ts), against the
 * card-by-card sweep it replaced (`countHoldemBoard`, 1,081 hands on each of
 * the 134,459 board suit patterns) in the same run. The sweep runs on every
 * 16th pattern and its time is scaled to all of them, so the bench stays
 * short; both sides are single-threaded.
 */
import { performance } from 'node:perf_hooks';
import { fullDeckSuitPatterns } from '../../firmware-host/analysis/suit-patterns.ts';
import {
  BoardScratch,
  countHoldemBoard,
  holdemShowdownPart,
} from '../../firmware-host/games/cards/poker/analysis/holdem-showdown.ts';

const SAMPLE_EVERY = 16;

export interface HoldemShowdownFigures {
  /** The whole enumeration by classes, exact. */
  classes_ms: number;
  /** The card-by-card sweep, measured on every 16th pattern, times 16. */
  card_by_card_projected_ms: number;
  sampled_patterns: number;
  /** Card by card / by classes. */
  ratio: number;
}

export function benchHoldemShowdown(): HoldemShowdownFigures {
  // No dealer qualifier (Hold'em Bonus, 001); warm-ups first, so neither side pays its JIT.
  holdemShowdownPart(1, 0, 64);
  const patterns = fullDeckSuitPatterns(5);
  const scratch = new BoardScratch();
  const into = new Float64Array(40);
  for (let i = 1; i < patterns.length; i += 640)
    countHoldemBoard(patterns[i]!.representative, 1, into, 1, scratch);

  let started = performance.now();
  const whole = holdemShowdownPart(1);
  const classesMs = performance.now() - started;
  started = performance.now();
  let sampled = 0;
  for (let i = 0; i < patterns.length; i += SAMPLE_EVERY) {
    const { representative, multiplicity } = patterns[i]!;
    countHoldemBoard(representative, 1, into, multiplicity, scratch);
    sampled++;
  }
  const sampleMs = performance.now() - started;
  // Every deal counted once by classes: C(52,5)·C(47,2)·C(45,2).
  const deals = whole.reduce((sum, count) => sum + count, 0);
  if (deals !== 2_781_381_002_400) throw new Error(`the class count saw ${deals} deals`);
  const projected = (sampleMs * patterns.length) / sampled;
  return {
    classes_ms: round(classesMs),
    card_by_card_projected_ms: round(projected),
    sampled_patterns: sampled,
    ratio: round(projected / classesMs),
  };
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
