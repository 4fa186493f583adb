/**
 * Hand evaluation: every seven-card hand of one deck (C(52,7) =
 * 133,784,560), evaluated by our evaluator and by the npm package `phe` on
 * the same hands, side by side in the same run. Both take cards as
 * `rank * 4 + suit` integers (deuce = rank 0), so the loop is the same and
 * only the evaluator call differs. A checksum of the results keeps the work
 * from being optimised away and shows both saw every hand.
 *
 * Then the same enumeration evaluated incrementally: ours with the rank
 * state table (1.4 MB) and running suit counts, where the cards of a rank
 * count together once no flush can come (suit isomorphism), against the "two
 * plus two" lookup table (lookup-table.ts, 127 MB, one lookup per hand, its
 * build time reported apart). Both give strengths on the same scale, so
 * their checksums must equal evaluate7Ints's, hand for hand.
 */
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { evaluate7Ints } from '../../firmware-host/games/cards/poker/evaluator.ts';
import {
  rankStateTable,
  strengthTables,
} from '../../firmware-host/games/cards/poker/evaluator-tables.ts';
import { buildLookupTable, enumerateSevenByTable } from './lookup-table.ts';

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

const FLUSH_PROBE = 0x3333;
const FLUSH_BITS = 0x8888;
/** Added to four suit counts (a nibble each): bit 3 of a nibble set when that suit holds four or more. */
const NO_FOUR_PROBE = 0x4444;
/** The same for three or more. */
const NO_THREE_PROBE = 0x5555;

/**
 * Every seven-card hand incrementally: the rank state table (one row of 13
 * per rank multiset, 1.4 MB) for the ranks, running suit counts for a flush.
 */
export function enumerateSevenIncremental(firstCardLimit = 52): {
  hands: number;
  checksum: number;
} {
  const { flush } = strengthTables();
  const states = rankStateTable();
  const suit = (card: number) => 1 << ((card & 3) << 2);
  const held = new Int32Array(7);
  let hands = 0;
  let checksum = 0;
  for (let a = 0; a < Math.min(46, firstCardLimit); a++) {
    held[0] = a;
    const ka = states[a >> 2]!;
    const sa = suit(a);
    for (let b = a + 1; b < 47; b++) {
      held[1] = b;
      const kb = states[ka + (b >> 2)]!;
      const sb = sa + suit(b);
      for (let c = b + 1; c < 48; c++) {
        held[2] = c;
        const kc = states[kb + (c >> 2)]!;
        const sc = sb + suit(c);
        for (let d = c + 1; d < 49; d++) {
          held[3] = d;
          const kd = states[kc + (d >> 2)]!;
          const sd = sc + suit(d);
          for (let e = d + 1; e < 50; e++) {
            held[4] = e;
            const ke = states[kd + (e >> 2)]!;
            const se = sd + suit(e);
            if (((se + NO_THREE_PROBE) & FLUSH_BITS) === 0) {
              // No suit holds three of the five: two more cards make no flush, so
              // the last two cards count by rank (suit isomorphism).
              for (let f = e + 1; f < 51; ) {
                const rankF = f >> 2;
                const next = (rankF + 1) << 2;
                const left = next - f;
                const row = states[ke + rankF]!;
                const samePairs = (left * (left - 1)) / 2;
                checksum = (checksum + states[row + rankF]! * samePairs) | 0;
                hands += samePairs;
                for (let rankG = rankF + 1; rankG < 13; rankG++) {
                  checksum = (checksum + states[row + rankG]! * left * 4) | 0;
                  hands += left * 4;
                }
                f = next;
              }
              continue;
            }
            for (let f = e + 1; f < 51; f++) {
              held[5] = f;
              const kf = states[ke + (f >> 2)]!;
              const sf = se + suit(f);
              if (((sf + NO_FOUR_PROBE) & FLUSH_BITS) === 0) {
                // No suit holds four of the six: no seventh card makes a flush,
                // so the cards of one rank give one strength (suit isomorphism):
                // one lookup per rank, counted for each of its cards.
                for (let g = f + 1; g < 52; ) {
                  const rank = g >> 2;
                  const next = (rank + 1) << 2;
                  const cards = next - g;
                  checksum = (checksum + states[kf + rank]! * cards) | 0;
                  hands += cards;
                  g = next;
                }
                continue;
              }
              for (let g = f + 1; g < 52; g++) {
                const suits = sf + suit(g);
                let strength: number;
                if (((suits + FLUSH_PROBE) & FLUSH_BITS) === 0) strength = states[kf + (g >> 2)]!;
                else {
                  held[6] = g;
                  const s = (31 - Math.clz32((suits + FLUSH_PROBE) & FLUSH_BITS)) >> 2;
                  let mask = 0;
                  for (let i = 0; i < 7; i++)
                    if ((held[i]! & 3) === s) mask |= 1 << (held[i]! >> 2);
                  strength = flush[mask]!;
                }
                checksum = (checksum + strength) | 0;
                hands++;
              }
            }
          }
        }
      }
    }
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
  /** The same hands evaluated incrementally: ours against the two-plus-two table. */
  incremental: {
    hands_per_s: number;
    seconds: number;
    lookup_table: { hands_per_s: number; seconds: number; build_s: number; mb: number };
    /** Ours / the lookup table's hands per second. */
    ratio: number;
  };
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

  const lookup = buildLookupTable();
  enumerateSevenIncremental(1);
  enumerateSevenByTable(lookup.table, 1);
  started = performance.now();
  const incremental = enumerateSevenIncremental(limit);
  const incrementalSeconds = (performance.now() - started) / 1000;
  started = performance.now();
  const byTable = enumerateSevenByTable(lookup.table, limit);
  const tableSeconds = (performance.now() - started) / 1000;
  for (const other of [incremental, byTable]) {
    if (other.hands !== ours.hands || other.checksum !== ours.checksum) {
      throw new Error('an incremental enumeration disagrees with evaluate7Ints on the same hands');
    }
  }
  const incrementalRate = incremental.hands / incrementalSeconds;
  const tableRate = byTable.hands / tableSeconds;
  return {
    hands: ours.hands,
    exhaustive: ours.hands === ALL_SEVEN_CARD_HANDS,
    hands_per_s: Math.round(oursRate),
    seconds: round(oursSeconds),
    phe: { hands_per_s: Math.round(pheRate), seconds: round(pheSeconds) },
    ratio: round(oursRate / pheRate),
    incremental: {
      hands_per_s: Math.round(incrementalRate),
      seconds: round(incrementalSeconds),
      lookup_table: {
        hands_per_s: Math.round(tableRate),
        seconds: round(tableSeconds),
        build_s: round(lookup.buildSeconds),
        mb: Math.round(lookup.table.byteLength / 1e6),
      },
      ratio: round(incrementalRate / tableRate),
    },
  };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
