/**
 * The bets of the layout, by name. A name is how `tableside hand` and the
 * call bets' placements write a bet: `straight:17`, `split:17-20`,
 * `street:16` (or `street:16-18`, and the trios `street:0-1-2`,
 * `street:0-2-3`), `corner:13-17` (lowest and highest; the first four is
 * `corner:0-3`), `sixline:13` or `sixline:13-18`, `dozen:2`, `column:2`,
 * `red`, `black`, `even`, `odd`, `low`, `high`. A name that is not a bet
 * on the layout is an error naming it.
 */
import { EngineError } from '../../../engine/errors.ts';
import type { RouletteRuleset } from '../rulesets-schema.ts';
import { columnOf } from './layout.ts';

export type InsideKind = 'straight' | 'split' | 'street' | 'corner' | 'sixline';
export type OutsideKind = 'dozen' | 'column' | 'red' | 'black' | 'even' | 'odd' | 'low' | 'high';
export type LayoutKind = InsideKind | OutsideKind;

/** Which payout and which maximum a bet kind uses. */
export type PayClass = InsideKind | 'dozen' | 'column' | 'evenChance';

export interface LayoutBet {
  /** The canonical name: `split:17-20`, `street:16`, `street:0-2-3`, `corner:0-3`, `red`. */
  readonly name: string;
  readonly kind: LayoutKind;
  /** The numbers the bet wins on, ascending. */
  readonly numbers: readonly number[];
}

export const EVEN_CHANCES = ['red', 'black', 'even', 'odd', 'low', 'high'] as const;
const NUMBERED = ['straight', 'split', 'street', 'corner', 'sixline', 'dozen', 'column'] as const;

export function payClass(kind: LayoutKind): PayClass {
  return (EVEN_CHANCES as readonly string[]).includes(kind) ? 'evenChance' : (kind as PayClass);
}

export function isOutside(kind: LayoutKind): kind is OutsideKind {
  return (
    payClass(kind) === 'dozen' || payClass(kind) === 'column' || payClass(kind) === 'evenChance'
  );
}

function offLayout(text: string, why: string): EngineError {
  return new EngineError('bad_input', `bet ${JSON.stringify(text)} is not on the layout: ${why}`);
}

function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let n = from; n <= to; n++) out.push(n);
  return out;
}

function numbersOf(text: string, argument: string): number[] {
  if (!/^[0-9]{1,2}(-[0-9]{1,2})*$/.test(argument)) {
    throw offLayout(text, 'expected numbers like 17 or 17-20');
  }
  const numbers = argument.split('-').map(Number);
  for (const n of numbers) if (n > 36) throw offLayout(text, `there is no number ${n}`);
  return numbers;
}

/** 1-36 in the same row of three and next to each other, or one above the other. */
function adjacent(a: number, b: number): boolean {
  return (b === a + 1 && columnOf(a) !== 3) || b === a + 3;
}

function outsideNumbers(kind: OutsideKind, which: number): number[] {
  const all = range(1, 36);
  switch (kind) {
    case 'dozen':
      return range(12 * (which - 1) + 1, 12 * which);
    case 'column':
      return all.filter((n) => columnOf(n) === which);
    case 'red':
    case 'black':
      return all; // filtered by colour in parseLayoutBet, which has the ruleset
    case 'even':
      return all.filter((n) => n % 2 === 0);
    case 'odd':
      return all.filter((n) => n % 2 === 1);
    case 'low':
      return range(1, 18);
    case 'high':
      return range(19, 36);
  }
}

/** Other names a croupier uses for a layout bet (the French of the European table, the trios by name). */
const ALIASES: Readonly<Record<string, string>> = {
  'trio:0-1-2': 'street:0-1-2',
  'trio:0-2-3': 'street:0-2-3',
  'first-four': 'corner:0-3',
  rouge: 'red',
  noir: 'black',
  pair: 'even',
  impair: 'odd',
  manque: 'low',
  passe: 'high',
  '1-18': 'low',
  '19-36': 'high',
};

