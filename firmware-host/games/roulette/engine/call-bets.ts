/**
 * Call bets (003 § 12(1) items 8-9; 004 "Устные ставки"): neighbours, the
 * four series and complete bets. Each is a set of layout bets with a fixed
 * number of chips on each per unit; it is settled as those bets.
 */
import { EngineError } from '../../../engine/errors.ts';
import type { RouletteRuleset } from '../rulesets-schema.ts';
import { allLayoutBets, isOutside, type LayoutBet, parseLayoutBet } from './bets.ts';
import { checkPocket, wheelNeighbours } from './layout.ts';

export const SERIES = ['voisins', 'tiers', 'orphelins', 'zero-spiel'] as const;
export type SeriesName = (typeof SERIES)[number];
export const CALL_BETS = ['neighbours', ...SERIES, 'complete'] as const;

export interface Placement {
  readonly bet: LayoutBet;
  /** Chips on this bet per unit of the call bet. */
  readonly chips: number;
}

export interface CallBet {
  /** `neighbours:17`, `voisins`, `complete:17`. */
  readonly name: string;
  readonly placements: readonly Placement[];
  /** Chips a unit takes: the placements' sum. */
  readonly chips: number;
}

const SERIES_FIELD = {
  voisins: 'voisins',
  tiers: 'tiers',
  orphelins: 'orphelins',
  'zero-spiel': 'zeroSpiel',
} as const;

/** Other names for the call bets. */
const CALL_ALIASES: Readonly<Record<string, string>> = {
  neighbors: 'neighbours',
  'voisins-du-zero': 'voisins',
  'tiers-du-cylindre': 'tiers',
  'jeu-zero': 'zero-spiel',
};

function callWord(text: string): string {
  const word = text.split(':')[0]?.toLowerCase() ?? '';
  return CALL_ALIASES[word] ?? word;
}

export function isCallBetName(text: string): boolean {
  return (CALL_BETS as readonly string[]).includes(callWord(text));
}

/** Whether the ruleset takes the call bet (`neighbours`, a series, `complete`). */
export function callBetOffered(
  ruleset: RouletteRuleset,
  word: (typeof CALL_BETS)[number],
): boolean {
  return callBetRule(ruleset, word).offered;
}

/** The ruleset's rule for a call bet: whether offered, and its source. */
export function callBetRule(
  ruleset: RouletteRuleset,
  word: (typeof CALL_BETS)[number],
): { readonly offered: boolean; readonly source: string } {
  if (word === 'neighbours') return ruleset.neighbours;
  if (word === 'complete') return ruleset.complete;
  return ruleset[SERIES_FIELD[word]];
}

/** Layout bets named more than once are merged: two chips on the 0-2-3 trio are one bet of two chips. */
function merge(placements: readonly Placement[]): Placement[] {
  const byName = new Map<string, Placement>();
  for (const p of placements) {
    const seen = byName.get(p.bet.name);
    byName.set(p.bet.name, seen ? { bet: p.bet, chips: seen.chips + p.chips } : p);
  }
  return [...byName.values()];
}

function notOffered(text: string, ruleset: RouletteRuleset, source: string): EngineError {
  return new EngineError(
    'bad_input',
    `bet ${JSON.stringify(text)} is not offered at ${ruleset.name} (${source})`,
  );
}

function callBet(name: string, placements: readonly Placement[]): CallBet {
  const merged = merge(placements);
  return { name, placements: merged, chips: merged.reduce((sum, p) => sum + p.chips, 0) };
}

/** The call bet a name stands for; an error naming it when unknown, malformed or not offered. */
export function parseCallBet(ruleset: RouletteRuleset, text: string): CallBet {
  const [, argument, extra] = text.split(':');
  const word = callWord(text);
  const bad = (why: string) => new EngineError('bad_input', `bet ${JSON.stringify(text)}: ${why}`);
  if (extra !== undefined) throw bad('one ":" at most');
  if (word === 'neighbours' || word === 'complete') {
    if (argument === undefined || !/^[0-9]{1,2}$/.test(argument) || Number(argument) > 36) {
      throw bad(`${word} is named by its number 0-36, as ${word}:17`);
    }
    const number = checkPocket(Number(argument));
    if (word === 'neighbours') {
      const rule = ruleset.neighbours;
      if (!rule.offered) throw notOffered(text, ruleset, rule.source);
      const numbers = wheelNeighbours(ruleset, number, rule.eachSide);
      return callBet(
        `neighbours:${number}`,
        numbers.map((n) => ({ bet: parseLayoutBet(ruleset, `straight:${n}`), chips: 1 })),
      );
    }
    if (!ruleset.complete.offered) throw notOffered(text, ruleset, ruleset.complete.source);
    return callBet(`complete:${number}`, completePlacements(ruleset, number));
  }
  if ((SERIES as readonly string[]).includes(word)) {
    if (argument !== undefined) throw bad(`${word} takes no number`);
    const rule = ruleset[SERIES_FIELD[word as SeriesName]];
    if (!rule.offered) throw notOffered(text, ruleset, rule.source);
    return callBet(
      word,
      rule.placements.map((p) => ({ bet: parseLayoutBet(ruleset, p.bet), chips: p.chips })),
    );
  }
  throw bad(`not a call bet; the call bets are ${CALL_BETS.join(', ')}`);
}

/** Every inside bet touching the number, each with as many chips as the numbers it covers. */
export function completePlacements(ruleset: RouletteRuleset, number: number): Placement[] {
  return allLayoutBets(ruleset)
    .filter((bet) => !isOutside(bet.kind) && bet.numbers.includes(number))
    .map((bet) => ({ bet, chips: bet.numbers.length }));
}

/** Whether every series' placements are bets on the ruleset's layout; the problem, or null. */
export function checkCallBets(ruleset: RouletteRuleset): string | null {
  for (const [word, field] of Object.entries(SERIES_FIELD)) {
    for (const p of ruleset[field].placements) {
      try {
        const bet = parseLayoutBet(ruleset, p.bet);
        if (isOutside(bet.kind)) return `${field}: ${p.bet} is an outside bet`;
      } catch (error) {
        return `${word}: ${(error as Error).message}`;
      }
    }
  }
  return null;
}
