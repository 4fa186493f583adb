/**
 * Exact Punto Banco analysis: every ordered deal of up to six cards from an
 * N-deck shoe, by card *points* with their multiplicities (16N cards count 0,
 * 4N each count 1..9), weighted by how many ways the shoe deals them.
 *
 * Weighting: a coup that ends after k cards stands for every way of dealing
 * the remaining 6 - k cards too, so every coup is counted out of the same
 * total, the ordered six-card deals N·(N-1)···(N-5) of the shoe (the usual
 * convention of published tables: 4,998,398,275,503,360 for 8 decks).
 *
 * The third-card rules come from the engine's tableau (004 table and note;
 * 003 § 24 item 3.c for naturals), so the analysis and the dealing engine
 * cannot disagree. Pairs depend on ranks, not points: they are counted by
 * exact combinatorics over the 13 ranks.
 */

import { AnalysisError } from '../../../analysis/errors.ts';
import { expectation, Fraction, falling, ratio } from '../../../analysis/exact.ts';
import type { PuntoBancoRuleset } from '../../../engine/rulesets/schema.ts';
import {
  bankerDraws,
  isNaturalTotal,
  playerDraws,
  type Tableau,
  UNIVERSAL_TABLEAU,
} from './tableau.ts';

/** Every coup's final totals: index `((player * 10 + banker) * 2 + playerNatural) * 2 + bankerNatural`. */
export interface BaccaratDeals {
  readonly decks: number;
  /** Ordered six-card deals of the shoe: the common denominator. */
  readonly total: bigint;
  readonly cells: readonly bigint[];
  /** Deals whose Player (or Banker) first two cards are a pair of the same rank. */
  readonly pairDeals: bigint;
  /** The tableau the coups were dealt by. */
  readonly tableau: Tableau;
}

export function checkDecks(decks: number): number {
  if (!Number.isInteger(decks) || decks < 1 || decks > 16) {
    throw new AnalysisError('bad_parameter', `decks must be a whole number 1-16, got ${decks}`);
  }
  return decks;
}

function cellIndex(player: number, banker: number, playerNatural: boolean, bankerNatural: boolean) {
  return ((player * 10 + banker) * 2 + (playerNatural ? 1 : 0)) * 2 + (bankerNatural ? 1 : 0);
}

