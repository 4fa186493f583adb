/**
 * The roulette table session: every spin the wheel reports checked against
 * the ruleset's spin rules, as a pure reducer `(state, record) => { state,
 * events }` beside the card session (session.ts), with the same small
 * stateful wrapper (`RouletteSession`) the daemon and `replay` use.
 *
 * A game opens with betting open; `no_more_bets` closes it (003 § 11(2));
 * a `spin` ends it with its number and opens the next. What is checked,
 * each an alarm citing the ruleset's source for it:
 *
 * - the rotor turned the same way as the previous spin (003 § 11(4));
 * - the ball thrown the same way as the rotor turns (003 § 11(1));
 * - fewer ball revolutions than the ruleset's minimum (practice);
 * - a result with no rotor spin or no ball launch seen before it: the ball
 *   fell without a spin, so the game is void and a new one declared
 *   (003 § 11(1), 11(5));
 * - a spin while the betting was still open (003 § 11(2)).
 *
 * A `no_spin` (a chip in the wheel, the ball dropped) voids the game and
 * declares a new one (003 § 11(5)). `closing` announces the last games and
 * each result counts them down until the table closes (003 § 13(2)); a
 * voided game is replaced, not counted. The number of a checked spin always
 * stands: the alarms are for the inspector (003 § 10(5)), the ball is where
 * it is.
 */
import { z } from 'zod';
import { TableError } from '../../table/errors.ts';
import type { AlarmKind, DomainEvent, RouletteEvent } from '../../table/events.ts';
import type { NoSpinRecord, SpinRecord, TableLogRecord } from '../../table/log.ts';
import { getRouletteRuleset } from '../rulesets.ts';
import { parseRecord } from '../table-session.ts';
import { colourOf } from './engine/layout.ts';
import type { RouletteRuleset } from './rulesets-schema.ts';

/** Numbers the snapshot keeps, newest first (a display's "last numbers" board). */
export const RECENT_NUMBERS = 20;

export type Direction = 'cw' | 'ccw';

export interface RouletteState {
  /** The game in play, from 1. */
  readonly game: number;
  readonly betting: 'open' | 'closed';
  /** The rotor direction of the last spin the wheel reported, voided ones included. */
  readonly lastRotor: Direction | undefined;
  /** Winning numbers, newest first, at most RECENT_NUMBERS. */
  readonly recent: readonly number[];
  readonly spins: number;
  readonly voided: number;
  /** Closing time: how many announced games are still to play; undefined before `closing`. */
  readonly gamesLeft: number | undefined;
  readonly closed: boolean;
}

export function initialRouletteState(): RouletteState {
  return {
    game: 1,
    betting: 'open',
    lastRotor: undefined,
    recent: [],
    spins: 0,
    voided: 0,
    gamesLeft: undefined,
    closed: false,
  };
}

/** Serialized form, for journal checkpoints: the state is plain JSON already. */
export const rouletteStateSchema = z.strictObject({
  game: z.number().int().min(1),
  betting: z.enum(['open', 'closed']),
  lastRotor: z.enum(['cw', 'ccw']).optional(),
  recent: z.array(z.number().int().min(0).max(36)).max(RECENT_NUMBERS),
  spins: z.number().int().nonnegative(),
  voided: z.number().int().nonnegative(),
  gamesLeft: z.number().int().nonnegative().optional(),
  closed: z.boolean(),
});

export type RouletteExpectation =
  | { readonly kind: 'bets'; readonly game: number; readonly text: string }
  | { readonly kind: 'spin'; readonly game: number; readonly text: string }
  | { readonly kind: 'closed'; readonly text: string };

type Draft = { -readonly [K in keyof RouletteState]: RouletteState[K] };

interface Context {
  readonly ruleset: RouletteRuleset;
  readonly draft: Draft;
  readonly events: DomainEvent[];
}

