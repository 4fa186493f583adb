// The History page: a day's shoes and hands from the journal, a hand replayed card by card, export, print.
// A game whose plug-in names a History module of its own (a wheel's games) has its day drawn by it.
import { api } from './api.js';
import { $, capital, cardEl, h } from './dom.js';
import { app } from './state.js';
import { historyView } from './views.js';

export async function loadHistory() {
  const input = $('history-day');
  if (!input.value) input.value = new Date().toISOString().slice(0, 10);
  const day = input.value;
  $('history-export').href = `/api/history?day=${encodeURIComponent(day)}&download=1`;
  const { status, body } = await api(`/api/history?day=${encodeURIComponent(day)}`);
  $('history').dataset.loaded = day;
  if (status !== 200) {
    $('history-error').textContent = body.error;
    return;
  }
  $('history-error').textContent = body.error || '';
  app.history = body;
  const gameDay = historyView();
  const units = gameDay ? gameDay(body) : shoesOf(body);
  const requests = body.requests.length
    ? h(
        'section',
        {},
        h('h3', {}, 'Requests made from the console'),
        h(
          'ul',
          {},
          body.requests.map((r) =>
            h(
              'li',
              {},
              `${new Date(r.ts).toLocaleTimeString()} ${r.what} by ${r.by}${r.reason ? `: ${r.reason}` : ''}`,
            ),
          ),
        ),
      )
    : null;
  // replaceChildren would write a missing part as the text "null": only what exists goes in.
  $('history').replaceChildren(
    h('h2', {}, `${body.table} · ${day}`),
    ...units,
    ...(requests ? [requests] : []),
  );
}

/** A card table's day: its shoes, each a table of its hands. */
function shoesOf(body) {
  const shoes = body.shoes.map((shoe, index) =>
    h(
      'section',
      { class: 'history-shoe' },
      h(
        'h3',
        {},
        `Shoe from ${new Date(shoe.ts).toLocaleTimeString()} (seq ${shoe.seq})${shoe.ended ? ` · ended: ${shoe.ended}` : ''}`,
      ),
      h(
        'table',
        {},
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            // A round as the Table page and the Scoreboard number it ("Round 3").
            h('th', {}, 'Round'),
            h('th', {}, 'Time'),
            h('th', {}, 'Cards'),
            h('th', {}, 'Result'),
            h('th', {}, ''),
          ),
        ),
        h(
          'tbody',
          {},
          shoe.hands.map((hand) =>
            h(
              'tr',
              { 'data-round': hand.round },
              h('td', {}, String(hand.round)),
              h('td', {}, new Date(hand.ts).toLocaleTimeString()),
              h(
                'td',
                { class: 'cards' },
                hand.events
                  .filter((e) => e.type === 'card')
                  .map((e) => cardEl(e.hidden ? null : e.card, 'small')),
              ),
              h(
                'td',
                {},
                hand.voided
                  ? `void: ${hand.voided.reason}${hand.voided.by ? ` (${hand.voided.by.replace(/^web:/, '')})` : ''}`
                  : hand.result
                    ? resultWords(hand.result)
                    : 'in play',
              ),
              h(
                'td',
                { class: 'no-print' },
                h('button', { onclick: () => openReplay(index, hand) }, 'Replay'),
              ),
            ),
          ),
        ),
      ),
    ),
  );
  return shoes.length ? shoes : [h('p', { class: 'muted' }, 'No shoes journaled that day.')];
}

/** The result in the game's sentences, one a line (journals older than the words: the announcement). */
function resultWords(result) {
  const words = result.words?.length ? result.words : [result.announcement || result.winner || ''];
  return words.map((line) => h('div', { class: 'result-line' }, line));
}

let replay = null;

function openReplay(shoeIndex, hand) {
  replay = { hand, step: 0 };
  $('replay').hidden = false;
  $('replay-title').textContent =
    `Round ${hand.round} (shoe ${shoeIndex + 1}), replayed card by card`;
  drawReplay();
  $('replay').scrollIntoView();
}

function drawReplay() {
  const events = replay.hand.events;
  const shown = events.slice(0, replay.step + 1);
  const boxes = {};
  for (const event of shown) {
    if (event.type !== 'card') continue;
    boxes[event.to] = boxes[event.to] || [];
    boxes[event.to].push(event.hidden ? null : event.card);
  }
  $('replay-hand').replaceChildren(
    ...Object.entries(boxes).map(([to, cards]) =>
      h(
        'div',
        { class: 'box' },
        h('div', { class: 'box-label' }, capital(to)),
        h(
          'div',
          { class: 'cards' },
          cards.map((c) => cardEl(c)),
        ),
      ),
    ),
  );
  const current = events[replay.step];
  $('replay-step').textContent =
    `step ${replay.step + 1} of ${events.length}: ${current.type}${current.type === 'card' ? ` ${current.hidden ? 'face down' : current.card} to ${current.to}` : ''}${current.words ? ` · ${current.words.join(' ')}` : ''}${current.message ? ` · ${current.message}` : ''}`;
}

$('replay-next').addEventListener('click', () => {
  if (!replay || replay.step >= replay.hand.events.length - 1) return;
  replay.step++;
  drawReplay();
});
$('replay-prev').addEventListener('click', () => {
  if (!replay || replay.step === 0) return;
  replay.step--;
  drawReplay();
});
$('replay-first').addEventListener('click', () => {
  if (!replay) return;
  replay.step = 0;
  drawReplay();
});
$('replay-close').addEventListener('click', () => {
  $('replay').hidden = true;
});
$('history-form').addEventListener('submit', (event) => {
  event.preventDefault();
  loadHistory();
});
$('history-print').addEventListener('click', () => window.print());
// Printed, every folded part of the day shows open (Print or the browser's own print).
window.addEventListener('beforeprint', () => {
  for (const game of document.querySelectorAll('#history details')) game.open = true;
});
