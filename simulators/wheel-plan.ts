/**
 * What a simulated roulette wheel does, game by game: pure and seeded.
 * A legal game is the croupier spinning the rotor the other way from the
 * last spin (003 § 11(4)), launching the ball against it (003 § 11(1)),
 * closing the betting (003 § 11(2)) and the ball coming to rest after
 * enough revolutions. Faults are switched on for one game each
 * (`NAME=G`, G the 1-based game), several at once if wanted:
 *
 * - `same-direction=G`: the rotor turns the same way as the last spin (G ≥ 2);
 * - `ball-with-rotor=G`: the ball is thrown the same way as the rotor;
 * - `few-revolutions=G`: the ball makes fewer revolutions than the minimum;
 * - `chip=G`: a chip falls into the wheel: a no-spin (`foreign_object`);
 * - `dropped-ball=G`: the ball is dropped without a launch: a result with no spin;
 * - `misread=G`: the ball-position reader reports 37, then reads again;
 * - `no-close=G`: the ball drops with the betting never closed;
 * - `noise=G`: a burst of line noise before the result.
 */
import { SimulatorError } from './errors.ts';
import type { Random } from './random.ts';

export type Direction = 'cw' | 'ccw';

export type WheelStep =
  | { readonly kind: 'rotor'; readonly direction: Direction; readonly rpm: number }
  | { readonly kind: 'ball'; readonly direction: Direction }
  | { readonly kind: 'no_more_bets' }
  | { readonly kind: 'result'; readonly number: number; readonly revolutions: number }
  /** A RESULT the codec would refuse (number 37): sent raw, as a faulty reader would. */
  | { readonly kind: 'misread'; readonly revolutions: number }
  | { readonly kind: 'no_spin'; readonly reason: string }
  | { readonly kind: 'noise'; readonly bytes: number };

export interface WheelGame {
  readonly game: number;
  readonly steps: readonly WheelStep[];
  /** Where the ball came to rest; undefined for a no-spin. */
  readonly number: number | undefined;
  /** The rotor direction of this game's spin, where the rotor turned. */
  readonly rotor: Direction | undefined;
  /** The faults of this game, by name. */
  readonly faults: readonly WheelFaultName[];
}

export const WHEEL_FAULTS = [
  'same-direction',
  'ball-with-rotor',
  'few-revolutions',
  'chip',
  'dropped-ball',
  'misread',
  'no-close',
  'noise',
] as const;
export type WheelFaultName = (typeof WHEEL_FAULTS)[number];

export const WHEEL_FAULT_SUMMARIES: Readonly<Record<WheelFaultName, string>> = {
  'same-direction': 'the rotor turns the same way as the previous spin (003 § 11(4)); G ≥ 2',
  'ball-with-rotor': 'the ball is thrown the same way as the rotor (003 § 11(1))',
  'few-revolutions': 'the ball makes fewer revolutions than the minimum',
  chip: 'a chip falls into the wheel: the wheel reports a no-spin (003 § 11(5))',
  'dropped-ball': 'the ball is dropped without a launch: a result with no spin (003 § 11(5))',
  misread: 'the ball-position reader reports the impossible number 37, then reads again',
  'no-close': 'the ball drops while the betting is still open (003 § 11(2))',
  noise: 'a burst of line noise before the result',
};

export function isWheelFault(name: string): name is WheelFaultName {
  return (WHEEL_FAULTS as readonly string[]).includes(name);
}

/** Parses `NAME=G` for a wheel fault; the error names what was wrong. */
export function parseWheelFault(spec: string): { name: WheelFaultName; game: number } {
  const at = spec.indexOf('=');
  const name = at < 0 ? spec : spec.slice(0, at);
  const arg = at < 0 ? '' : spec.slice(at + 1);
  if (!isWheelFault(name)) {
    throw new SimulatorError(
      'bad_fault',
      `unknown wheel fault ${JSON.stringify(name)}: expected one of ${WHEEL_FAULTS.join(', ')}`,
    );
  }
  if (!/^[1-9][0-9]{0,5}$/.test(arg)) {
    throw new SimulatorError(
      'bad_fault',
      `bad argument ${JSON.stringify(arg)} for ${name}: expected G, the 1-based game (e.g. ${name}=3)`,
    );
  }
  return { name, game: Number(arg) };
}

const opposite = (direction: Direction): Direction => (direction === 'cw' ? 'ccw' : 'cw');

export interface PlanGameOptions {
  readonly game: number;
  /** The rotor direction of the previous spin; undefined before the first. */
  readonly lastRotor: Direction | undefined;
  readonly faults: readonly WheelFaultName[];
  /** The ruleset's minimum ball revolutions: legal spins make at least this many. */
  readonly minRevolutions: number;
  readonly random: Random;
}

/** One game of the wheel. Pure: the same options and random state give the same game. */
export function planWheelGame(options: PlanGameOptions): WheelGame {
  const { game, faults, random, minRevolutions } = options;
  const has = (name: WheelFaultName) => faults.includes(name);
  const first = random.chance(0.5) ? 'cw' : 'ccw';
  const legalRotor = options.lastRotor === undefined ? first : opposite(options.lastRotor);
  const rotor = has('same-direction') && options.lastRotor ? options.lastRotor : legalRotor;
  const ball = has('ball-with-rotor') ? rotor : opposite(rotor);
  const rpm = 20 + random.int(120) / 10;
  const low = Math.max(minRevolutions, 6);
  const revolutions = has('few-revolutions')
    ? Math.max(0, minRevolutions - 1 - random.int(Math.min(2, minRevolutions)))
    : low + random.int(15);
  const number = random.int(37);
  const steps: WheelStep[] = [{ kind: 'rotor', direction: rotor, rpm }];
  if (!has('dropped-ball')) steps.push({ kind: 'ball', direction: ball });
  if (!has('no-close')) steps.push({ kind: 'no_more_bets' });
  if (has('chip')) {
    steps.push({ kind: 'no_spin', reason: 'foreign_object' });
    return { game, steps, number: undefined, rotor, faults };
  }
  if (has('noise')) steps.push({ kind: 'noise', bytes: 48 + random.int(80) });
  if (has('misread')) steps.push({ kind: 'misread', revolutions });
  steps.push({ kind: 'result', number, revolutions });
  return { game, steps, number, rotor, faults };
}
