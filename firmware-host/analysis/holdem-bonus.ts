/**
 * The Bonus side bet of Texas Hold'em Bonus (001 "Apuesta Especial o
 * Bonus"), by the ruleset's pay table: paid on the player's two hole cards
 * alone, except a row like AA against the dealer's AA (1000:1), which needs
 * the dealer's two cards. So every player hand (1,326) is paired with every
 * dealer hand from the other 50 cards (1,225): 1,624,350 equally likely
 * deals, enumerated. Other boxes' cards are unseen and change nothing on
 * average.
 */
import type { HoldemBonusRuleset } from '../engine/rulesets/poker.ts';
import { expectation, Fraction } from './exact.ts';

type BonusTable = HoldemBonusRuleset['bonus'];
type BonusRow = BonusTable['rows'][number];

export interface BonusLine {
  /** E.g. `AA with dealer AA`, `AK suited`, `KK/QQ/JJ`, or `otherwise`. */
  readonly label: string;
  readonly pays: number;
  readonly count: bigint;
}

export interface HoldemBonusAnalysis {
  readonly total: bigint;
  /** The table's rows in order, then `otherwise`. */
  readonly lines: readonly BonusLine[];
  readonly expectedReturn: Fraction;
  readonly houseEdge: Fraction;
  readonly source: string;
}

const RANK_CHARS = '23456789TJQKA'; // card ints: rank 0 deuce .. 12 ace

/** Two cards (card ints) as the table writes them: higher rank first, `AK`, `99`. */
function twoCardName(a: number, b: number): string {
  const high = Math.max(a >> 2, b >> 2);
  const low = Math.min(a >> 2, b >> 2);
  return `${RANK_CHARS[high]}${RANK_CHARS[low]}`;
}

function rowLabel(row: BonusRow): string {
  const hands = row.hands.join('/');
  const suited = row.suited === 'any' ? '' : ` ${row.suited}`;
  const dealer = row.dealerHolds === null ? '' : ` with dealer ${row.dealerHolds}`;
  return `${hands}${suited}${dealer}`;
}

/** Index of the first row that pays these cards, or -1 (001: the table, top row first). */
export function bonusRowIndex(
  table: BonusTable,
  player: readonly [number, number],
  dealer: readonly [number, number],
): number {
  const name = twoCardName(player[0], player[1]);
  const suited = (player[0] & 3) === (player[1] & 3);
  const dealerName = twoCardName(dealer[0], dealer[1]);
  return table.rows.findIndex(
    (row) =>
      row.hands.includes(name) &&
      (row.suited === 'any' || (row.suited === 'suited') === suited) &&
      (row.dealerHolds === null || row.dealerHolds === dealerName),
  );
}

export function analyzeHoldemBonus(table: BonusTable): HoldemBonusAnalysis {
  const tally = new Array<number>(table.rows.length + 1).fill(0);
  const otherwise = table.rows.length;
  let total = 0;
  for (let a = 0; a < 52; a++)
    for (let b = a + 1; b < 52; b++)
      for (let c = 0; c < 52; c++) {
        if (c === a || c === b) continue;
        for (let d = c + 1; d < 52; d++) {
          if (d === a || d === b) continue;
          const row = bonusRowIndex(table, [a, b], [c, d]);
          tally[row < 0 ? otherwise : row]!++;
          total++;
        }
      }
  const lines: BonusLine[] = [
    ...table.rows.map((row, i) => ({
      label: rowLabel(row),
      pays: row.pays,
      count: BigInt(tally[i]!),
    })),
    { label: 'otherwise', pays: table.otherwise, count: BigInt(tally[otherwise]!) },
  ];
  const expectedReturn = expectation(
    lines.map((line) => ({ count: line.count, payout: Fraction.ofDecimal(line.pays) })),
    BigInt(total),
  );
  return {
    total: BigInt(total),
    lines,
    expectedReturn,
    houseEdge: expectedReturn.negate(),
    source: table.source,
  };
}
