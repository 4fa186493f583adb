// The card view of the Table page: the hand in play, the result, the shoe's progress, alarms.
import { $, capital, cardEl, h } from './dom.js';
import { app } from './state.js';

/** What a supervisor confirms before each of a card table's requests. */
export const CARD_REQUEST_TEXT = {
  new_round: () => 'Start the next coup / round?',
  new_shoe: () => 'Start a new shoe? The shoe in play ends.',
  void_hand: (body) =>
    `Void the hand in play because “${body.reason}”? The void is journaled with your name.`,
  set_ruleset: (body) => `Change the ruleset to ${body.ruleset}? Only between shoes.`,
};

export function renderTable() {
  const state = app.state;
  if (!state) return;
  const shoe = state.shoe;
  $('ruleset').textContent = state.ruleset;
  if (shoe) {
    $('shoe-info').textContent =
      `shoe ${shoe.number} · ${shoe.decks} deck${shoe.decks === 1 ? '' : 's'} · ${shoe.dealt} dealt · ${shoe.remaining} left · round ${state.rounds}`;
    $('progress-bar').style.width =
      `${Math.min(100, (100 * shoe.dealt) / Math.max(1, shoe.cards))}%`;
    const markers = [];
    if (shoe.cutOut) markers.push('cut card out');
    if (shoe.lastHand) markers.push('last hand');
    if (shoe.ended) markers.push(`shoe ended: ${shoe.ended}`);
    if (shoe.shufflerOrder === 'mismatch') markers.push('shuffler order mismatch');
    $('markers').replaceChildren(...markers.map((text) => h('span', { class: 'marker' }, text)));
  } else {
    $('shoe-info').textContent = 'no shoe in play';
    $('progress-bar').style.width = '0%';
    $('markers').replaceChildren();
  }
  const expecting = state.expecting?.text;
  $('expecting').textContent = expecting ? `Next: ${expecting}` : '';
  const view = state.round?.table;
  // Between rounds the felt keeps the last coup's cards, as the table does until they are collected.
  const last = app.lastResult?.outcome;
  const boxes = view ? handBoxes(view) : last ? handBoxes(last) : [];
  $('hand').replaceChildren(
    ...(boxes.length ? boxes : [h('p', { class: 'muted' }, 'between rounds')]),
  );
  $('hand').classList.toggle('finished', !view);
  renderResult();
}

/**
 * The boxes of a round's view, whatever the game: an object or array item
 * with cards is a box. A view shows a face-down card only as a count
 * (`hidden`, `down`, or `cards` as a number), so it is drawn as a back.
 */
export function handBoxes(view) {
  const boxes = [];
  const add = (label, hand) => {
    const faces = [];
    let backs = 0;
    if (Array.isArray(hand)) faces.push(...hand);
    else {
      if (Array.isArray(hand.cards)) faces.push(...hand.cards);
      const up = typeof hand.up === 'string' ? [hand.up] : Array.isArray(hand.up) ? hand.up : [];
      faces.push(...up);
      if (typeof hand.cards === 'number') backs += Math.max(0, hand.cards - up.length);
      if (typeof hand.down === 'number') backs += hand.down;
      if (typeof hand.hidden === 'number') backs += hand.hidden;
    }
    const cards = faces.map((card) => cardEl(typeof card === 'string' ? card : card?.card));
    for (let i = 0; i < backs; i++) cards.push(cardEl(null));
    const total =
      typeof hand.total === 'number' ? h('span', { class: 'total' }, String(hand.total)) : null;
    const folded = hand.folded ? h('span', { class: 'muted' }, ' folded') : null;
    boxes.push(
      h(
        'div',
        { class: `box box-${label.toLowerCase().replace(/\s+/g, '-')}` },
        h('div', { class: 'box-label' }, h('span', {}, label, folded), total),
        h('div', { class: 'cards' }, cards),
      ),
    );
  };
  const order = ['player', 'banker', 'dealer', 'board'];
  for (const key of order)
    if (view[key] && typeof view[key] === 'object') add(capital(key), view[key]);
  for (const [key, value] of Object.entries(view)) {
    if (order.includes(key) || !Array.isArray(value)) continue;
    for (const item of value) {
      if (!item || typeof item !== 'object') continue;
      // A position is a box, as the table's prompts and results call it.
      const name =
        item.box !== undefined
          ? `Box ${item.box}`
          : item.position !== undefined
            ? `Box ${item.position}`
            : item.seat !== undefined
              ? `Seat ${item.seat}`
              : capital(key);
      if (Array.isArray(item.hands)) {
        for (const [i, hand] of item.hands.entries()) {
          add(item.hands.length > 1 ? `${name}.${i + 1}` : name, hand);
        }
      } else add(name, item);
    }
  }
  return boxes;
}

export function renderResult() {
  const event = app.lastResult;
  const el = $('result');
  if (!event) {
    el.textContent = '';
    return;
  }
  const outcome = event.outcome || {};
  // The game's own sentences (the feed's `words`, from its plug-in); a box's sentence a line.
  const words = event.words?.length ? event.words : [outcome.announcement || 'Settled.'];
  el.replaceChildren(
    h('div', { class: 'result-round' }, `Round ${event.round}`),
    ...words.map((line) => h('div', { class: 'result-line' }, line)),
  );
  el.className = `result ${outcome.winner || ''}`;
}

/** Alarms with their articles, newest first, in every view's list (`ol.alarms`). */
export function renderAlarms() {
  for (const list of document.querySelectorAll('ol.alarms')) list.replaceChildren(...alarmItems());
}

function alarmItems() {
  return app.alarms.map((alarm) =>
    h(
      'li',
      { class: `alarm ${alarm.type}`, 'data-seq': alarm.seq },
      h('span', { class: 'kind' }, alarm.kind || alarm.type),
      ' ',
      alarm.message || alarm.reason || '',
      alarm.rule ? h('span', { class: 'rule' }, ` (${alarm.rule})`) : null,
    ),
  );
}
