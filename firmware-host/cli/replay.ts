/**
 * `tableside replay FILE --ruleset NAME [--json]`: feeds a table log (one
 * JSON record per line) through the table session and prints the events.
 * How a supervisor reconstructs a disputed hand card by card (001 § 11)
 * and a technician checks a captured session. Exit 0 whenever the log was
 * read, whatever it holds; a malformed line is reported on stderr with its
 * number and skipped.
 */
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { describeRouletteEvent } from '../games/roulette/text.ts';
import type { DomainEvent } from '../table/events.ts';

interface ReplayOptions {
  readonly ruleset: string;
  readonly json?: boolean;
  readonly autoRound?: boolean;
}

export function register(program: Command): void {
  program
    .command('replay')
    .description('feed a table log through the table session and print its events')
    .argument('<file>', 'table log, one JSON record per line ("-" for stdin)')
    .requiredOption('-r, --ruleset <name>', 'ruleset the table plays (see `tableside rulesets`)')
    .option('--json', 'print events as JSON lines (each with the log line it came from)')
    .option('--auto-round', 'Punto Banco: a card between coups starts the next coup')
    .addHelpText(
      'after',
      '\nExamples:\n  tableside replay shift.log --ruleset bulgaria-punto-banco\n  tableside replay shift.log --ruleset tdc-blackjack --json | jq \'select(.type=="alarm")\'',
    )
    .action(async (file: string, options: ReplayOptions) => {
      process.exitCode = await replay(file, options);
    });
}

async function readLog(file: string): Promise<string> {
  if (file !== '-') return readFile(file, 'utf8');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function replay(file: string, options: ReplayOptions): Promise<number> {
  const { gameOf } = await import('../games/registry.ts');
  const { parseRecord } = await import('../games/table-session.ts');
  const { isTableError } = await import('../table/errors.ts');
  const { isEngineError } = await import('../engine/errors.ts');
  // Any game's table: the ruleset's plug-in opens its session.
  let session: import('../games/game.ts').GameSession;
  try {
    session = gameOf(options.ruleset).openSession(options.ruleset, {
      autoRound: options.autoRound === true,
    });
  } catch (error) {
    process.stderr.write(`tableside replay: ${(error as Error).message}\n`);
    return isTableError(error) || isEngineError(error) ? 2 : 1;
  }
  let text: string;
  try {
    text = await readLog(file);
  } catch (error) {
    process.stderr.write(`tableside replay: cannot read ${file}: ${(error as Error).message}\n`);
    return 1;
  }

  const out: string[] = [];
  const write = () => {
    if (out.length > 0) process.stdout.write(`${out.join('\n')}\n`);
    out.length = 0;
  };
  if (!options.json) out.push(`${'line'.padStart(5)}  ${'event'.padEnd(26)}  detail`);
  let records = 0;
  let skipped = 0;
  let alarms = 0;
  let events = 0;
  const lines = text.split(/\r?\n/);
  for (const [i, line] of lines.entries()) {
    const lineNumber = i + 1;
    if (line.trim() === '') continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (error) {
      skipped += 1;
      process.stderr.write(`line ${lineNumber}: not JSON (${(error as Error).message}); skipped\n`);
      continue;
    }
    let record: ReturnType<typeof parseRecord>;
    try {
      record = parseRecord(raw);
    } catch (error) {
      skipped += 1;
      process.stderr.write(
        `line ${lineNumber}: ${(error as Error).message.replaceAll('\n', ' ')}; skipped\n`,
      );
      continue;
    }
    records += 1;
    for (const event of session.apply(record)) {
      events += 1;
      if (event.type === 'alarm') alarms += 1;
      out.push(
        options.json
          ? JSON.stringify({ ...event, line: lineNumber })
          : `${String(lineNumber).padStart(5)}  ${label(event).padEnd(26)}  ${describe(event)}`,
      );
    }
    if (out.length >= 512) write();
  }
  write();
  process.stderr.write(
    `${records} records, ${events} events, ${alarms} alarm(s)${skipped > 0 ? `, ${skipped} line(s) skipped` : ''}\n`,
  );
  return 0;
}

function label(event: DomainEvent): string {
  return event.type === 'alarm' ? `ALARM ${event.kind}` : event.type;
}

/** One readable line per event. */
export function describe(event: DomainEvent): string {
  switch (event.type) {
    case 'shoe_start':
      return `${event.decks} deck(s), ${event.backs.join('/')} backs, ${event.cards} cards`;
    case 'round_start':
      return `round ${event.round}${event.boxes ? `, boxes ${event.boxes.join(' ')}` : ''}`;
    case 'card': {
      const hand = event.hand === undefined ? '' : ` hand ${event.hand + 1}`;
      const where = event.to.startsWith('box:') ? `box ${event.to.slice(4)}` : event.to;
      return `#${event.index ?? '?'} ${event.card} → ${where}${hand}${event.face === 'down' ? ' (face down)' : ''}${event.back ? ` [${event.back}]` : ''}`;
    }
    case 'result': {
      const outcome = event.outcome;
      const headline =
        typeof outcome.announcement === 'string'
          ? outcome.announcement
          : typeof outcome.winner === 'string'
            ? `${outcome.winner} wins`
            : '';
      const bets = outcome.bets as Record<string, number> | undefined;
      const offered = Array.isArray(outcome.offered) ? new Set(outcome.offered) : undefined;
      const betText = bets
        ? Object.entries(bets)
            .filter(([bet]) => offered === undefined || offered.has(bet))
            .map(([bet, result]) => `${bet} ${result > 0 ? '+' : ''}${result}`)
            .join(', ')
        : '';
      const voided = event.voided ? `; void boxes ${event.voided.join(' ')}` : '';
      return `round ${event.round}: ${[headline, betText].filter(Boolean).join(' | ')}${voided}`;
    }
    case 'last_hand':
    case 'shoe_end':
    case 'reshuffle_required':
      return `${event.reason}${event.rule ? ` [${event.rule}]` : ''}`;
    case 'hand_voided':
      return `${event.boxes === 'all' ? 'all hands' : `boxes ${event.boxes.join(' ')}`}: ${event.reason}${event.rule ? ` [${event.rule}]` : ''}`;
    case 'alarm':
      return `${event.index === undefined ? '' : `#${String(event.index)} `}${event.message}`;
    default:
      return describeRouletteEvent(event);
  }
}