/** The layout bet a name stands for; an error naming it when the layout has no such bet. */
export function parseLayoutBet(ruleset: RouletteRuleset, written: string): LayoutBet {
  const text = ALIASES[written.toLowerCase()] ?? written;
  const [word = '', argument, extra] = text.split(':');
  if (extra !== undefined) throw offLayout(text, 'one ":" at most');
  const kind = word.toLowerCase();
  if ((EVEN_CHANCES as readonly string[]).includes(kind)) {
    if (argument !== undefined) throw offLayout(text, `${kind} takes no numbers`);
    const red = new Set(ruleset.wheel.red);
    let numbers = outsideNumbers(kind as OutsideKind, 0);
    if (kind === 'red') numbers = numbers.filter((n) => red.has(n));
    if (kind === 'black') numbers = numbers.filter((n) => !red.has(n));
    return { name: kind, kind: kind as OutsideKind, numbers };
  }
  if (!(NUMBERED as readonly string[]).includes(kind)) {
    throw offLayout(
      text,
      `unknown bet ${JSON.stringify(word)}; the layout has ${[...NUMBERED, ...EVEN_CHANCES].join(', ')}`,
    );
  }
  if (argument === undefined)
    throw offLayout(
      text,
      `${kind} needs its numbers, as ${kind}:${kind === 'dozen' || kind === 'column' ? '2' : '17'}`,
    );
  const given = numbersOf(text, argument);
  const first = Math.min(...given);
  const last = Math.max(...given);
  switch (kind) {
    case 'straight': {
      if (given.length !== 1) throw offLayout(text, 'a straight is one number');
      return { name: `straight:${first}`, kind, numbers: [first] };
    }
    case 'split': {
      if (given.length !== 2 || first === last) throw offLayout(text, 'a split is two numbers');
      const ok = first === 0 ? last <= 3 : adjacent(first, last);
      if (!ok) throw offLayout(text, `${first} and ${last} do not touch on the layout`);
      return { name: `split:${first}-${last}`, kind, numbers: [first, last] };
    }
    case 'street': {
      if (first === 0) {
        const trio = given.length === 3 ? [...given].sort((a, b) => a - b).join('-') : '';
        if (trio !== '0-1-2' && trio !== '0-2-3') {
          throw offLayout(text, 'the streets with zero are 0-1-2 and 0-2-3');
        }
        if (!ruleset.layout.trios) throw offLayout(text, `${ruleset.name} has no trios`);
        return { name: `street:${trio}`, kind, numbers: trio.split('-').map(Number) };
      }
      const named = given.length === 1 || (given.length === 2 && last === first + 2);
      if (!named || columnOf(first) !== 1) {
        throw offLayout(
          text,
          'a street is named by its first number (1, 4, ..., 34), as street:16',
        );
      }
      return { name: `street:${first}`, kind, numbers: range(first, first + 2) };
    }
    case 'corner': {
      if (given.length !== 2)
        throw offLayout(text, 'a corner is named by its lowest and highest numbers');
      if (first === 0 && last === 3) {
        if (!ruleset.layout.firstFour) throw offLayout(text, `${ruleset.name} has no first four`);
        return { name: 'corner:0-3', kind, numbers: [0, 1, 2, 3] };
      }
      if (first === 0 || last !== first + 4 || columnOf(first) === 3) {
        throw offLayout(
          text,
          'a corner is named by its lowest and highest numbers, as corner:13-17',
        );
      }
      return {
        name: `corner:${first}-${last}`,
        kind,
        numbers: [first, first + 1, first + 3, last],
      };
    }
    case 'sixline': {
      const named = given.length === 1 || (given.length === 2 && last === first + 5);
      if (!named || first === 0 || columnOf(first) !== 1 || first > 31) {
        throw offLayout(
          text,
          'a six line is named by its first number (1, 4, ..., 31), as sixline:13 or sixline:13-18',
        );
      }
      return { name: `sixline:${first}`, kind, numbers: range(first, first + 5) };
    }
    case 'dozen':
    case 'column': {
      if (given.length !== 1 || first < 1 || first > 3) {
        throw offLayout(text, `a ${kind} is 1, 2 or 3`);
      }
      return { name: `${kind}:${first}`, kind, numbers: outsideNumbers(kind, first) };
    }
    default:
      throw offLayout(text, `unknown bet ${JSON.stringify(word)}`);
  }
}

/** Every bet on the layout, each once (for the analysis and the property tests). */
export function allLayoutBets(ruleset: RouletteRuleset): LayoutBet[] {
  const names: string[] = [];
  for (let n = 0; n <= 36; n++) names.push(`straight:${n}`);
  for (const last of [1, 2, 3]) names.push(`split:0-${last}`);
  for (let n = 1; n <= 36; n++) {
    if (columnOf(n) !== 3) names.push(`split:${n}-${n + 1}`);
    if (n <= 33) names.push(`split:${n}-${n + 3}`);
  }
  if (ruleset.layout.trios) names.push('street:0-1-2', 'street:0-2-3');
  for (let n = 1; n <= 34; n += 3) names.push(`street:${n}`);
  if (ruleset.layout.firstFour) names.push('corner:0-3');
  for (let n = 1; n <= 32; n++) if (columnOf(n) !== 3) names.push(`corner:${n}-${n + 4}`);
  for (let n = 1; n <= 31; n += 3) names.push(`sixline:${n}`);
  for (const which of [1, 2, 3]) names.push(`dozen:${which}`, `column:${which}`);
  names.push(...EVEN_CHANCES);
  return names.map((name) => parseLayoutBet(ruleset, name));
}