function alarm(
  context: Context,
  kind: AlarmKind,
  message: string,
  rule: string,
  detail: Record<string, unknown> = {},
): void {
  context.events.push({
    type: 'alarm',
    kind,
    message,
    rule,
    game: context.draft.game,
    ...detail,
  });
}

function push(context: Context, event: RouletteEvent): void {
  context.events.push(event);
}

/** Applies one validated record. Pure; records of a card table are ignored. */
export function reduceRoulette(
  ruleset: RouletteRuleset,
  state: RouletteState,
  record: TableLogRecord,
): { state: RouletteState; events: DomainEvent[] } {
  const context: Context = { ruleset, draft: { ...state }, events: [] };
  switch (record.t) {
    case 'no_more_bets':
      onNoMoreBets(context);
      break;
    case 'spin':
      onSpin(context, record);
      break;
    case 'no_spin':
      onNoSpin(context, record);
      break;
    case 'closing':
      onClosing(context);
      break;
    case 'reopen':
      onReopen(context, record.reason);
      break;
    default:
      break;
  }
  return { state: { ...context.draft }, events: context.events };
}

function onNoMoreBets(context: Context): void {
  const { draft } = context;
  // A second close (the wheel's sensor and the console both) changes nothing.
  if (draft.closed || draft.betting === 'closed') return;
  draft.betting = 'closed';
  push(context, { type: 'no_more_bets', game: draft.game });
}

function afterClosing(context: Context, what: string): boolean {
  if (!context.draft.closed) return false;
  alarm(
    context,
    'game_after_closing',
    `${what} after the last game of closing time: the table is closed`,
    context.ruleset.closing.source,
  );
  return true;
}

/** Ends the game in play: a result counts down closing time; a void is replaced by a new game. */
function nextGame(context: Context, counted: boolean): void {
  const { draft } = context;
  if (counted && draft.gamesLeft !== undefined) {
    draft.gamesLeft = Math.max(0, draft.gamesLeft - 1);
    if (draft.gamesLeft === 0) {
      draft.closed = true;
      draft.betting = 'closed';
      push(context, {
        type: 'table_closed',
        games: draft.spins,
        rule: context.ruleset.closing.source,
      });
      return;
    }
    push(context, {
      type: 'games_left',
      left: draft.gamesLeft,
      rule: context.ruleset.closing.source,
    });
  }
  draft.game += 1;
  draft.betting = 'open';
  push(context, { type: 'game_start', game: draft.game });
}

function voidGame(context: Context, reason: string, rule: string): void {
  const { draft } = context;
  draft.voided += 1;
  push(context, { type: 'game_voided', game: draft.game, reason, rule });
  nextGame(context, false);
}

