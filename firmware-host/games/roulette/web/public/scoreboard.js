// A roulette table's Scoreboard: the day's last numbers as coloured pockets, the even chances and
// the dozens, counted by the roulette plug-in (firmware-host/games/roulette/scoreboard.ts).
import { countedScoreboard } from '/board.js';
import { h } from '/dom.js';

export const scoreboard = countedScoreboard({
  results: ['spin'],
  drawRecent: (result) =>
    h(
      'li',
      {
        class: `pocket ${result.mark}`,
        'data-number': result.text,
        'data-colour': result.mark,
        title: `game ${result.round}`,
      },
      h('span', { class: 'pocket-number' }, result.text),
    ),
});
