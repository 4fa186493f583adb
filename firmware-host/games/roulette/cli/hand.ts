/**
 * `tableside hand` for a roulette ruleset: settles a bet slip on a winning
 * number (`--number 17 --bets "straight:17=10 voisins=9"`). Bad input (a
 * number off the wheel, a bet off the layout, a stake that does not fit)
 * exits 2 with a message naming it, and prints no settlement.
 */
import type { SettledBet, SpinSettlement } from '../engine/settle.ts';

export interface RouletteHandOptions {
  ruleset: string;
  number?: string;
  bets?: string;
  json?: boolean;
  cards?: string;
  actions?: string;
  boxes?: string;
  dark?: string;
  stakes?: string;
}

/** The card-game options, which mean nothing at a wheel. */
const CARD_OPTIONS = ['cards', 'actions', 'boxes', 'dark', 'stakes'] as const;

/** Exit status of `hand` on roulette input it cannot settle. */
export const BAD_BET_EXIT = 2;

export async function runRouletteHand(options: RouletteHandOptions): Promise<void> {
  const [{ getRouletteRuleset }, { parseSlip }, { settleSpin }] = await Promise.all([
    import('../../rulesets.ts'),
    import('../engine/slip.ts'),
    import('../engine/settle.ts'),
  ]);
  const ruleset = getRouletteRuleset(options.ruleset);
  try {
    const stray = CARD_OPTIONS.filter((name) => options[name] !== undefined);
    if (stray.length > 0) {
      throw new Error(
        `${stray.map((name) => `--${name}`).join(', ')}: ${ruleset.name} is roulette, give --number and --bets instead`,
      );
    }
    if (options.number === undefined)
      throw new Error('--number is required for roulette: the winning number 0-36');
    if (!/^[0-9]{1,2}$/.test(options.number) || Number(options.number) > 36) {
      throw new Error(
        `--number ${JSON.stringify(options.number)}: no such pocket, numbers are 0-36`,
      );
    }
    if (options.bets === undefined)
      throw new Error('--bets is required for roulette, as --bets "straight:17=10 red=5"');
    const settlement = settleSpin(ruleset, Number(options.number), parseSlip(options.bets));
    process.stdout.write(
      options.json
        ? `${JSON.stringify(settlementJson(settlement), null, 2)}\n`
        : formatSettlement(ruleset.name, settlement),
    );
  } catch (error) {
    process.stderr.write(
      `tableside hand: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exitCode = BAD_BET_EXIT;
  }
}

function betJson(bet: SettledBet): Record<string, number> {
  return bet.returned === undefined
    ? { stake: bet.stake, net: bet.net }
    : { stake: bet.stake, net: bet.net, returned: bet.returned };
}

export function settlementJson(s: SpinSettlement) {
  const bets: Record<string, Record<string, number>> = {};
  for (const [name, bet] of Object.entries(s.bets)) bets[name] = betJson(bet);
  return { number: s.number, colour: s.colour, bets, net: s.net };
}

function signed(value: number): string {
  return value > 0 ? `+${value}` : String(value);
}

function formatSettlement(rulesetName: string, s: SpinSettlement): string {
  const lines = [`ruleset ${rulesetName} (roulette)`, `number ${s.number} ${s.colour}`, 'bets'];
  const width = Math.max(...Object.keys(s.bets).map((name) => name.length));
  for (const [name, bet] of Object.entries(s.bets)) {
    const returned =
      bet.returned === undefined ? '' : `  (${bet.returned} over the maximum returned)`;
    lines.push(
      `  ${name.padEnd(width)}  stake ${String(bet.stake).padStart(5)}  net ${signed(bet.net).padStart(6)}${returned}`,
    );
    if (bet.parts.length > 1) {
      for (const part of bet.parts) {
        const played = part.played === part.stake ? '' : ` (plays ${part.played})`;
        lines.push(
          `      ${part.bet.padEnd(14)} ${String(part.stake).padStart(4)}${played}  ${signed(part.net)}`,
        );
      }
    }
  }
  lines.push(`net ${signed(s.net)}`);
  return `${lines.join('\n')}\n`;
}
