// The roulette view of the Table page, as a casino's number display shows a wheel: the spin in
// play, the last numbers in their colours, hot and cold numbers, the bias watch, closing time.
// Everything comes from the snapshot (`state`), the wheel watch (`wheel`) and the event feed.
// The console loads it by the URL the table info names (views.js), which mounts its markup
// (#view-roulette) on the Table page.
import { $, h } from '/dom.js';
import { app } from '/state.js';

const TURNS = { cw: '↻ clockwise', ccw: '↺ counter-clockwise' };
const TEST_NAMES = {
  frequencies: 'Number frequencies',
  hot_number: 'Hot number',
  cold_number: 'Cold number',
  sector: 'Wheel sector',
  direction_split: 'Rotor direction split',
  repeat: 'Repeats',
};

/** A supervisor's request panel (requests.js sends it): the buttons, the reason to reopen, the ruleset. */
function requestPanel() {
  return h(
    'div',
    { id: 'roulette-requests', class: 'requests', hidden: true },
    h('h2', {}, 'Requests'),
    h(
      'div',
      { class: 'request-buttons' },
      h('button', { type: 'button', 'data-op': 'no_more_bets' }, 'No more bets'),
      h('button', { type: 'button', 'data-op': 'closing' }, 'Closing time'),
    ),
    h(
      'label',
      {},
      'Reopen the closed table, because ',
      h('input', {
        id: 'reopen-reason',
        class: 'reopen-reason',
        maxlength: 200,
        placeholder: 'reason',
        'data-reason-for': 'reopen',
        'data-reason-noun': 'reopening',
      }),
    ),
    h('button', { type: 'button', 'data-op': 'reopen' }, 'Reopen table'),
    h(
      'label',
      {},
      'Ruleset (between games) ',
      h('select', { id: 'roulette-ruleset-select', class: 'ruleset-select' }),
    ),
    h('button', { type: 'button', 'data-op': 'set_ruleset' }, 'Change ruleset'),
    h('p', { id: 'roulette-request-result', class: 'request-result', role: 'status' }),
  );
}

/** The view's markup, as a casino's number display lays it out. */
function rouletteMarkup() {
  const figure = (caption, list) => h('figure', {}, h('figcaption', {}, caption), list);
  return h(
    'div',
    { id: 'view-roulette', class: 'view roulette', hidden: true },
    h(
      'div',
      { class: 'shoe-line' },
      h('span', { id: 'roulette-ruleset', class: 'ruleset' }),
      h('span', { id: 'roulette-info' }),
      h('span', { id: 'closing', class: 'markers' }),
    ),
    h(
      'div',
      { class: 'roulette-grid' },
      h(
        'div',
        { id: 'spin', class: 'spin' },
        h('div', { id: 'spin-result', class: 'spin-result' }),
        h(
          'div',
          { class: 'spin-text' },
          h('div', { id: 'spin-game', class: 'spin-game' }),
          h('div', { id: 'spin-betting', class: 'betting' }),
          h('div', { id: 'spin-directions', class: 'spin-directions' }),
        ),
      ),
      h(
        'figure',
        { class: 'marquee-box' },
        h('figcaption', {}, 'Last numbers'),
        h('ol', { id: 'marquee', class: 'marquee' }),
      ),
      h(
        'div',
        { class: 'roulette-main' },
        h(
          'div',
          { class: 'hot-cold' },
          figure('Hot', h('ol', { id: 'hot', class: 'pockets' })),
          figure('Cold', h('ol', { id: 'cold', class: 'pockets' })),
        ),
        h('p', { id: 'hot-cold-note', class: 'muted' }),
        h(
          'div',
          { class: 'columns' },
          h('div', {}, h('h2', {}, 'Alarms'), h('ol', { id: 'roulette-alarms', class: 'alarms' })),
          requestPanel(),
        ),
        h('h2', {}, 'Bias watch'),
        h('table', { id: 'bias', class: 'bias' }, h('tbody')),
      ),
    ),
  );
}

/** Puts the view on the Table page (once). */
function mountRoulette(page) {
  if (!$('view-roulette')) page.append(rouletteMarkup());
}

/** The article closing time was announced under, from the feed's events (null while open). */
let closingRule = null;

/** What a supervisor confirms before each of the table's requests. */
const REQUEST_TEXT = {
  no_more_bets: () => 'Close the betting on the game in play (“no more bets”)?',
  closing: () =>
    'Announce closing time? The last games are counted down, then the table closes for the day.',
  reopen: (body) =>
    `Reopen the closed table because “${body.reason}”? Closing time ends; the reopening is journaled with your name.`,
  set_ruleset: (body) => `Change the ruleset to ${body.ruleset}? Only between games.`,
};

/** One pocket as a coloured disc; `count` is shown beside it (hot and cold lists). */
function pocket(number, colour, extra, count) {
  return h(
    'li',
    {
      class: `pocket ${colour} ${extra || ''}`,
      'data-number': number,
      'data-colour': colour,
      ...(count === undefined ? {} : { 'data-count': count, title: `${count} time(s)` }),
    },
    h('span', { class: 'pocket-number' }, String(number)),
    count === undefined ? null : h('span', { class: 'pocket-count' }, `×${count}`),
  );
}

