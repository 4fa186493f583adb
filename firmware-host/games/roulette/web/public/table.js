// The roulette view of the Table page, as a casino's number display shows a wheel: the spin in
// play, the last numbers in their colours, hot and cold numbers, the bias watch, closing time.
// Everything comes from the snapshot (`state`), the wheel watch (`wheel`) and the event feed.
// The console loads it by the URL the table info names (views.js); its markup is index.html's
// #view-roulette.
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
  const rule = app.closingRule ? ` (${app.closingRule})` : '';
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
    app.closingRule = event.rule;
    renderRoulette();
  }
  if (event.type === 'table_reopened') {
    app.closingRule = null;
    renderRoulette();
  }
}

export const tableView = {
  name: 'roulette',
  element: 'view-roulette',
  render: renderRoulette,
  onEvent: onRouletteEvent,
};
