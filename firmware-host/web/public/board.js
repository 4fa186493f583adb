// A game's counted Scoreboard (the shape of firmware-host/games/scoreboard.ts, from
// /api/scoreboard): the day's rounds and their rate, the latest results, and each tally with its
// counts and shares. A game's scoreboard module makes one, saying which events are its results
// and how a latest result looks; it names no game here.
import { api } from './api.js';
import { h } from './dom.js';

/** "12 %" of `of`, or a dash when nothing was counted. */
function share(count, of) {
  return of > 0 ? `${Math.round((100 * count) / of)} %` : '–';
}

function tallyTable(tally) {
  return h(
    'table',
    { class: 'tally', 'data-tally': tally.title, 'data-of': tally.of },
    h('caption', {}, `${tally.title} (of ${tally.of})`),
    h(
      'tbody',
      {},
      tally.rows.map((row) =>
        h(
          'tr',
          { 'data-label': row.label, 'data-count': row.count },
          h('th', {}, row.label),
          h('td', { class: 'count' }, String(row.count)),
          h('td', { class: 'share' }, share(row.count, tally.of)),
        ),
      ),
    ),
  );
}

function boardOf(board, drawRecent) {
  const units = `${board.unit}${board.rounds === 1 ? '' : 's'}`;
  const rate = board.perHour === null ? '' : ` · ${board.perHour} ${board.unit}s an hour`;
  return h(
    'div',
    { class: 'board', 'data-rounds': board.rounds, 'data-per-hour': board.perHour ?? '' },
    h('p', { class: 'board-summary' }, `${board.rounds} ${units} today (UTC)${rate}`),
    board.error ? h('p', { class: 'error' }, board.error) : null,
    h(
      'section',
      { class: 'board-recent' },
      h('h2', {}, `Last ${board.unit}s`),
      board.recent.length
        ? h('ol', { class: 'recent' }, board.recent.map(drawRecent))
        : h('p', { class: 'muted' }, `No ${board.unit} yet today.`),
    ),
    h('div', { class: 'tallies' }, board.tallies.map(tallyTable)),
  );
}

/**
 * A Scoreboard counted by the server: drawn when mounted, and again after each of the game's
 * `results` events (the feed sends an event once it is durable, so the count holds it).
 */
export function countedScoreboard({ results, drawRecent }) {
  let container = null;
  let asking = false;
  let askAgain = false;
  // One question at a time: the results a reloaded page's backlog replays ask once more at most.
  async function render() {
    if (!container) return;
    if (asking) {
      askAgain = true;
      return;
    }
    asking = true;
    try {
      const { status, body } = await api('/api/scoreboard');
      if (!container) return;
      if (status !== 200) {
        container.replaceChildren(h('p', { class: 'error' }, body.error));
        return;
      }
      container.dataset.seq = String(body.recent[0]?.seq ?? 0);
      container.replaceChildren(boardOf(body, drawRecent));
    } finally {
      asking = false;
      if (askAgain) {
        askAgain = false;
        render();
      }
    }
  }
  return {
    mount(element) {
      if (container !== element || element.dataset.board !== 'counted') {
        container = element;
        element.dataset.board = 'counted';
        element.replaceChildren();
      }
      render();
    },
    render,
    onEvent(event) {
      if (results.includes(event.type)) render();
    },
  };
}
