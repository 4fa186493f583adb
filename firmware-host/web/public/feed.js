// The live feed: Server-Sent Events resumed by seq, each event once; gaps and duplicates counted.
import { $, banner, cardEl, h } from './dom.js';
import { app } from './state.js';
import { renderAlarms } from './table.js';
import { loadViews, renderScoreboard, renderView, showView, viewOnEvent } from './views.js';

export function connect() {
  if (app.stream) app.stream.close();
  // Resume only after what this page has drawn. A reloaded page has drawn
  // nothing: the server then starts it at the shoe in play, so its cards and
  // alarms are drawn again from the journal (a browser's own reconnect
  // resumes by Last-Event-ID).
  const since = app.covered !== null ? `?since=${app.covered}` : '';
  const stream = new EventSource(`/api/stream${since}`);
  app.stream = stream;
  stream.addEventListener('open', () => setLive(true));
  stream.addEventListener('error', () => setLive(false));
  stream.addEventListener('hello', (message) => {
    const hello = JSON.parse(message.data);
    if (app.covered !== null && hello.from !== app.covered) app.gaps++;
    if (app.covered === null && !hello.resumed) {
      app.strip = [];
      app.alarms = [];
    }
    app.covered = hello.from;
    app.table = hello;
    // Loaded before the feed started (app.js); loaded now only if the table's game changed.
    loadViews(hello).then(() => {
      showView();
      renderView();
    });
    $('table-name').textContent = `${hello.table} · ${hello.rulesetTitle || hello.ruleset}`;
    document.title = `tableside · ${hello.table}`;
    publishDiagnostics();
  });
  stream.addEventListener('state', (message) => {
    app.state = JSON.parse(message.data);
    // A ruleset changed to another game's: the hello of a new connection names its view.
    if (app.state.ruleset && app.table && app.state.ruleset !== app.table.ruleset) {
      if (app.reconnectingFor !== app.state.ruleset) {
        app.reconnectingFor = app.state.ruleset;
        connect();
        return;
      }
    }
    renderView();
  });
  stream.addEventListener('wheel', (message) => {
    app.wheel = JSON.parse(message.data);
    renderView();
  });
  stream.addEventListener('roads', (message) => {
    app.roads = JSON.parse(message.data);
    renderScoreboard();
  });
  stream.addEventListener('notice', (message) => {
    const notice = JSON.parse(message.data);
    banner(notice.message, notice.level);
  });
  stream.addEventListener('message', (message) => {
    let event;
    try {
      event = JSON.parse(message.data);
    } catch {
      banner('the live feed sent a frame that is not JSON; it was ignored');
      return;
    }
    if (app.covered !== null && event.seq <= app.covered) {
      app.duplicates++;
      publishDiagnostics();
      return;
    }
    if (app.covered !== null && event.after !== app.covered) app.gaps++;
    app.covered = event.seq;
    onEvent(event);
    publishDiagnostics();
  });
}

function setLive(live) {
  $('live').textContent = live ? 'live' : 'reconnecting…';
  $('live').className = `live ${live ? 'on' : 'off'}`;
}

/** What a test (or a technician with the inspector) reads to see the feed is whole. */
function publishDiagnostics() {
  const data = document.body.dataset;
  data.lastSeq = String(app.covered);
  data.gaps = String(app.gaps);
  data.duplicates = String(app.duplicates);
}

function onEvent(event) {
  // The last result stays until the next round starts, a new deck or shoe before it too
  // (a deck-per-round game shuffles between every two rounds).
  if (event.type === 'shoe_start') {
    app.strip = [];
    app.alarms = [];
    renderAlarms();
  }
  if (event.type === 'card') {
    app.strip.push(event);
    const strip = $('shoe-strip');
    strip.append(stripCard(event));
    strip.scrollLeft = strip.scrollWidth;
  }
  if (event.type === 'result') {
    app.lastResult = event;
    renderView();
  }
  if (event.type === 'round_start') app.lastResult = null;
  if (event.type === 'shoe_start') $('shoe-strip').replaceChildren();
  if (
    event.type === 'alarm' ||
    event.type === 'event_withheld' ||
    event.type === 'hand_voided' ||
    event.type === 'reshuffle_required' ||
    event.type === 'game_voided'
  ) {
    app.alarms.unshift(event);
    app.alarms.length = Math.min(app.alarms.length, 30);
    renderAlarms();
  }
  viewOnEvent(event);
}

function stripCard(event) {
  const code = event.hidden ? null : event.card;
  return h(
    'span',
    {
      class: 'strip-card',
      'data-seq': event.seq,
      title: `${event.to}${event.hidden ? ' (face down)' : ''}`,
    },
    cardEl(code),
    h('span', { class: 'to' }, shortTo(event.to)),
  );
}

export function shortTo(to) {
  if (to === 'player') return 'P';
  if (to === 'banker') return 'B';
  if (to === 'dealer') return 'D';
  if (to === 'burn') return 'burn';
  if (to === 'marker') return 'marker';
  if (typeof to === 'string' && to.startsWith('box:')) return to.slice(4);
  return to;
}