function renderRoulette() {
  const state = app.state;
  const wheel = app.wheel;
  const roulette = state?.roulette;
  if (!roulette) return;
  $('roulette-ruleset').textContent = state.ruleset;
  $('roulette-info').textContent =
    `${roulette.spins} spin${roulette.spins === 1 ? '' : 's'} · ${roulette.voided} void`;
  renderClosing(roulette);
  renderSpin(roulette, wheel?.last?.[0]);
  $('marquee').replaceChildren(
    ...roulette.lastNumbers.map((number, i) =>
      pocket(number, roulette.lastColours[i], i === 0 ? 'latest' : ''),
    ),
  );
  renderHotCold(wheel);
  renderBias(wheel);
}

/** Closing time (003 § 13(2)): the games left, counted down after each result, then closed. */
function renderClosing(roulette) {
  const el = $('closing');
  const rule = closingRule ? ` (${closingRule})` : '';
  el.dataset.gamesLeft = roulette.gamesLeft === null ? '' : String(roulette.gamesLeft);
  el.replaceChildren(
    roulette.closed
      ? h('span', { class: 'marker closed' }, `Table closed${rule}`)
      : roulette.gamesLeft !== null
        ? h(
            'span',
            { class: 'marker' },
            `Closing time: ${roulette.gamesLeft} game${roulette.gamesLeft === 1 ? '' : 's'} left${rule}`,
          )
        : '',
  );
}

/**
 * The game in play: betting open or closed, the rotor's next turn; the latest number (the
 * snapshot's, as on the marquee) and, named by its game, the latest spin the wheel watch has.
 */
function renderSpin(roulette, last) {
  const betting = roulette.closed ? 'closed-table' : roulette.betting;
  $('spin').dataset.betting = betting;
  $('spin-game').textContent = roulette.closed ? 'No game' : `Game ${roulette.game}`;
  $('spin-betting').textContent = roulette.closed
    ? 'Table closed'
    : roulette.betting === 'open'
      ? 'Place your bets'
      : 'No more bets';
  $('spin-betting').className = `betting ${betting}`;
  const result = $('spin-result');
  const number = roulette.lastNumbers[0];
  if (number !== undefined) {
    result.textContent = String(number);
    result.className = `spin-result pocket ${roulette.lastColours[0]}`;
    result.dataset.number = String(number);
  } else {
    result.textContent = '–';
    result.className = 'spin-result pocket empty';
    delete result.dataset.number;
  }
  const lines = [];
  if (last) {
    lines.push(
      h(
        'div',
        { class: 'last-spin', 'data-game': last.game },
        `Game ${last.game}: ${last.number} ${last.colour} · rotor ${TURNS[last.rotor]} · ball ${TURNS[last.ball]}${last.revolutions === undefined ? '' : ` · ${last.revolutions} revolutions`}`,
      ),
    );
  }
  if (!roulette.closed && roulette.nextRotor) {
    lines.push(
      h('div', { class: 'next-rotor muted' }, `Next spin: rotor ${TURNS[roulette.nextRotor]}`),
    );
  }
  $('spin-directions').replaceChildren(...lines);
}

function renderHotCold(wheel) {
  const hot = wheel?.hot ?? [];
  const cold = wheel?.cold ?? [];
  $('hot').replaceChildren(...hot.map((n) => pocket(n.number, n.colour, '', n.count)));
  $('cold').replaceChildren(...cold.map((n) => pocket(n.number, n.colour, '', n.count)));
  $('hot-cold-note').textContent = !wheel
    ? 'reading the spins…'
    : wheel.spins === 0
      ? 'no spins yet'
      : `over the last ${wheel.spins} spin${wheel.spins === 1 ? '' : 's'} (at most ${wheel.window})`;
}

/** The wheel-bias watch's verdicts, as `tableside analyze wheel` gives them. */
function renderBias(wheel) {
  const tests = wheel?.tests ?? [];
  $('bias').tBodies[0].replaceChildren(
    ...tests.map((test) => {
      const verdict = !test.ran ? 'not run' : test.alarm ? 'ALARM' : 'ok';
      return h(
        'tr',
        { 'data-test': test.test, 'data-verdict': verdict.replace(' ', '_') },
        h('th', {}, TEST_NAMES[test.test] || test.test),
        h('td', { class: 'verdict' }, verdict),
        h('td', { class: 'detail' }, test.detail),
      );
    }),
  );
}

/** Events the view keeps something of: the article of closing time (drawn again: a backlog's events come after the state). */
function onRouletteEvent(event) {
  if (event.type === 'closing' || event.type === 'games_left' || event.type === 'table_closed') {
    closingRule = event.rule;
    renderRoulette();
  }
  if (event.type === 'table_reopened') {
    closingRule = null;
    renderRoulette();
  }
}

export const tableView = {
  name: 'roulette',
  element: 'view-roulette',
  mount: mountRoulette,
  render: renderRoulette,
  onEvent: onRouletteEvent,
  requestText: REQUEST_TEXT,
};