/** Enumerates every coup of an N-deck shoe, dealt by `tableau` (the ruleset's). */
export function enumerateBaccarat(
  decks: number,
  tableau: Tableau = UNIVERSAL_TABLEAU,
): BaccaratDeals {
  checkDecks(decks);
  const shoe = 52 * decks;
  const left = [16 * decks, 4 * decks, 4 * decks, 4 * decks, 4 * decks, 4 * decks];
  for (let points = 6; points <= 9; points++) left[points] = 4 * decks;
  // Weights of coups ending after 4, 5 and 6 cards, per cell; completed at the end.
  const byLength = [4, 5, 6].map(() => new Array<number>(400).fill(0));
  // Per-cell sums can pass 2^53 for big shoes: flush them into bigints as they grow.
  const exact = [4, 5, 6].map(() => new Array<bigint>(400).fill(0n));
  const add = (length: number, cell: number, weight: number): void => {
    const row = byLength[length - 4]!;
    const next = row[cell]! + weight;
    if (next > 2 ** 52) {
      exact[length - 4]![cell]! += BigInt(row[cell]!) + BigInt(weight);
      row[cell] = 0;
    } else row[cell] = next;
  };
  const draw = (points: number): number => {
    const count = left[points]!;
    left[points] = count - 1;
    return count;
  };
  const putBack = (points: number): void => {
    left[points]!++;
  };

  // Deal order: Player, Banker, Player, Banker (003 § 24 item 3.b; 004).
  for (let p1 = 0; p1 < 10; p1++) {
    const w1 = draw(p1);
    for (let b1 = 0; b1 < 10; b1++) {
      const w2 = w1 * draw(b1);
      for (let p2 = 0; p2 < 10; p2++) {
        const w3 = w2 * draw(p2);
        for (let b2 = 0; b2 < 10; b2++) {
          const w4 = w3 * draw(b2);
          if (w4 > 0) settleTwoCards(p1, p2, b1, b2, w4);
          putBack(b2);
        }
        putBack(p2);
      }
      putBack(b1);
    }
    putBack(p1);
  }

  function settleTwoCards(p1: number, p2: number, b1: number, b2: number, weight: number): void {
    const player = (p1 + p2) % 10;
    const banker = (b1 + b2) % 10;
    const playerNatural = isNaturalTotal(player);
    const bankerNatural = isNaturalTotal(banker);
    if (playerNatural || bankerNatural) {
      add(4, cellIndex(player, banker, playerNatural, bankerNatural), weight);
      return;
    }
    if (!playerDraws(player)) {
      if (!bankerDraws(banker, null, tableau)) {
        add(4, cellIndex(player, banker, false, false), weight);
        return;
      }
      for (let b3 = 0; b3 < 10; b3++) {
        const w = weight * draw(b3);
        if (w > 0) add(5, cellIndex(player, (banker + b3) % 10, false, false), w);
        putBack(b3);
      }
      return;
    }
    for (let p3 = 0; p3 < 10; p3++) {
      const w = weight * draw(p3);
      const playerFinal = (player + p3) % 10;
      if (w > 0) {
        if (!bankerDraws(banker, p3, tableau))
          add(5, cellIndex(playerFinal, banker, false, false), w);
        else {
          for (let b3 = 0; b3 < 10; b3++) {
            const w6 = w * draw(b3);
            if (w6 > 0) add(6, cellIndex(playerFinal, (banker + b3) % 10, false, false), w6);
            putBack(b3);
          }
        }
      }
      putBack(p3);
    }
  }

  const cells = new Array<bigint>(400).fill(0n);
  for (let length = 4; length <= 6; length++) {
    const completions = falling(shoe - length, 6 - length);
    for (let cell = 0; cell < 400; cell++) {
      const weight = exact[length - 4]![cell]! + BigInt(byLength[length - 4]![cell]!);
      cells[cell]! += weight * completions;
    }
  }
  // A pair: the side's first two cards of one rank, 13 ranks of 4N cards each.
  const perRank = BigInt(4 * decks);
  const pairDeals = 13n * perRank * (perRank - 1n) * falling(shoe - 2, 4);
  return { decks, total: falling(shoe, 6), cells, pairDeals, tableau };
}

export interface CoupCounts {
  readonly banker: bigint;
  readonly player: bigint;
  readonly tie: bigint;
}

export type BaccaratBet =
  | 'banker'
  | 'player'
  | 'tie'
  | 'dragon_player'
  | 'dragon_banker'
  | 'player_pair'
  | 'banker_pair';

export interface BetReturn {
  /** Expected net result per unit staked, exact. */
  readonly expectedReturn: Fraction;
  /** The house edge: minus the expected return. */
  readonly houseEdge: Fraction;
  /** Whether the ruleset's layout has this bet (it is analysed either way). */
  readonly offered: boolean;
  /** Where the payout comes from. */
  readonly source: string;
}

export interface BaccaratAnalysis {
  readonly decks: number;
  readonly ruleset: string;
  readonly total: bigint;
  readonly outcomes: CoupCounts;
  readonly bets: Readonly<Record<BaccaratBet, BetReturn>>;
}

interface Cell {
  readonly player: number;
  readonly banker: number;
  readonly playerNatural: boolean;
  readonly bankerNatural: boolean;
  readonly count: bigint;
}

function cellsOf(deals: BaccaratDeals): Cell[] {
  const cells: Cell[] = [];
  deals.cells.forEach((count, index) => {
    if (count === 0n) return;
    cells.push({
      player: Math.floor(index / 40),
      banker: Math.floor(index / 4) % 10,
      playerNatural: (index & 2) !== 0,
      bankerNatural: (index & 1) !== 0,
      count,
    });
  });
  return cells;
}

export function coupCounts(deals: BaccaratDeals): CoupCounts {
  let banker = 0n;
  let player = 0n;
  let tie = 0n;
  for (const cell of cellsOf(deals)) {
    if (cell.banker > cell.player) banker += cell.count;
    else if (cell.player > cell.banker) player += cell.count;
    else tie += cell.count;
  }
  return { banker, player, tie };
}

