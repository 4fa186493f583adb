/**
 * One readable line per roulette event, for `tableside replay`, the
 * terminal view and logs. Pure.
 */
import type { DomainEvent, RouletteEvent } from '../../table/events.ts';

const ROULETTE_EVENT_TYPES: ReadonlySet<string> = new Set<RouletteEvent['type']>([
  'game_start',
  'no_more_bets',
  'spin',
  'game_voided',
  'closing',
  'games_left',
  'table_closed',
  'table_reopened',
]);

/** One line for a roulette event; undefined for the events every table shares. */
export function rouletteEventText(event: DomainEvent): string | undefined {
  return ROULETTE_EVENT_TYPES.has(event.type)
    ? describeRouletteEvent(event as RouletteEvent)
    : undefined;
}

export function describeRouletteEvent(event: RouletteEvent): string {
  switch (event.type) {
    case 'game_start':
      return `game ${event.game}: place your bets`;
    case 'no_more_bets':
      return `game ${event.game}: no more bets`;
    case 'spin': {
      const how = [
        event.rotor ? `rotor ${event.rotor}` : 'no rotor spin',
        event.ball ? `ball ${event.ball}` : 'no ball launch',
        event.revolutions === undefined ? undefined : `${event.revolutions} revolutions`,
      ]
        .filter(Boolean)
        .join(', ');
      return `game ${event.game}: ${event.number} ${event.colour} (${how})`;
    }
    case 'game_voided':
      return `game ${event.game} void: ${event.reason} [${event.rule}]`;
    case 'closing':
      return `closing time: ${event.games} last game(s) [${event.rule}]`;
    case 'games_left':
      return `${event.left} game(s) left before closing [${event.rule}]`;
    case 'table_closed':
      return `table closed after ${event.games} game(s) [${event.rule}]`;
    case 'table_reopened':
      return `table reopened, game ${event.game}: ${event.reason} [${event.rule}]`;
  }
}
