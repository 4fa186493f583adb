/**
 * One readable line per roulette event, for `tableside replay`, the
 * terminal view and logs. Pure.
 */
import type { RouletteEvent } from '../../table/events.ts';

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
