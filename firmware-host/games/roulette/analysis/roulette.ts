/**
 * Roulette's exact house edges: every bet is settled on each of the 37
 * numbers (each equally likely on a fair wheel) by the same settlement code
 * the table uses, and the mean net per chip staked is an exact fraction.
 * Bet types with several instances (every split, every complete bet) are
 * settled in every instance; when the instances disagree (a ruleset with
 * uneven payouts) the range is reported.
 */

import { Fraction } from '../../../analysis/exact.ts';
import { allLayoutBets, type LayoutBet, payClass } from '../engine/bets.ts';
import { CALL_BETS, callBetRule, parseCallBet } from '../engine/call-bets.ts';
import { POCKETS } from '../engine/layout.ts';
import { layoutBetNet } from '../engine/settle.ts';
import type { RouletteRuleset } from '../rulesets-schema.ts';

export interface RouletteBetEdge {
  /** `straight`, `split`, `street`, `trio`, `first-four`, ..., `voisins`, `complete`. */
  readonly bet: string;
  /** How many distinct bets of the type there are. */
  readonly instances: number;
  /** Chips one unit of the bet takes (1 for a layout bet, 9 for voisins); lowest and highest where instances differ (complete: 17..40). */
  readonly chips: number | readonly [number, number];
  /** Payout to one, for a layout bet; null for a call bet (paid per part). */
  readonly pays: number | null;
  /** Chance of winning (a layout bet); null for a call bet. */
  readonly winProbability: Fraction | null;
  /** Mean net per chip staked: -houseEdge. */
  readonly expectedReturn: Fraction;
  readonly houseEdge: Fraction;
  /** Present when the instances' edges differ. */
  readonly range?: { readonly lowest: Fraction; readonly highest: Fraction };
  readonly source: string;
}

export interface RouletteAnalysis {
  readonly ruleset: string;
  readonly pockets: number;
  readonly bets: readonly RouletteBetEdge[];
}

/** A placement: a layout bet with whole chips. */
interface Part {
  readonly bet: LayoutBet;
  readonly chips: number;
}

function netFraction(net: number): Fraction {
  // Nets are whole chips or halves (la partage).
  return new Fraction(BigInt(Math.round(net * 2)), 2n);
}

/** The mean net per chip staked of one bet made of `parts`, over the 37 numbers. */
export function expectedReturnOf(ruleset: RouletteRuleset, parts: readonly Part[]): Fraction {
  let sum = new Fraction(0n);
  let staked = 0;
  for (const part of parts) staked += part.chips;
  for (let number = 0; number < POCKETS; number++) {
    for (const part of parts)
      sum = sum.plus(netFraction(layoutBetNet(ruleset, part.bet, part.chips, number)));
  }
  return sum.times(new Fraction(1n, BigInt(POCKETS * staked)));
}

function typeOf(bet: LayoutBet): string {
  if (bet.name === 'corner:0-3') return 'first-four';
  if (bet.kind === 'street' && bet.numbers.includes(0)) return 'trio';
  return bet.kind;
}

function summarise(
  bet: string,
  instances: readonly (readonly Part[])[],
  ruleset: RouletteRuleset,
  layout: LayoutBet | null,
  source: string,
): RouletteBetEdge {
  const returns = instances.map((parts) => expectedReturnOf(ruleset, parts));
  const first = returns[0] as Fraction;
  const value = (f: Fraction) => f.toNumber();
  const sorted = [...returns].sort((a, b) => value(a) - value(b));
  const lowestReturn = sorted[0] as Fraction;
  const highestReturn = sorted[sorted.length - 1] as Fraction;
  const sizes = instances.map((parts) => parts.reduce((sum, p) => sum + p.chips, 0));
  const fewest = Math.min(...sizes);
  const most = Math.max(...sizes);
  const chips: RouletteBetEdge['chips'] = fewest === most ? fewest : [fewest, most];
  const edge: RouletteBetEdge = {
    bet,
    instances: instances.length,
    chips,
    pays: layout ? ruleset.payouts[payClass(layout.kind)] : null,
    winProbability: layout ? new Fraction(BigInt(layout.numbers.length), BigInt(POCKETS)) : null,
    expectedReturn: first,
    houseEdge: first.negate(),
    source,
  };
  if (lowestReturn.toString() === highestReturn.toString()) return edge;
  return { ...edge, range: { lowest: highestReturn.negate(), highest: lowestReturn.negate() } };
}

/** Every bet type the ruleset offers, with its exact house edge. */
export function analyzeRoulette(ruleset: RouletteRuleset): RouletteAnalysis {
  const byType = new Map<string, LayoutBet[]>();
  for (const bet of allLayoutBets(ruleset)) {
    const type = typeOf(bet);
    byType.set(type, [...(byType.get(type) ?? []), bet]);
  }
  const bets: RouletteBetEdge[] = [];
  for (const [type, layoutBets] of byType) {
    const example = layoutBets[0] as LayoutBet;
    bets.push(
      summarise(
        type,
        layoutBets.map((bet) => [{ bet, chips: 1 }]),
        ruleset,
        example,
        ruleset.payouts.source,
      ),
    );
  }
  for (const word of CALL_BETS) {
    const names =
      word === 'neighbours' || word === 'complete'
        ? Array.from({ length: POCKETS }, (_, n) => `${word}:${n}`)
        : [word];
    const rule = callBetRule(ruleset, word);
    if (!rule.offered) continue;
    const instances = names.map((name) => [...parseCallBet(ruleset, name).placements]);
    bets.push(summarise(word, instances, ruleset, null, rule.source));
  }
  return { ruleset: ruleset.name, pockets: POCKETS, bets };
}
