/**
 * The study of one ruleset, as an auditor reads it: every bet of the game,
 * either computed exactly (its expected return and house edge, whatever the
 * player does) or named as depending on the player's strategy, with the
 * reason, and where one fixed strategy could be enumerated exactly, the
 * figures under that strategy with the strategy spelled out. Pure: the CLI
 * prints it as a table or JSON.
 */
import type { StandardCard } from '../../device-protocol/cards.ts';
import {
  cardToInt,
  evaluate5Ints,
  POKER_CATEGORIES,
  type PokerCategory,
} from '../engine/poker/evaluator.ts';
import type { CategoryPays, DealerQualifier } from '../engine/rulesets/poker.ts';
import { expectation, Fraction, ratio } from './exact.ts';
import type { PokerCategoryCounts } from './poker.ts';

/** Figures for a bet: an exact expectation per unit of `per`. */
export interface BetFigures {
  /** Expected net result per unit of `per` (positive: the player gains). */
  readonly expectedReturn: Fraction;
  /** Minus the expected return. */
  readonly houseEdge: Fraction;
  /** The unit the figures are per: `bonus stake`, `Ante`, `pot`. */
  readonly per: string;
  /** Average money staked per unit of `per` (Ante + Call + ...), when more than one. */
  readonly averageStake?: Fraction;
}

export interface ComputedBet extends BetFigures {
  readonly bet: string;
  readonly status: 'computed';
  readonly source: string;
  /** Conditions the figure holds under, when any (e.g. "the box does not fold a Bonus win"). */
  readonly assumes?: string;
}

export interface StrategyDependentBet {
  readonly bet: string;
  readonly status: 'strategy_dependent';
  readonly reason: string;
  readonly source: string;
  /** One strategy's exact figures, or why none are given. */
  readonly assumed?:
    | ({ readonly strategy: string } & BetFigures)
    | { readonly strategy: string; readonly notComputed: string };
}

/** A strategy-free bet whose enumeration was skipped on request (`--quick`). */
export interface SkippedBet {
  readonly bet: string;
  readonly status: 'skipped';
  readonly reason: string;
  readonly source: string;
}

export type BetStudy = ComputedBet | StrategyDependentBet | SkippedBet;

export interface StudyTable {
  readonly title: string;
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

export interface RulesetStudy {
  readonly ruleset: string;
  readonly game: string;
  readonly title: string;
  readonly bets: readonly BetStudy[];
  /** Human tables, printed after the bets. */
  readonly tables: readonly StudyTable[];
  /** JSON-ready figures beyond the bets (counts as decimal strings). */
  readonly details: Readonly<Record<string, unknown>>;
  readonly notes: readonly string[];
}

export interface StudyOptions {
  /** Skip enumerations that take more than a few seconds; their bets say so. */
  readonly quick?: boolean;
  readonly onProgress?: (stage: string, done: number, total: number) => void;
}

export function figures(
  expectedReturn: Fraction,
  per: string,
  averageStake?: Fraction,
): BetFigures {
  return {
    expectedReturn,
    houseEdge: expectedReturn.negate(),
    per,
    ...(averageStake ? { averageStake } : {}),
  };
}

/** A pay-table bet settled on the category of a five-card hand, from the category counts. */
export interface CategoryBetLine {
  readonly category: PokerCategory;
  readonly pays: number;
  readonly count: bigint;
}

export function categoryBet(
  table: CategoryPays,
  counts: PokerCategoryCounts,
): { lines: CategoryBetLine[]; expectedReturn: Fraction } {
  const lines = POKER_CATEGORIES.map((category) => ({
    category,
    pays: table[category],
    count: counts.categories[category],
  }));
  const expectedReturn = expectation(
    lines.map((line) => ({ count: line.count, payout: Fraction.ofDecimal(line.pays) })),
    counts.total,
  );
  return { lines, expectedReturn };
}

export function paysText(pays: number): string {
  return pays < 0 ? 'loses' : pays === 0 ? 'push' : `${pays}:1`;
}

export function categoryBetTable(
  title: string,
  lines: readonly CategoryBetLine[],
  total: bigint,
  what = 'hands',
): StudyTable {
  return {
    title,
    header: ['category', 'pays', what, 'probability'],
    rows: lines.map((line) => [
      line.category,
      paysText(line.pays),
      groupCount(line.count),
      ratio(line.count, total).toFixed(9),
    ]),
  };
}

export function categoryBetJson(lines: readonly CategoryBetLine[], total: bigint) {
  return {
    total: total.toString(),
    categories: Object.fromEntries(
      lines.map((line) => [
        line.category,
        { pays: line.pays, count: line.count.toString(), probability: ratio(line.count, total) },
      ]),
    ),
  };
}

function groupCount(count: bigint): string {
  return count.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** The JSON of a bet: numbers for reading, exact fractions as strings beside them. */
export function betJson(bet: BetStudy): Record<string, unknown> {
  const numbers = (f: BetFigures) => ({
    expected_return: f.expectedReturn.toNumber(),
    house_edge: f.houseEdge.toNumber(),
    house_edge_exact: f.houseEdge.toString(),
    per: f.per,
    ...(f.averageStake
      ? {
          average_stake: f.averageStake.toNumber(),
          house_edge_per_unit_staked: f.houseEdge
            .times(new Fraction(f.averageStake.denominator, f.averageStake.numerator))
            .toNumber(),
        }
      : {}),
  });
  if (bet.status === 'computed') {
    return {
      status: 'computed',
      ...numbers(bet),
      source: bet.source,
      ...(bet.assumes ? { assumes: bet.assumes } : {}),
    };
  }
  if (bet.status === 'skipped')
    return { status: 'skipped', reason: bet.reason, source: bet.source };
  const assumed = bet.assumed;
  return {
    status: 'strategy_dependent',
    reason: bet.reason,
    source: bet.source,
    ...(assumed === undefined
      ? {}
      : 'notComputed' in assumed
        ? { assumed_strategy: { strategy: assumed.strategy, not_computed: assumed.notComputed } }
        : { assumed_strategy: { strategy: assumed.strategy, ...numbers(assumed) } }),
  };
}

/** Edge per unit actually staked, when the figures are per Ante and more is staked. */
export function edgePerUnitStaked(f: BetFigures): number | null {
  if (!f.averageStake) return null;
  return ratio(
    f.houseEdge.numerator * f.averageStake.denominator,
    f.houseEdge.denominator * f.averageStake.numerator,
  );
}

/** The least strength that qualifies the dealer, from the ruleset's least hand (as the engines compare). */
export function qualifierStrength(qualifier: DealerQualifier): number {
  const [a, b, c, d, e] = qualifier.minimum.map((card) => cardToInt(card as StandardCard));
  return evaluate5Ints(a!, b!, c!, d!, e!);
}

/** Index of a category in POKER_CATEGORIES (0 royal .. 9 high card). */
export function categoryIndex(category: PokerCategory): number {
  return POKER_CATEGORIES.indexOf(category);
}
