// A card table's Scoreboard (blackjack, Triple Shot, the poker games): the day's rounds counted by
// the card plug-in (firmware-host/games/cards/scoreboard.ts), each latest round as a line.
import { countedScoreboard } from '/board.js';
import { h } from '/dom.js';

export const scoreboard = countedScoreboard({
  results: ['result'],
  drawRecent: (result) =>
    h(
      'li',
      { class: 'recent-round', 'data-round': result.round, 'data-mark': result.mark ?? '' },
      `Round ${result.round}: ${result.text}`,
    ),
});
