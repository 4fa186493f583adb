/**
 * The study of one ruleset, as an auditor reads it: every bet of the game,
 * either computed exactly (its expected return and house edge, whatever the
 * player does) or named as depending on the player's strategy, with the
 * reason, and where one fixed strategy could be enumerated exactly, the
 * figures under that strategy with the strategy spelled out. Pure: the CLI
 * prints it as a table or JSON.
 */
import type { StandardCard } from '../../../../../device-protocol/cards.ts';
import {
  countRows,
  expectation,
  Fraction,
  groupDigits,
  ratio,
} from '../../../../analysis/exact.ts';
import type { CategoryPays, DealerQualifier } from '../../../../engine/rulesets/poker.ts';
import type { Ruleset } from '../../../../engine/rulesets/schema.ts';
import { cardToInt, evaluate5Ints, POKER_CATEGORIES, type PokerCategory } from '../evaluator.ts';
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
      groupDigits(line.count),
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

/** A table of named counts with each one's probability out of `total`, then a `total` row when asked. */
export function countTable(
  title: string,
  header: readonly [name: string, counted: string],
  entries: readonly (readonly [string, bigint])[],
  total: bigint,
  digits: number,
  totalRow = false,
): StudyTable {
  return {
    title,
    header: [...header, 'probability'],
    rows: countRows(entries, total, digits, totalRow),
  };
}

/** A showdown's deals by outcome, each array indexed by the box's hand as the owning type says. */
export interface ShowdownOutcomeCounts {
  /** The dealer's best five is below the qualifier (whatever the box holds). */
  readonly dealerNotQualified: readonly bigint[];
  /** The dealer qualifies and the box's hand is higher. */
  readonly wins: readonly bigint[];
  /** The dealer qualifies and the hands are equal. */
  readonly ties: readonly bigint[];
  /** The dealer qualifies and its hand is higher. */
  readonly losses: readonly bigint[];
}

/** A showdown's deals by the category of the box's hand, indexed as POKER_CATEGORIES (0 royal .. 9 high card). */
export type ShowdownCategorySums = ShowdownOutcomeCounts;

/** The per-category table of a showdown, for five-card and hold'em showdowns alike. */
export function showdownCategoryTable(
  title: string,
  handHeader: string,
  sums: ShowdownCategorySums,
): StudyTable {
  return {
    title,
    header: [handHeader, 'dealer not qualified', 'wins', 'ties', 'loses'],
    rows: POKER_CATEGORIES.map((category, c) => [
      category,
      groupDigits(sums.dealerNotQualified[c]!),
      groupDigits(sums.wins[c]!),
      groupDigits(sums.ties[c]!),
      groupDigits(sums.losses[c]!),
    ]),
  };
}

export function showdownCategoryJson(total: bigint, sums: ShowdownCategorySums) {
  return {
    total: total.toString(),
    by_category: Object.fromEntries(
      POKER_CATEGORIES.map((category, c) => [
        category,
        {
          dealer_not_qualified: sums.dealerNotQualified[c]!.toString(),
          win: sums.wins[c]!.toString(),
          tie: sums.ties[c]!.toString(),
          lose: sums.losses[c]!.toString(),
        },
      ]),
    ),
  };
}

/** The study of a ruleset: its name, game and title, then the parts. */
export function rulesetStudy(
  ruleset: { readonly name: string; readonly game: string; readonly title: string },
  parts: Pick<RulesetStudy, 'bets' | 'tables' | 'details' | 'notes'>,
): RulesetStudy {
  return {
    ruleset: ruleset.name,
    game: ruleset.game,
    title: ruleset.title,
    bets: parts.bets,
    tables: parts.tables,
    details: parts.details,
    notes: parts.notes,
  };
}

/**
 * A Bonus bet paid by its own table, computed per Bonus stake. When a folded
 * box forfeits it (`paidOnFold: false`), the figure holds only for a box that
 * plays on with a Bonus-winning hand: `assumesWhenForfeited` says so.
 */
export function bonusBet(
  expectedReturn: Fraction,
  bonus: { readonly source: string; readonly paidOnFold: boolean },
  assumesWhenForfeited: string,
): BetStudy {
  return {
    bet: 'bonus',
    status: 'computed',
    ...figures(expectedReturn, 'Bonus stake'),
    source: bonus.source,
    ...(bonus.paidOnFold ? {} : { assumes: assumesWhenForfeited }),
  };
}

/** Average money staked per Ante by a box that always adds its second bet of `antes` Antes. */
export function anteAndSecondBet(antes: number): Fraction {
  return Fraction.of(1).plus(Fraction.ofDecimal(antes));
}

/** The note on a table maximum payout, when the ruleset has one. */
export function payoutLimitNotes(limit: { readonly amount: number | null }): string[] {
  return limit.amount === null
    ? []
    : [
        `The table maximum payout (${limit.amount}) caps winnings in money; the figures are per Ante without the cap.`,
      ];
}

/** `NAME_expected_return` (a number) and `NAME_expected_return_exact` (a fraction string) per part. */
export function expectedReturnsJson(parts: Readonly<Record<string, Fraction>>) {
  return Object.fromEntries(
    Object.entries(parts).flatMap(([name, value]) => [
      [`${name}_expected_return`, value.toNumber()],
      [`${name}_expected_return_exact`, value.toString()],
    ]),
  );
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

/**
 * The long enumeration a ruleset's full study counts, if any: the CLI
 * spreads it over the cores (cli/analysis-threads.ts) and provides the sum
 * before the study runs.
 */
export type StudyEnumeration = { kind: 'holdem'; qualifier: number } | { kind: 'six-card' };

export function longEnumerationOf(ruleset: Ruleset): StudyEnumeration | undefined {
  switch (ruleset.game) {
    case 'casino-holdem':
      return { kind: 'holdem', qualifier: qualifierStrength(ruleset.dealerQualifier) };
    case 'holdem-bonus':
      // 001: Hold'em Bonus names no dealer qualifier; the lowest strength qualifies.
      return { kind: 'holdem', qualifier: 1 };
    case 'triple-shot':
      return { kind: 'six-card' };
    default:
      return undefined;
  }
}

/** Index of a category in POKER_CATEGORIES (0 royal .. 9 high card). */
export function categoryIndex(category: PokerCategory): number {
  return POKER_CATEGORIES.indexOf(category);
}
