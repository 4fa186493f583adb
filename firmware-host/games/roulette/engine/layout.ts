/**
 * The single-zero wheel and the layout's geometry, as pure functions of
 * the ruleset's wheel (order and red numbers). Numbers are 0-36; on the
 * layout 1-36 run in twelve rows of three (1 2 3, 4 5 6, ...), zero above.
 */
import { EngineError } from '../../../engine/errors.ts';
import type { RouletteRuleset } from '../rulesets-schema.ts';

export type Colour = 'red' | 'black' | 'green';

export const POCKETS = 37;

export function isPocket(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 36;
}

/** The number as a pocket, or an error naming it. */
export function checkPocket(value: number): number {
  if (!isPocket(value)) {
    throw new EngineError(
      'bad_input',
      `no pocket ${value} on a single-zero wheel: numbers are 0-36`,
    );
  }
  return value;
}

export function colourOf(ruleset: RouletteRuleset, number: number): Colour {
  checkPocket(number);
  if (number === 0) return 'green';
  return ruleset.wheel.red.includes(number) ? 'red' : 'black';
}

/** Where a number sits on the wheel: its index in the clockwise order from zero. */
export function wheelIndex(ruleset: RouletteRuleset, number: number): number {
  return ruleset.wheel.order.indexOf(checkPocket(number));
}

/** The number and `eachSide` numbers either side on the wheel, clockwise from the first. */
export function wheelNeighbours(
  ruleset: RouletteRuleset,
  number: number,
  eachSide: number,
): number[] {
  const order = ruleset.wheel.order;
  const at = wheelIndex(ruleset, number);
  const out: number[] = [];
  for (let step = -eachSide; step <= eachSide; step++) {
    out.push(order[(at + step + POCKETS) % POCKETS] as number);
  }
  return out;
}

/** The layout column of 1-36: 1 for 1 4 7 ..., 2 for 2 5 8 ..., 3 for 3 6 9 .... */
export function columnOf(number: number): 1 | 2 | 3 {
  return (((number - 1) % 3) + 1) as 1 | 2 | 3;
}
