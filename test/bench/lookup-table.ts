/**
 * The "two plus two" seven-card lookup table, written for the bench from its
 * published description (the 2+2 forum's 7-card evaluator thread): a state
 * machine with one row of 52 entries per partial hand of 0..6 cards. Each
 * entry is the next partial hand's row offset; in a row of six cards it is
 * the seven-card hand's strength. Evaluating a hand is seven dependent
 * lookups, and an enumeration in nested loops shares the first six, so the
 * innermost loop costs one lookup per hand, at the price of a table of
 * ~600,000 rows (about 130 MB).
 *
 * The rows stay few by the description's suit reduction: a suit that can no
 * longer reach five cards in seven (it holds fewer than `cards - 2`) cannot
 * make a flush, so its cards are kept by rank only. A partial hand is then
 * its rank counts plus the rank masks of the suits still live.
 *
 * Strengths come from our own tables (flush by mask, non-flush by rank keys),
 * so the bench compares the two ways of enumerating, not two rankings: the
 * checksums must agree hand for hand.
 */
import {
  nonFlush7Table,
  RANK_KEYS_7,
  strengthTables,
} from '../../firmware-host/games/cards/poker/evaluator-tables.ts';

const DEAD = -1;

function popcount(mask: number): number {
  let count = 0;
  for (let bits = mask; bits !== 0; bits &= bits - 1) count++;
  return count;
}

/**
 * A partial hand's identity: rank key sum and live suit masks. From five
 * cards on at most one suit is live (it holds three or more), so a number
 * holds it all; before that, a string.
 */
function stateKey(sum: number, suitMasks: Int32Array, cards: number): string | number {
  if (cards < 5) return `${sum},${suitMasks[0]},${suitMasks[1]},${suitMasks[2]},${suitMasks[3]}`;
  let live = 4;
  for (let s = 0; s < 4; s++) if (suitMasks[s] !== DEAD) live = s;
  return (sum * 8 + live) * 8192 + (live === 4 ? 0 : suitMasks[live]!);
}

export interface LookupTable {
  /** Row r holds entries [r * 52, r * 52 + 52); the empty hand is row 0. */
  readonly table: Int32Array;
  readonly rows: number;
  readonly buildSeconds: number;
}

/** Builds the table breadth first, one card count at a time. */
export function buildLookupTable(): LookupTable {
  const started = performance.now();
  const { flush } = strengthTables();
  const nonFlush = nonFlush7Table();
  // Per row: rank key sum (seven-card keys), rank counts, the four suit masks (DEAD when dead).
  const rankSums: number[] = [0];
  const counts: Uint8Array[] = [new Uint8Array(13)];
  const masks: Int32Array[] = [new Int32Array(4)];
  const rowsOfLevel: number[][] = [[0]];
  const transitions: Array<Int32Array | undefined> = [];
  const scratch = new Int32Array(4);
  for (let level = 0; level < 7; level++) {
    const index = new Map<string | number, number>();
    const next: number[] = [];
    for (const row of rowsOfLevel[level]!) {
      const entries = new Int32Array(52);
      const rowCounts = counts[row]!;
      const rowMasks = masks[row]!;
      for (let card = 0; card < 52; card++) {
        const rank = card >> 2;
        const suit = card & 3;
        // A card the hand already holds never follows: leave its entry 0.
        if (rowCounts[rank]! >= 4) continue;
        if (rowMasks[suit] !== DEAD && (rowMasks[suit]! >> rank) & 1) continue;
        const sum = rankSums[row]! + RANK_KEYS_7[rank]!;
        const cards = level + 1;
        if (cards === 7) {
          // A flush is the answer when a live suit reaches five (seven cards hold no better).
          let strength = nonFlush[sum]!;
          for (let s = 0; s < 4; s++) {
            let mask = rowMasks[s]!;
            if (mask === DEAD) continue;
            if (s === suit) mask |= 1 << rank;
            if (popcount(mask) >= 5) strength = flush[mask]!;
          }
          entries[card] = strength;
          continue;
        }
        for (let s = 0; s < 4; s++) {
          let mask = rowMasks[s]!;
          if (mask !== DEAD && s === suit) mask |= 1 << rank;
          scratch[s] = mask !== DEAD && popcount(mask) < cards - 2 ? DEAD : mask;
        }
        const key = stateKey(sum, scratch, cards);
        let target = index.get(key);
        if (target === undefined) {
          target = rankSums.length;
          index.set(key, target);
          rankSums.push(sum);
          const newCounts = Uint8Array.from(rowCounts);
          newCounts[rank]!++;
          counts.push(newCounts);
          masks.push(Int32Array.from(scratch));
          next.push(target);
        }
        entries[card] = target * 52;
      }
      transitions[row] = entries;
    }
    rowsOfLevel.push(next);
  }
  const rows = rankSums.length - rowsOfLevel[7]!.length;
  const table = new Int32Array(rows * 52);
  for (let row = 0; row < rows; row++) table.set(transitions[row]!, row * 52);
  return { table, rows, buildSeconds: (performance.now() - started) / 1000 };
}

/** Every seven-card hand through the table: one lookup per hand in the innermost loop. */
export function enumerateSevenByTable(
  table: Int32Array,
  firstCardLimit = 52,
): { hands: number; checksum: number } {
  let hands = 0;
  let checksum = 0;
  for (let a = 0; a < Math.min(46, firstCardLimit); a++) {
    const pa = table[a]!;
    for (let b = a + 1; b < 47; b++) {
      const pb = table[pa + b]!;
      for (let c = b + 1; c < 48; c++) {
        const pc = table[pb + c]!;
        for (let d = c + 1; d < 49; d++) {
          const pd = table[pc + d]!;
          for (let e = d + 1; e < 50; e++) {
            const pe = table[pd + e]!;
            for (let f = e + 1; f < 51; f++) {
              const pf = table[pe + f]!;
              for (let g = f + 1; g < 52; g++) {
                checksum = (checksum + table[pf + g]!) | 0;
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