function onSpin(context: Context, record: SpinRecord): void {
  const { ruleset, draft } = context;
  if (afterClosing(context, `a spin (${record.number})`)) return;
  const spin = ruleset.spin;
  if (record.rotor === undefined || record.ball === undefined) {
    const missing =
      record.rotor === undefined && record.ball === undefined
        ? 'no rotor spin and no ball launch'
        : record.rotor === undefined
          ? 'no rotor spin'
          : 'no ball launch';
    if (record.rotor !== undefined) draft.lastRotor = record.rotor;
    const voids = spin.noSpinVoids.value;
    alarm(
      context,
      'result_without_spin',
      `result ${record.number} with ${missing} before it${voids ? ': the game is void, a new one is declared' : ''}`,
      `${spin.ballAgainstRotor.source}; ${spin.noSpinVoids.source}`,
      { number: record.number },
    );
    if (voids) {
      voidGame(context, `result ${record.number} with ${missing}`, spin.noSpinVoids.source);
      return;
    }
  }
  const colour = colourOf(ruleset, record.number);
  push(context, {
    type: 'spin',
    game: draft.game,
    number: record.number,
    colour,
    ...(record.rotor === undefined ? {} : { rotor: record.rotor }),
    ...(record.ball === undefined ? {} : { ball: record.ball }),
    ...(record.revolutions === undefined ? {} : { revolutions: record.revolutions }),
    ...(record.rpm === undefined ? {} : { rpm: record.rpm }),
  });
  if (spin.noMoreBets.value && draft.betting === 'open') {
    alarm(
      context,
      'spin_without_close',
      `spin ${record.number} while the betting was still open (no "no more bets" before it)`,
      spin.noMoreBets.source,
      { number: record.number },
    );
  }
  if (
    spin.alternateRotor.value &&
    record.rotor !== undefined &&
    draft.lastRotor !== undefined &&
    record.rotor === draft.lastRotor
  ) {
    alarm(
      context,
      'rotor_same_direction',
      `the rotor turned ${record.rotor} again, the same way as the previous spin`,
      spin.alternateRotor.source,
      { rotor: record.rotor, number: record.number },
    );
  }
  if (
    spin.ballAgainstRotor.value &&
    record.rotor !== undefined &&
    record.ball !== undefined &&
    record.ball === record.rotor
  ) {
    alarm(
      context,
      'ball_with_rotor',
      `the ball was thrown ${record.ball}, the same way as the rotor`,
      spin.ballAgainstRotor.source,
      { rotor: record.rotor, ball: record.ball, number: record.number },
    );
  }
  const minimum = spin.minBallRevolutions.value;
  if (record.revolutions !== undefined && record.revolutions < minimum) {
    alarm(
      context,
      'few_revolutions',
      `the ball made ${record.revolutions} revolution(s), fewer than the minimum ${minimum}`,
      spin.minBallRevolutions.source,
      { revolutions: record.revolutions, minimum, number: record.number },
    );
  }
  if (record.rotor !== undefined) draft.lastRotor = record.rotor;
  draft.spins += 1;
  draft.recent = [record.number, ...draft.recent].slice(0, RECENT_NUMBERS);
  nextGame(context, true);
}

function onNoSpin(context: Context, record: NoSpinRecord): void {
  const { ruleset, draft } = context;
  if (afterClosing(context, `a no-spin (${record.reason})`)) return;
  if (record.rotor !== undefined) draft.lastRotor = record.rotor;
  const rule = ruleset.spin.noSpinVoids.source;
  const voids = ruleset.spin.noSpinVoids.value;
  alarm(
    context,
    'no_spin',
    `no spin: ${record.reason}${voids ? ': the game is void, a new one is declared' : ''}`,
    rule,
    { reason: record.reason },
  );
  if (voids) voidGame(context, `no spin: ${record.reason}`, rule);
}

function onClosing(context: Context): void {
  const { ruleset, draft } = context;
  if (draft.closed || draft.gamesLeft !== undefined) return;
  const games = ruleset.closing.lastGames;
  push(context, { type: 'closing', games, rule: ruleset.closing.source });
  draft.gamesLeft = games;
  if (games === 0) {
    draft.closed = true;
    draft.betting = 'closed';
    push(context, { type: 'table_closed', games: draft.spins, rule: ruleset.closing.source });
  }
}

/**
 * Opens a closed table (or one counting down its last games) again: closing
 * time is over, the next game opens with its betting. An open table has
 * nothing to reopen: an alarm, so a request is refused and changes nothing.
 */
function onReopen(context: Context, reason: string): void {
  const { ruleset, draft } = context;
  if (!draft.closed && draft.gamesLeft === undefined) {
    alarm(
      context,
      'reopen_not_closed',
      'the table is open: nothing to reopen',
      ruleset.closing.reopen,
    );
    return;
  }
  // The game after the last one played (a table closed by its last result stays on that game).
  if (draft.closed) draft.game += 1;
  draft.closed = false;
  draft.gamesLeft = undefined;
  draft.betting = 'open';
  push(context, { type: 'table_reopened', game: draft.game, reason, rule: ruleset.closing.reopen });
}

