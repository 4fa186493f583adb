// The Table page's views. The server names the table's view in its table info (`view`, from
// firmware-host/web/table-view.ts); this is the one place the page maps a view to what draws it.
import { $ } from './dom.js';
import { onRouletteEvent, renderRoulette } from './roulette.js';
import { app } from './state.js';
import { renderTable } from './table.js';

// The card view keeps what it needs of events in feed.js (the shoe strip, the last result).
const VIEWS = {
  cards: { element: 'view-cards', render: renderTable },
  roulette: { element: 'view-roulette', render: renderRoulette, onEvent: onRouletteEvent },
};

// A baccarat table is drawn by the card view; its scoreboard is a page of its own (the nav shows it).
const DRAWN_AS = { baccarat: 'cards' };

/** The view that draws the table: the one the server names, or the card view it stands for. */
function viewName() {
  const named = DRAWN_AS[app.table?.view] ?? app.table?.view;
  return VIEWS[named] ? named : 'cards';
}

function current() {
  return VIEWS[viewName()];
}

// The views with a scoreboard page (the roads); at any other table the nav hides the tab
// rather than show empty roads.
const WITH_SCOREBOARD = new Set(['baccarat']);

/** Shows the table's view and hides the others; `body[data-view]` lets the CSS follow. */
export function showView() {
  const name = viewName();
  for (const [other, view] of Object.entries(VIEWS)) $(view.element).hidden = other !== name;
  document.body.dataset.view = name;
  document.body.dataset.scoreboard = WITH_SCOREBOARD.has(app.table?.view) ? 'shown' : 'hidden';
}

export function renderView() {
  current().render();
}

export function viewOnEvent(event) {
  current().onEvent?.(event);
}
