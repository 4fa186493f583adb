/**
 * The Bonus side bet of Texas Hold'em Bonus (001 "Apuesta Especial o
 * Bonus"), by the ruleset's pay table: paid on the player's two hole cards
 * alone, except a row like AA against the dealer's AA (1000:1), which needs
 * the dealer's two cards. So every player hand (1,326) is paired with every
 * dealer hand from the other 50 cards (1,225): 1,624,350 equally likely
 * deals, enumerated. Other boxes' cards are unseen and change nothing on
 * average.
 */

import { expectation, Fraction, groupDigits, ratio } from '../../../../analysis/exact.ts';
import type { HoldemBonusRuleset } from '../../../../engine/rulesets/poker.ts';
import { POKER_CATEGORIES, type PokerCategory } from '../evaluator.ts';
import {
  type HoldemShowdownCounts,
  holdemShowdown,
  showdownJson,
  showdownTable,
} from './holdem-showdown.ts';
import {
  anteAndSecondBet,
  type BetStudy,
  bonusBet,
  expectedReturnsJson,
  figures,
  paysText,
  type RulesetStudy,
  rulesetStudy,
  type StrategyDependentBet,
  type StudyOptions,
  type StudyTable,
} from './study.ts';

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

/** A two-card rank pair as one number: higher rank · 13 + lower rank. */
function rankPairOf(a: number, b: number): number {
  return Math.max(a >> 2, b >> 2) * 13 + Math.min(a >> 2, b >> 2);
}