export function expectingRoulette(state: RouletteState): RouletteExpectation {
  if (state.closed) return { kind: 'closed', text: 'table closed (closing time)' };
  const last = state.gamesLeft === undefined ? '' : ` (closing: ${state.gamesLeft} game(s) left)`;
  return state.betting === 'open'
    ? { kind: 'bets', game: state.game, text: `game ${state.game}: bets open${last}` }
    : { kind: 'spin', game: state.game, text: `game ${state.game}: no more bets, spin${last}` };
}

/** The JSON view for the MQTT `state` topic: the game in play and the last numbers. */
export function rouletteSnapshot(
  ruleset: RouletteRuleset,
  state: RouletteState,
): Record<string, unknown> {
  return {
    ruleset: ruleset.name,
    game: ruleset.game,
    roulette: {
      game: state.game,
      betting: state.betting,
      lastNumbers: [...state.recent],
      lastColours: state.recent.map((number) => colourOf(ruleset, number)),
      lastRotor: state.lastRotor ?? null,
      nextRotor: state.lastRotor === undefined ? null : state.lastRotor === 'cw' ? 'ccw' : 'cw',
      spins: state.spins,
      voided: state.voided,
      gamesLeft: state.gamesLeft ?? null,
      closed: state.closed,
    },
    expecting: expectingRoulette(state),
  };
}

/** A state as plain JSON (no undefined keys), for a journal checkpoint. */
export function serializeRouletteState(state: RouletteState): Record<string, unknown> {
  const { lastRotor, gamesLeft, ...rest } = state;
  return {
    ...rest,
    recent: [...rest.recent],
    ...(lastRotor === undefined ? {} : { lastRotor }),
    ...(gamesLeft === undefined ? {} : { gamesLeft }),
  };
}

export interface RouletteSessionConfig {
  readonly ruleset: RouletteRuleset;
}

export type RouletteFeedResult =
  | { readonly ok: true; readonly events: DomainEvent[] }
  | { readonly ok: false; readonly error: TableError };

/** The stateful wrapper: validates raw records, keeps the state; a bad record changes nothing. */
export class RouletteSession {
  readonly game = 'roulette' as const;
  readonly config: RouletteSessionConfig;
  #state: RouletteState;

  constructor(ruleset: RouletteRuleset | string, state: RouletteState = initialRouletteState()) {
    let resolved: RouletteRuleset;
    try {
      resolved = typeof ruleset === 'string' ? getRouletteRuleset(ruleset) : ruleset;
    } catch (error) {
      throw new TableError('unknown_ruleset', (error as Error).message);
    }
    this.config = { ruleset: resolved };
    this.#state = state;
  }

  get state(): RouletteState {
    return this.#state;
  }

  feed(raw: unknown): RouletteFeedResult {
    let record: TableLogRecord;
    try {
      record = parseRecord(raw);
    } catch (error) {
      return { ok: false, error: error as TableError };
    }
    return { ok: true, events: this.apply(record) };
  }

  apply(record: TableLogRecord): DomainEvent[] {
    const { state, events } = reduceRoulette(this.config.ruleset, this.#state, record);
    this.#state = state;
    return events;
  }

  snapshot(): Record<string, unknown> {
    return rouletteSnapshot(this.config.ruleset, this.#state);
  }

  expecting(): RouletteExpectation {
    return expectingRoulette(this.#state);
  }

  /** The state as JSON, for a journal checkpoint. */
  serialize(): Record<string, unknown> {
    return serializeRouletteState(this.#state);
  }

  static deserialize(ruleset: RouletteRuleset | string, data: unknown): RouletteSession {
    const parsed = rouletteStateSchema.safeParse(data);
    if (!parsed.success) {
      throw new TableError(
        'bad_checkpoint',
        `bad roulette session state: ${z.prettifyError(parsed.error)}`,
      );
    }
    const { lastRotor, gamesLeft, ...rest } = parsed.data;
    return new RouletteSession(ruleset, { ...rest, lastRotor, gamesLeft });
  }
}
