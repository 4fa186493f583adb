/**
 * `tableside hand` for a card ruleset: deals one round from the given
 * cards, in shoe order, through the ruleset's engine (no burn, no shoe
 * state) and prints who got which card and the result of every bet.
 * Generic over GameEngine: any game in the engine registry works unchanged.
 */
import type { DealtCard, RoundRun } from '../../../engine/round.ts';
import type { NextStep, Outcome, RoundSetup } from '../../../engine/types.ts';
import type { HandOptions } from '../../game-cli.ts';
import { outcomeDetailLines, roundForText } from '../outcome-text.ts';

/** The shipped rulesets that offer dark boxes (004), for messages. */
const DARK_BOX_GAMES = "Russian poker and TDC casino hold'em";

export async function runCardHand(options: HandOptions): Promise<void> {
  const [{ parseCards, isStandardCard }, { getRuleset }, { createEngine }, round] =
    await Promise.all([
      import('../../../../device-protocol/cards.ts'),
      import('../../rulesets.ts'),
      import('../../engines.ts'),
      import('../../../engine/round.ts'),
    ]);
  const ruleset = getRuleset(options.ruleset);
  if (options.number !== undefined || options.bets !== undefined) {
    throw new Error(`--number and --bets are for roulette; ${ruleset.name} deals cards (--cards)`);
  }
  if (options.cards === undefined) {
    throw new Error(
      `--cards is required for ${ruleset.name}: the cards in shoe order, e.g. "9H 2C TD 7S"`,
    );
  }
  const cards = parseCards(options.cards).map((card) => {
    if (!isStandardCard(card))
      throw new Error(`${card}: a joker is a marker, it is never dealt to a hand`);
    return card;
  });
  if (cards.length === 0)
    throw new Error('--cards is empty: give the cards in shoe order, e.g. "9H 2C TD 7S"');
  const decisions = options.actions ? round.parseDecisions(options.actions) : [];
  // Some engines ignore a dark list they cannot use; a dispute must not be settled on that.
  const darkOffered = (ruleset as { darkBoxes?: { offered?: boolean } }).darkBoxes?.offered;
  if (options.dark !== undefined && darkOffered !== true) {
    throw new Error(`${ruleset.name} has no dark boxes (--dark is for ${DARK_BOX_GAMES})`);
  }
  const setup: RoundSetup = {
    ...(options.boxes === undefined ? {} : { boxes: parseBoxes(options.boxes, '--boxes') }),
    ...(options.dark === undefined ? {} : { dark: parseBoxes(options.dark, '--dark') }),
    ...(options.stakes === undefined ? {} : { stakes: parseStakes(options.stakes) }),
  };
  const engine = createEngine(ruleset);
  const run = round.playRound(engine, setup, cards, decisions);
  if (run.stoppedAt.kind !== 'complete') {
    const need = describeWaiting(run.stoppedAt);
    if (options.json) {
      process.stdout.write(
        `${JSON.stringify({ ruleset: ruleset.name, complete: false, next: run.stoppedAt, dealt: run.dealt }, null, 2)}\n`,
      );
    } else {
      process.stdout.write(formatDealt(run.dealt));
    }
    process.stderr.write(
      `tableside hand: the round is not complete after ${cards.length} cards: ${need}\n`,
    );
    process.exitCode = 1;
    return;
  }
  const outcome = engine.outcome(run.state);
  if (options.json) {
    process.stdout.write(
      `${JSON.stringify({ ruleset: ruleset.name, complete: true, ...outcome, dealt: run.dealt }, null, 2)}\n`,
    );
    return;
  }
  process.stdout.write(`ruleset ${ruleset.name} (${ruleset.game})\n`);
  process.stdout.write(formatDealt(run.dealt));
  process.stdout.write(formatOutcome(outcome, run));
}

function describeWaiting(step: NextStep): string {
  if (step.kind === 'card') {
    const hand = step.hand === undefined ? '' : ` hand ${step.hand + 1}`;
    return `the next card is for ${step.to}${hand}${step.purpose ? ` (${step.purpose})` : ''}, face ${step.face}`;
  }
  if (step.kind === 'decision') {
    const hand = step.hand === undefined ? '' : ` hand ${step.hand + 1}`;
    return `${step.seat}${hand} must decide: ${step.options.join(', ')} (give it with --actions, e.g. "${seatToken(step.seat)}:${step.options[0]}")`;
  }
  return 'complete';
}

function seatToken(seat: string): string {
  return seat.startsWith('box:') ? `box${seat.slice(4)}` : seat;
}

function parseBoxes(text: string, option: '--boxes' | '--dark'): number[] {
  const boxes = text
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((token) => {
      const box = Number(token);
      if (!Number.isInteger(box) || box < 1) {
        throw new Error(
          `bad box ${JSON.stringify(token)} in ${option}: expected box numbers like 1,3`,
        );
      }
      return box;
    });
  if (boxes.length === 0) throw new Error(`${option} is empty: give box numbers like 1,3`);
  return boxes;
}

function parseStakes(text: string): Record<string, number> {
  const stakes: Record<string, number> = {};
  for (const token of text.split(/[\s,;]+/).filter(Boolean)) {
    const match = /^([a-z0-9:._-]+)=(\d+(?:\.\d+)?)$/i.exec(token);
    if (!match)
      throw new Error(
        `bad stake ${JSON.stringify(token)} in --stakes: expected BET=AMOUNT like box:1.war=10`,
      );
    stakes[match[1]!] = Number(match[2]);
  }
  return stakes;
}

function formatDealt(dealt: readonly DealtCard[]): string {
  const lines = dealt.map((d, index) => {
    const to = `${d.to}${d.hand === undefined || d.hand === 0 ? '' : ` hand ${d.hand + 1}`}`;
    const notes = [
      d.face === 'down' ? 'face down' : '',
      d.implied ? `${d.implied} implied` : '',
      d.purpose ?? '',
    ]
      .filter(Boolean)
      .join('; ');
    return `  ${String(index + 1).padStart(2)}  ${d.card}  ${to.padEnd(14)}${notes}`;
  });
  return `cards\n${lines.join('\n')}\n`;
}

function formatResult(result: number): string {
  if (result === 0) return '0 (push)';
  if (result > 0) return `+${roundForText(result)} (wins ${roundForText(result)} × stake)`;
  return `${roundForText(result)} (loses${result === -1 ? '' : ` ${roundForText(-result)} ×`} stake)`;
}

function formatOutcome(outcome: Outcome, _run: RoundRun<unknown>): string {
  const lines: string[] = [];
  const detail = outcomeDetailLines(outcome);
  if (detail) {
    lines.push(...detail);
  } else {
    for (const [key, value] of Object.entries(outcome)) {
      if (key === 'game' || key === 'bets') continue;
      lines.push(`${key}: ${summarise(value)}`);
    }
  }
  const offered = Array.isArray(outcome.offered)
    ? new Set<string>(outcome.offered as string[])
    : undefined;
  lines.push('bets (result × stake)');
  const width = Math.max(...Object.keys(outcome.bets).map((name) => name.length));
  for (const [name, result] of Object.entries(outcome.bets)) {
    const absent = offered && !offered.has(name) ? '   [not on this layout]' : '';
    lines.push(`  ${name.padEnd(width)}  ${formatResult(result)}${absent}`);
  }
  return `${lines.join('\n')}\n`;
}

function summarise(value: unknown): string {
  if (Array.isArray(value) && value.every((item) => typeof item === 'object' && item !== null)) {
    return `\n${value.map((item) => `  ${JSON.stringify(item)}`).join('\n')}`;
  }
  return JSON.stringify(value);
}
