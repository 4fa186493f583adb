/**
 * Settling a spin: what each bet on the slip wins or loses on the winning
 * number. A layout bet wins its payout "to one" when the number is among
 * its numbers; zero takes the outside bets (or half of an even chance under
 * la partage); a call bet is settled as the layout bets it is made of.
 * A stake over its maximum plays the maximum and the rest is returned
 * (004), or is refused, as the ruleset says. Everything is checked before
 * anything is settled: a bad bet leaves no partial result.
 */
import { EngineError } from '../../../engine/errors.ts';
import type { RouletteRuleset } from '../rulesets-schema.ts';
import { type LayoutBet, parseLayoutBet, payClass } from './bets.ts';
import { isCallBetName, parseCallBet } from './call-bets.ts';
import { type Colour, checkPocket, colourOf } from './layout.ts';
import type { SlipLine } from './slip.ts';

/** One layout bet with its stake, as placed on the table. */
export interface PlacedBet {
  readonly bet: LayoutBet;
  readonly stake: number;
}

/** A slip line resolved to the layout bets it stands for. */
export interface ResolvedLine {
  readonly text: string;
  readonly stake: number;
  readonly parts: readonly PlacedBet[];
  readonly callBet: boolean;
}

export interface SettledPart {
  readonly bet: string;
  readonly stake: number;
  /** What stayed in play after the maximum. */
  readonly played: number;
  readonly net: number;
}

export interface SettledBet {
  readonly stake: number;
  /** The chips the player wins; negative when lost. Returned chips are not counted. */
  readonly net: number;
  /** Chips over the maximum handed back (004); absent when none. */
  readonly returned?: number;
  readonly parts: readonly SettledPart[];
}

export interface SpinSettlement {
  readonly number: number;
  readonly colour: Colour;
  readonly bets: Readonly<Record<string, SettledBet>>;
  readonly net: number;
}

function maximumOf(ruleset: RouletteRuleset, bet: LayoutBet): number {
  return ruleset.limits.maximum[payClass(bet.kind)];
}

/** The slip line as layout bets; an error naming the bet when it is not on the layout or its stake does not fit. */
export function resolveLine(ruleset: RouletteRuleset, line: SlipLine): ResolvedLine {
  const stake = line.stake;
  if (!Number.isInteger(stake) || stake < 1) {
    throw new EngineError(
      'bad_input',
      `bet ${JSON.stringify(line.bet)}: the stake must be whole chips above 0`,
    );
  }
  let parts: PlacedBet[];
  let callBet = false;
  if (isCallBetName(line.bet)) {
    const call = parseCallBet(ruleset, line.bet);
    if (stake % call.chips !== 0) {
      throw new EngineError(
        'bad_input',
        `bet ${JSON.stringify(line.bet)}: ${call.name} takes ${call.chips} chips a unit; a stake of ${stake} is not a whole number of units`,
      );
    }
    const unit = stake / call.chips;
    parts = call.placements.map((p) => ({ bet: p.bet, stake: p.chips * unit }));
    callBet = true;
  } else {
    parts = [{ bet: parseLayoutBet(ruleset, line.bet), stake }];
  }
  for (const part of parts) {
    if (part.stake < ruleset.limits.minimum) {
      throw new EngineError(
        'bad_input',
        `bet ${JSON.stringify(line.bet)}: ${part.bet.name} has ${part.stake} chips, under the minimum of ${ruleset.limits.minimum}`,
      );
    }
    const maximum = maximumOf(ruleset, part.bet);
    if (part.stake > maximum && ruleset.limits.overMaximum === 'refuse') {
      throw new EngineError(
        'bad_input',
        `bet ${JSON.stringify(line.bet)}: ${part.bet.name} has ${part.stake} chips, over the maximum of ${maximum} (${ruleset.limits.overMaximumSource})`,
      );
    }
  }
  return { text: line.bet, stake, parts, callBet };
}

/** What a layout bet with `played` chips in play nets on the number. */
export function layoutBetNet(
  ruleset: RouletteRuleset,
  bet: LayoutBet,
  played: number,
  number: number,
): number {
  if (bet.numbers.includes(number)) return played * ruleset.payouts[payClass(bet.kind)];
  if (
    number === 0 &&
    payClass(bet.kind) === 'evenChance' &&
    ruleset.zero.outsideBets === 'la_partage'
  ) {
    return -played / 2;
  }
  return -played;
}

function settlePart(ruleset: RouletteRuleset, part: PlacedBet, number: number): SettledPart {
  const played = Math.min(part.stake, maximumOf(ruleset, part.bet));
  return {
    bet: part.bet.name,
    stake: part.stake,
    played,
    net: layoutBetNet(ruleset, part.bet, played, number),
  };
}

export function settleLine(
  ruleset: RouletteRuleset,
  line: ResolvedLine,
  number: number,
): SettledBet {
  const parts = line.parts.map((part) => settlePart(ruleset, part, number));
  const net = parts.reduce((sum, p) => sum + p.net, 0);
  const returned = parts.reduce((sum, p) => sum + (p.stake - p.played), 0);
  return returned > 0
    ? { stake: line.stake, net, returned, parts }
    : { stake: line.stake, net, parts };
}

/** Settles a slip on the winning number; throws (settling nothing) when any bet is bad. */
export function settleSpin(
  ruleset: RouletteRuleset,
  number: number,
  slip: readonly SlipLine[],
): SpinSettlement {
  checkPocket(number);
  const lines = slip.map((line) => resolveLine(ruleset, line));
  const bets: Record<string, SettledBet> = {};
  let net = 0;
  for (const line of lines) {
    if (Object.hasOwn(bets, line.text)) {
      throw new EngineError('bad_input', `bet ${JSON.stringify(line.text)} is given twice`);
    }
    const settled = settleLine(ruleset, line, number);
    bets[line.text] = settled;
    net += settled.net;
  }
  return { number, colour: colourOf(ruleset, number), bets, net };
}
