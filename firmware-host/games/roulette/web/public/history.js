// The History page at a roulette table: the day's games (the server's `games`, grouped by the
// roulette plug-in), each a line to settle a dispute by ("Game 14 · 15:02:11 · 17 black · betting
// closed 15:02:00 by alice") that opens onto its events in journal order, each with who caused it.
// The console loads it by the URL the table info names (views.js).
import { h } from '/dom.js';

const TURNS = { cw: 'clockwise', ccw: 'counter-clockwise' };

const time = (ts) => new Date(ts).toLocaleTimeString();

/** Who made an input: a console user by name, a device or signed request by its `src`. */
const who = (by) => (by ? by.replace(/^web:/, '') : 'unknown');

function resultOf(game) {
  if (game.spin) return `${game.spin.number} ${game.spin.colour}`;
  if (game.voided) return `void: ${game.voided.reason}`;
  return game.closed ? 'no more bets, spin awaited' : 'betting open';
}

function summaryOf(game) {
  const parts = [`Game ${game.game}`, time(game.spin?.ts ?? game.ts), resultOf(game)];
  if (game.spin?.rotor) parts.push(`rotor ${TURNS[game.spin.rotor]}`);
  if (game.spin?.ball) parts.push(`ball ${TURNS[game.spin.ball]}`);
  if (game.closed) parts.push(`betting closed ${time(game.closed.ts)} by ${who(game.closed.by)}`);
  if (game.alarms.length) parts.push(`${game.alarms.length} alarm(s)`);
  return parts.join(' · ');
}

/** One event of a game as a line: what happened, its details, who caused it. */
function describe(event) {
  switch (event.type) {
    case 'game_start':
      return `game ${event.game}: betting open`;
    case 'no_more_bets':
      return `game ${event.game}: no more bets`;
    case 'spin':
      return `game ${event.game}: ${event.number} ${event.colour}${event.rotor ? ` · rotor ${TURNS[event.rotor]}` : ''}${event.ball ? ` · ball ${TURNS[event.ball]}` : ''}${event.revolutions === undefined ? '' : ` · ${event.revolutions} revolutions`}`;
    case 'game_voided':
      return `game ${event.game} void: ${event.reason} (${event.rule})`;
    case 'alarm':
      return `alarm ${event.kind}: ${event.message}${event.rule ? ` (${event.rule})` : ''}`;
    case 'closing':
      return `closing time: the last ${event.games} game(s) announced`;
    case 'games_left':
      return `closing: ${event.left} game(s) left`;
    case 'table_closed':
      return `table closed after ${event.games} game(s)`;
    case 'table_reopened':
      return `table reopened: ${event.reason}`;
    case 'event_withheld':
      return `event withheld: ${event.reason}`;
    default:
      return event.type;
  }
}

function eventList(events) {
  return h(
    'ol',
    { class: 'game-events' },
    events.map((event) =>
      h(
        'li',
        { 'data-type': event.type, 'data-seq': event.seq },
        `${time(event.ts)} · ${describe(event)} · by ${who(event.by)}`,
      ),
    ),
  );
}

/** The day's games as the History page's body; "No games journaled that day." when there are none. */
export function historyDay(body) {
  const outside = body.events?.length
    ? [h('section', {}, h('h3', {}, 'Outside any game'), eventList(body.events))]
    : [];
  if (!body.games.length) {
    return [h('p', { class: 'muted' }, 'No games journaled that day.'), ...outside];
  }
  const games = h(
    'section',
    { class: 'history-games' },
    body.games.map((game) =>
      h(
        'details',
        {
          class: `history-game${game.alarms.length ? ' alarmed' : ''}`,
          'data-game': game.game,
          'data-seq': game.seq,
        },
        h(
          'summary',
          {},
          game.spin
            ? h('span', { class: `pocket ${game.spin.colour}` }, String(game.spin.number))
            : null,
          ` ${summaryOf(game)}`,
        ),
        eventList(game.events),
      ),
    ),
  );
  return [games, ...outside];
}
