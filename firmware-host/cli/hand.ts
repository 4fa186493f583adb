import type { Command } from 'commander';
import type { DealtCard, RoundRun } from '../engine/round.ts';
import type { NextStep, Outcome, RoundSetup } from '../engine/types.ts';
import { outcomeDetailLines, roundForText } from '../games/cards/outcome-text.ts';

interface HandOptions {
  ruleset: string;
  cards: string;
  actions?: string;
  boxes?: string;
  dark?: string;
  stakes?: string;
  json?: boolean;
  /** Roulette: the winning number and the bet slip. */
  number?: string;
  bets?: string;
}

/**
 * `tableside hand`: deals one round from the given cards, in shoe order,
 * through the ruleset's engine (no burn, no shoe state) and prints who got
 * which card and the result of every bet. Generic over GameEngine: any game
 * in the engine registry works unchanged.
 */
export function register(program: Command): void {
  program
    .command('hand')
    .description('deal one round from given cards and print the outcome (settles disputes)')
    .requiredOption('--ruleset <name>', 'ruleset, as listed by `tableside rulesets`')
    .option('--cards <cards>', 'cards in shoe order, e.g. "9H 2C TD 7S" (card games)')
    .option('--number <n>', 'roulette: the winning number, 0-36')
    .option(
      '--bets <slip>',
      'roulette: bets as NAME=STAKE, e.g. "straight:17=10 split:17-20=5 voisins=9"',
    )
    .option(
      '--actions <decisions>',
      'decisions in order, SEAT:ACTION, e.g. "box1:double box2:stand"; a card drawn while a box decides is a hit',
    )
    .option('--boxes <list>', 'boxes in play, e.g. 1,3 (games with boxes; default 1)')
    .option(
      '--dark <list>',
      "boxes played dark, e.g. 2 (Russian poker, TDC casino hold'em): bets in before the deal, no decisions; each also in --boxes",
    )
    .option(
      '--stakes <list>',
      'stakes per bet for amount-dependent rules, e.g. "box:1.war=10 box:1.poker=20"',
    )
    .option('--json', 'print the outcome as JSON')
    .addHelpText(
      'after',
      `
Decisions (--actions): SEAT:ACTION separated by spaces, SEAT is boxN or dealer.
Actions: hit stand double split surrender insurance no_insurance even_money
(and the poker games' fold bet check raise exchange buy). Decisions are taken
in order as each seat comes to decide; when a seat is deciding and the next
decision listed is someone else's, the next card is that seat's hit, as at
the table where the shoe cannot see a decision. After a split, decisions apply
to the hand being played; dealer:next closes the insurance round (everyone
declines), as does simply dealing the next card.

Dark boxes (--dark, 004): a box played dark has its bets in before the deal
and makes no decision (no exchange, buy, call or fold); only the games that
offer it accept it (tdc-russian-poker, tdc-casino-holdem).

Examples:
  tableside hand --ruleset tdc-baccarat-no-commission --cards "9H 2C TD 7S"
  tableside hand --ruleset tdc-blackjack --boxes 1,2 --cards "TS 5H 6D 5C 7S 9H 3H TC" --actions "box1:stand box2:double"
  tableside hand --ruleset peru-triple-shot --cards "KH 7D 9H TC 2H 5H 3H 8C 4C 6S JD 2S" --actions box1:stand
  tableside hand --ruleset tdc-casino-holdem --boxes 1,2 --dark 2 --cards "AS KS 2C 7D QH QD 9S 4C TS 5H 3D" --actions box1:bet
  tableside hand --ruleset tdc-roulette --number 17 --bets "straight:17=10 split:17-20=5 red=10 voisins=9"

Roulette bets (--bets NAME=STAKE): straight:N, split:LOW-HIGH, street:FIRST
(trios street:0-1-2, street:0-2-3), corner:LOW-HIGH (first four corner:0-3),
sixline:FIRST or sixline:FIRST-LAST, dozen:1-3, column:1-3, red black even odd
low high; call bets neighbours:N, voisins, tiers, orphelins, zero-spiel,
complete:N (the stake a whole number of units). A bet that is not on the
layout, or a stake that does not fit, exits 2.`,
    )
    .action(async (options: HandOptions) => {
      try {
        // The ruleset's game says which verb settles its hand; an unknown name is runHand's to report.
        const { findGameOf } = await import('../games/registry.ts');
        await HAND_VERBS[findGameOf(options.ruleset)?.cliVerbs ?? 'cards'](options);
      } catch (error) {
        process.stderr.write(
          `tableside hand: ${error instanceof Error ? error.message : String(error)}\n`,
        );
        process.exitCode = 1;
      }
    });
}

/** Each game plug-in's `hand` verb, by the name its plug-in gives (`GamePlugin.cliVerbs`). */
const HAND_VERBS: Record<
  import('../games/game.ts').GamePlugin['cliVerbs'],
  (options: HandOptions) => Promise<void>
> = {
  cards: (options) => runHand(options),
  roulette: async (options) =>
    (await import('../games/roulette/cli/hand.ts')).runRouletteHand(options),
};

/** The shipped rulesets that offer dark boxes (004), for messages. */
const DARK_BOX_GAMES = "Russian poker and TDC casino hold'em";

async function runHand(options: HandOptions): Promise<void> {
  const [{ parseCards, isStandardCard }, { getRuleset }, { createEngine }, round] =
    await Promise.all([
      import('../../device-protocol/cards.ts'),
      import('../games/rulesets.ts'),
      import('../games/engines.ts'),
      import('../engine/round.ts'),
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