const LOSE = Fraction.of(-1);

/** The Dragon Bonus result of one side (002 § 13.9; margin table per the ruleset). */
function dragonPayout(
  ruleset: PuntoBancoRuleset,
  own: number,
  other: number,
  ownNatural: boolean,
  otherNatural: boolean,
): Fraction {
  const rules = ruleset.dragonBonus;
  if (own === other) {
    return ownNatural && otherNatural ? Fraction.ofDecimal(rules.naturalTie) : LOSE;
  }
  if (own < other) return LOSE;
  if (ownNatural) return Fraction.ofDecimal(rules.natural);
  const margin = own - other;
  // The pay for the largest listed margin not above this one; below the smallest loses.
  let pays: number | undefined;
  let best = 0;
  for (const row of rules.margins) {
    if (row.margin <= margin && row.margin > best) {
      best = row.margin;
      pays = row.pays;
    }
  }
  return pays === undefined ? LOSE : Fraction.ofDecimal(pays);
}

/** Outcome counts and every bet's exact return under a Punto Banco ruleset. */
export function analyzeBaccarat(
  deals: BaccaratDeals,
  ruleset: PuntoBancoRuleset,
): BaccaratAnalysis {
  if (deals.tableau.bankerFiveDrawsOnSeven !== ruleset.tableau.bankerFiveDrawsOnSeven) {
    throw new AnalysisError(
      'bad_parameter',
      `the coups were enumerated with a Banker 5 ${deals.tableau.bankerFiveDrawsOnSeven ? 'drawing' : 'standing'} on a Player 7, ruleset ${ruleset.name} says otherwise: enumerate with its tableau`,
    );
  }
  const cells = cellsOf(deals);
  const payouts = ruleset.payouts;
  const onTie = Fraction.ofDecimal(payouts.mainBetsOnTie);
  const returnOf = (payout: (cell: Cell) => Fraction): Fraction =>
    expectation(
      cells.map((cell) => ({ count: cell.count, payout: payout(cell) })),
      deals.total,
    );
  const bet = (expectedReturn: Fraction, offered: boolean, source: string): BetReturn => ({
    expectedReturn,
    houseEdge: expectedReturn.negate(),
    offered,
    source,
  });
  const pairReturn = expectation(
    [
      { count: deals.pairDeals, payout: Fraction.ofDecimal(ruleset.pairs.pays) },
      { count: deals.total - deals.pairDeals, payout: LOSE },
    ],
    deals.total,
  );
  return {
    decks: deals.decks,
    ruleset: ruleset.name,
    total: deals.total,
    outcomes: coupCounts(deals),
    bets: {
      banker: bet(
        returnOf(({ player, banker }) => {
          if (banker === player) return onTie;
          if (banker < player) return LOSE;
          return Fraction.ofDecimal(banker === 6 ? payouts.banker.winOnSix : payouts.banker.win);
        }),
        true,
        payouts.source,
      ),
      player: bet(
        returnOf(({ player, banker }) =>
          player === banker ? onTie : player > banker ? Fraction.ofDecimal(payouts.player) : LOSE,
        ),
        true,
        payouts.source,
      ),
      tie: bet(
        returnOf(({ player, banker }) =>
          player === banker ? Fraction.ofDecimal(payouts.tie) : LOSE,
        ),
        true,
        payouts.source,
      ),
      dragon_player: bet(
        returnOf((c) =>
          dragonPayout(ruleset, c.player, c.banker, c.playerNatural, c.bankerNatural),
        ),
        ruleset.dragonBonus.offered,
        `${ruleset.dragonBonus.source}; margins: ${ruleset.dragonBonus.marginsSource}`,
      ),
      dragon_banker: bet(
        returnOf((c) =>
          dragonPayout(ruleset, c.banker, c.player, c.bankerNatural, c.playerNatural),
        ),
        ruleset.dragonBonus.offered,
        `${ruleset.dragonBonus.source}; margins: ${ruleset.dragonBonus.marginsSource}`,
      ),
      player_pair: bet(pairReturn, ruleset.pairs.offered, ruleset.pairs.source),
      banker_pair: bet(pairReturn, ruleset.pairs.offered, ruleset.pairs.source),
    },
  };
}

export { ratio };
