/**
 * A roulette table's day on the History page: its games, each with when the
 * betting opened and closed and who closed it, the spin's result, its alarms
 * and its void, and its events in journal order, each naming who caused it
 * (the `src` of the input it came from: the wheel, `web:<user>`, a signed
 * request's). So a supervisor can settle "what number came in game 14 at
 * 15:02, and who closed the betting?".
 *
 * A game is opened by `game_start`, except the first of a session (a new
 * table, a ruleset change), which no event opens: it is the game the first
 * event naming its number belongs to.
 */
import type { RouletteEvent } from '../../table/events.ts';
import type { DayGrouping, HistoryRecord } from '../game.ts';

/** When something happened in a game, and who (the input's `src`) made it happen. */
export interface GameMark {
  seq: number;
  ts: number;
  by?: string;
}

export interface HistoryGame {
  /** The game's number in its session. */
  game: number;
  /** Its first record of the day. */
  seq: number;
  ts: number;
  /** Betting opened (`game_start`); absent for a session's first game. */
  opened?: GameMark;
  /** Betting closed (`no_more_bets`). */
  closed?: GameMark;
  spin?: GameMark & Omit<Extract<RouletteEvent, { type: 'spin' }>, 'type' | 'game'>;
  voided?: GameMark & { reason: string; rule?: string };
  alarms: Array<{ seq: number; ts: number; kind: string; message: string; rule?: string }>;
  /** Its screened events in journal order, each with `by`, who caused it. */
  events: Record<string, unknown>[];
}

export type RouletteDayUnits = {
  games: HistoryGame[];
  /** The day's events no game holds (closing time announced before any game's event). */
  events: Record<string, unknown>[];
};

type GameEvent = { type: string; game?: unknown };

export function rouletteDayHistory(): DayGrouping<RouletteDayUnits> {
  const units: RouletteDayUnits = { games: [], events: [] };
  let current: HistoryGame | undefined;
  /** Who made the latest input: the events that follow it are its. */
  let by: string | undefined;
  /** How many of its events are still to come (unknown in older journals: all until the next input). */
  let eventsLeft: number | undefined;

  /** The game an event belongs to: the one in play, or a new one it names. */
  const gameFor = (record: HistoryRecord): HistoryGame | undefined => {
    const event = record.data as GameEvent;
    if (
      event.type === 'game_start' ||
      (typeof event.game === 'number' && event.game !== current?.game)
    ) {
      const game = event.game as number;
      current = { game, seq: record.seq, ts: record.ts, alarms: [], events: [] };
    }
    return current;
  };

  return {
    take(record) {
      if (record.kind === 'input') {
        const { src } = record.data as { src?: unknown };
        by = typeof src === 'string' ? src : undefined;
        eventsLeft = record.events;
        return;
      }
      if (record.kind === 'meta') {
        // A new ruleset is a new session: its first game opens with no event.
        if ((record.data as { type?: unknown }).type === 'ruleset') current = undefined;
        return;
      }
      // An event past its input's count is no input's (an alarm a device raised on its own).
      if (eventsLeft === 0) by = undefined;
      else if (eventsLeft !== undefined) eventsLeft -= 1;
      const shown = { ...(record.shown ?? {}), ...(by === undefined ? {} : { by }) };
      const game = gameFor(record);
      if (!game) {
        units.events.push(shown);
        return;
      }
      if (!units.games.includes(game)) units.games.push(game);
      game.events.push(shown);
      noteOn(game, record, by);
    },
    follow(record) {
      by = undefined;
      if (record.kind === 'meta' && (record.data as { type?: unknown }).type === 'ruleset') {
        current = undefined;
      } else if (record.kind === 'event') {
        gameFor(record);
      }
    },
    units: () => units,
  };
}

/** What an event says of its game: the marks the page lists it by. */
function noteOn(game: HistoryGame, record: HistoryRecord, by: string | undefined): void {
  const mark: GameMark = { seq: record.seq, ts: record.ts, ...(by === undefined ? {} : { by }) };
  const shown = record.shown ?? {};
  const event = record.data as RouletteEvent | { type: 'alarm' };
  switch (event.type) {
    case 'game_start':
      game.opened = mark;
      break;
    case 'no_more_bets':
      game.closed = mark;
      break;
    case 'spin': {
      // A spin is public whole (the guard lets it out as journaled).
      const { number, colour, rotor, ball, revolutions, rpm } = event;
      game.spin = { ...mark, number, colour, rotor, ball, revolutions, rpm };
      break;
    }
    case 'game_voided':
      game.voided = { ...mark, reason: event.reason, rule: event.rule };
      break;
    case 'alarm':
      game.alarms.push({
        seq: record.seq,
        ts: record.ts,
        kind: String(shown.kind),
        message: String(shown.message),
        ...(typeof shown.rule === 'string' ? { rule: shown.rule } : {}),
      });
      break;
    default:
      break;
  }
}
