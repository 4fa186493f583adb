// The page's views. The server names, in its table info (`views`, from firmware-host/web/table-view.ts),
// the game's own modules that draw its parts of the page (its folder's web/public/, served under
// /games/<game>/): this loads them by those URLs and never looks at the game itself. A part no
// module is named for is the console's own (the card view, the card History) or, for the
// Scoreboard, hidden.
import { $ } from './dom.js';
import { CARD_REQUEST_TEXT, renderTable } from './table.js';

// The console's own view of a table: the card view (the card feed keeps the shoe strip, feed.js).
const CARD_VIEW = {
  name: 'cards',
  element: 'view-cards',
  render: renderTable,
  requestText: CARD_REQUEST_TEXT,
};

/** The loaded parts: `table` (a view), `history` (a day's drawing), `scoreboard`. */
const parts = { table: CARD_VIEW, history: null, scoreboard: null };
let loadedFor = null;

/** What a game's module exports for each part of the page. */
const EXPORTS = { table: 'tableView', history: 'historyDay', scoreboard: 'scoreboard' };

/**
 * Loads the modules the table info names (once per set of URLs): the page waits for them before
 * its feed starts, so no event reaches a view before it is there.
 */
export async function loadViews(info) {
  const views = info?.views ?? {};
  const key = JSON.stringify(views);
  if (key === loadedFor) return;
  const loaded = await Promise.all(
    Object.keys(EXPORTS).map(async (part) =>
      views[part] ? (await import(views[part]))[EXPORTS[part]] : null,
    ),
  );
  const [table, history, scoreboard] = loaded;
  parts.table = table ?? CARD_VIEW;
  // A game's view brings its own markup (and its request panel) to the Table page.
  parts.table.mount?.($('page-table'));
  parts.history = history;
  parts.scoreboard = scoreboard;
  loadedFor = key;
}

/** What a supervisor confirms before request `op`, in the table view's words. */
export function requestText(op, body) {
  const text = parts.table.requestText?.[op];
  return text ? text(body) : `Send the request ${op.replaceAll('_', ' ')}?`;
}

/** The game's drawing of a History day, or null for the console's own (shoes and hands). */
export function historyView() {
  return parts.history;
}

/** Shows the table's view and hides the others; `body[data-view]` lets the CSS follow. */
export function showView() {
  for (const view of document.querySelectorAll('#page-table > .view')) {
    view.hidden = view.id !== parts.table.element;
  }
  document.body.dataset.view = parts.table.name;
  // A table whose game draws no Scoreboard hides the tab rather than show an empty page.
  document.body.dataset.scoreboard = parts.scoreboard ? 'shown' : 'hidden';
  parts.scoreboard?.mount?.($('scoreboard'));
}

export function renderView() {
  parts.table.render();
}

export function viewOnEvent(event) {
  parts.table.onEvent?.(event);
  parts.scoreboard?.onEvent?.(event);
}

/** Draws the Scoreboard (its page shown, or its data changed). */
export function renderScoreboard() {
  parts.scoreboard?.render();
}

/** The Scoreboard's page is shown: its drawing may need the page's layout (roads scroll). */
export function scoreboardShown() {
  parts.scoreboard?.shown?.();
}