export function analyzeHoldemBonus(table: BonusTable): HoldemBonusAnalysis {
  const tally = new Array<number>(table.rows.length + 1).fill(0);
  const otherwise = table.rows.length;
  // Per box rank pair and suitedness, the rows that can pay it, top first;
  // a row naming the dealer's cards (AA with dealer AA) also needs theirs,
  // as a rank pair. Then each of the 1,624,350 deals is a few integer
  // comparisons instead of a search by names.
  const dealerPair = table.rows.map((row) =>
    row.dealerHolds === null
      ? -1
      : rankPairOf(
          RANK_CHARS.indexOf(row.dealerHolds[0]!) * 4,
          RANK_CHARS.indexOf(row.dealerHolds[1]!) * 4,
        ),
  );
  const candidates: number[][] = [];
  for (let high = 0; high < 13; high++)
    for (let low = 0; low <= high; low++)
      for (const suited of [false, true]) {
        const name = `${RANK_CHARS[high]}${RANK_CHARS[low]}`;
        candidates[(high * 13 + low) * 2 + (suited ? 1 : 0)] = table.rows.flatMap((row, i) =>
          row.hands.includes(name) && (row.suited === 'any' || (row.suited === 'suited') === suited)
            ? [i]
            : [],
        );
      }
  let total = 0;
  for (let a = 0; a < 52; a++)
    for (let b = a + 1; b < 52; b++) {
      const rows = candidates[rankPairOf(a, b) * 2 + ((a & 3) === (b & 3) ? 1 : 0)]!;
      for (let c = 0; c < 52; c++) {
        if (c === a || c === b) continue;
        for (let d = c + 1; d < 52; d++) {
          if (d === a || d === b) continue;
          let row = otherwise;
          for (const i of rows) {
            const needs = dealerPair[i]!;
            if (needs < 0 || needs === rankPairOf(c, d)) {
              row = i;
              break;
            }
          }
          tally[row]!++;
          total++;
        }
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

// ------------------------------------------------- the study of the ruleset

export const ALWAYS_PLAY = 'always make the Flop bet (never fold); no Turn or River bet';
export const TURN_RIVER_ALWAYS = 'placed every time, the Flop bet always made';

/** Ante and Flop bet per Ante, "always play", from the showdown counts (no dealer qualifier, 001). */
export function alwaysPlayReturn(
  ruleset: HoldemBonusRuleset,
  counts: HoldemShowdownCounts,
): { ante: Fraction; flop: Fraction; turnOrRiverPerStake: Fraction } {
  const ante: { count: bigint; payout: Fraction }[] = [];
  const flop: { count: bigint; payout: Fraction }[] = [];
  const perStake: { count: bigint; payout: Fraction }[] = [];
  const pays = Fraction.ofDecimal(ruleset.win.pays);
  const tie = Fraction.ofDecimal(ruleset.tie.result);
  const flopAntes = Fraction.ofDecimal(ruleset.flopBet.antes);
  POKER_CATEGORIES.forEach((category, c) => {
    const antePays = categoryAtLeast(category, ruleset.win.anteFrom)
      ? Fraction.ofDecimal(ruleset.win.antePays)
      : Fraction.of(0);
    const wins = counts.wins[c]!;
    const ties = counts.ties[c]!;
    const losses = counts.losses[c]!;
    ante.push(
      { count: wins, payout: antePays },
      { count: ties, payout: tie },
      { count: losses, payout: Fraction.of(-1) },
    );
    flop.push(
      { count: wins, payout: flopAntes.times(pays) },
      { count: ties, payout: flopAntes.times(tie) },
      { count: losses, payout: flopAntes.negate() },
    );
    perStake.push(
      { count: wins, payout: pays },
      { count: ties, payout: tie },
      { count: losses, payout: Fraction.of(-1) },
    );
  });
  return {
    ante: expectation(ante, counts.total),
    flop: expectation(flop, counts.total),
    turnOrRiverPerStake: expectation(perStake, counts.total),
  };
}

/** 001 § 7: whether a category is `least` or better. */
function categoryAtLeast(category: PokerCategory, least: PokerCategory): boolean {
  return POKER_CATEGORIES.indexOf(category) <= POKER_CATEGORIES.indexOf(least);
}

export function studyHoldemBonus(
  ruleset: HoldemBonusRuleset,
  options: StudyOptions = {},
): RulesetStudy {
  const bonus = analyzeHoldemBonus(ruleset.bonus);
  const bets: BetStudy[] = [
    bonusBet(
      bonus.expectedReturn,
      { source: bonus.source, paidOnFold: ruleset.bonus.paidOnFold },
      'the box never folds a hand whose two cards win the Bonus',
    ),
  ];
  const tables: StudyTable[] = [
    {
      title: "Bonus: every box hand with every dealer hand (the AA row needs the dealer's cards)",
      header: ['hand', 'pays', 'deals', 'probability'],
      rows: bonus.lines.map((line) => [
        line.label,
        paysText(line.pays),
        groupDigits(line.count),
        ratio(line.count, bonus.total).toFixed(8),
      ]),
    },
  ];
  const details: Record<string, unknown> = {
    bonus: {
      total: bonus.total.toString(),
      hands: bonus.lines.map((line) => ({
        hand: line.label,
        pays: line.pays,
        count: line.count.toString(),
      })),
    },
  };
  const mainReason =
    'the box makes the Flop bet (2 Antes) or folds after seeing its cards and the flop (001); the return depends on that decision';
  const sideReason = (street: string) =>
    `optional, placed or not after the ${street === 'turn' ? 'flop decision' : 'turn'} with the cards seen (001); its return depends on when it is placed`;
  type Assumed = NonNullable<StrategyDependentBet['assumed']>;
  let flopAssumed: Assumed;
  let turnAssumed: Assumed;
  let riverAssumed: Assumed;
  if (options.quick) {
    const skipped = 'skipped (--quick): the exact enumeration takes about a second';
    flopAssumed = { strategy: ALWAYS_PLAY, notComputed: skipped };
    turnAssumed = { strategy: TURN_RIVER_ALWAYS, notComputed: skipped };
    riverAssumed = { strategy: TURN_RIVER_ALWAYS, notComputed: skipped };
  } else {
    // 001: no dealer qualifier; the lowest strength qualifies.
    const counts = holdemShowdown(1, (done, total) => options.onProgress?.('boards', done, total));
    const returns = alwaysPlayReturn(ruleset, counts);
    const perStake = (antes: number) =>
      figures(returns.turnOrRiverPerStake, `${antes === 1 ? '' : `${antes} x `}Ante (its stake)`);
    flopAssumed = {
      strategy: ALWAYS_PLAY,
      ...figures(returns.ante.plus(returns.flop), 'Ante', anteAndSecondBet(ruleset.flopBet.antes)),
    };
    turnAssumed = { strategy: TURN_RIVER_ALWAYS, ...perStake(ruleset.turnBet.antes) };
    riverAssumed = { strategy: TURN_RIVER_ALWAYS, ...perStake(ruleset.riverBet.antes) };
    tables.push(
      showdownTable('Always play: every board, box and dealer hand (no qualifier)', counts),
    );
    details.always_play = {
      strategy: ALWAYS_PLAY,
      ...showdownJson(counts),
      ...expectedReturnsJson({ ante: returns.ante, flop: returns.flop }),
    };
  }
  bets.push(
    {
      bet: 'ante_flop',
      status: 'strategy_dependent',
      reason: mainReason,
      source: ruleset.flopBet.source,
      assumed: flopAssumed,
    },
    {
      bet: 'turn',
      status: 'strategy_dependent',
      reason: sideReason('turn'),
      source: ruleset.turnBet.source,
      assumed: turnAssumed,
    },
    {
      bet: 'river',
      status: 'strategy_dependent',
      reason: sideReason('river'),
      source: ruleset.riverBet.source,
      assumed: riverAssumed,
    },
  );
  return rulesetStudy(ruleset, {
    bets,
    tables,
    details,
    notes: [
      `The Ante is paid ${ruleset.win.antePays}:1 only when the box wins with a ${ruleset.win.anteFrom} or better, else it stays (${ruleset.win.anteSource}); Flop, Turn and River pay ${ruleset.win.pays}:1 (${ruleset.win.source}).`,
      'No dealer qualifier (001): box and dealer are dealt alike, so a bet that wins and loses even money on every showdown returns exactly 0.',
    ],
  });
}
