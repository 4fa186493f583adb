// The tableside web console: plain browser JavaScript, served as written (no
// build step). Data comes from the daemon's live feed (Server-Sent Events,
// resumed by seq) and its JSON API; nothing here holds a second table state.

const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';

/** An element with attributes and children (text is always text, never markup). */
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') el.className = value;
    else if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs || {})) el.setAttribute(key, String(value));
  for (const child of children)
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return el;
}

const app = {
  me: null,
  csrf: null,
  table: null,
  state: null,
  roads: null,
  covered: null,
  gaps: 0,
  duplicates: 0,
  alarms: [],
  strip: [],
  stream: null,
  lastResult: null,
};

// ------------------------------------------------------------------ cards

const SUITS = { S: '♠', H: '♥', D: '♦', C: '♣' };
const RANKS = { T: '10', J: 'J', Q: 'Q', K: 'K', A: 'A' };

/** A card face, or its back when the card is hidden (null). */
function cardEl(code, extra) {
  if (!code || typeof code !== 'string' || code.length !== 2 || !SUITS[code[1]]) {
    const label = code && typeof code === 'string' ? code : '';
    return h(
      'span',
      { class: `card back ${extra || ''}`, title: label || 'face down' },
      label && label !== 'hidden' ? label : '',
    );
  }
  const suit = code[1];
  const red = suit === 'H' || suit === 'D';
  return h(
    'span',
    { class: `card ${red ? 'red' : 'black'} ${extra || ''}`, 'data-card': code },
    RANKS[code[0]] || code[0],
    h('span', { class: 'suit' }, SUITS[suit]),
  );
}

// ------------------------------------------------------------------ pages

function showPage() {
  const page = (location.hash || '#table').slice(1);
  const known = ['table', 'scoreboard', 'devices', 'history'];
  const name = known.includes(page) ? page : 'table';
  for (const other of known) $(`page-${other}`).hidden = !app.me || other !== name;
  for (const link of document.querySelectorAll('#nav a')) {
    link.classList.toggle('active', link.dataset.page === name);
  }
  document.body.dataset.page = name;
  if (!app.me) return;
  if (name === 'devices') loadDevices();
  if (name === 'history' && !$('history').dataset.loaded) loadHistory();
}

function banner(message, level) {
  const el = $('banner');
  el.textContent = message || '';
  el.className = `banner ${level || 'error'}`;
  el.hidden = !message;
}

// ------------------------------------------------------------------ login

async function api(path, options) {
  const response = await fetch(path, {
    credentials: 'same-origin',
    ...options,
    headers: {
      ...(options?.body ? { 'content-type': 'application/json' } : {}),
      ...(app.csrf ? { 'x-csrf-token': app.csrf } : {}),
      ...(options?.headers || {}),
    },
  });
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = { status: 'error', error: `HTTP ${response.status}` };
  }
  return { status: response.status, body };
}

async function start() {
  const { body } = await api('/api/me');
  if (!body?.user) {
    app.me = null;
    $('login').hidden = false;
    $('live').textContent = 'logged out';
    showPage();
    return;
  }
  signedIn(body);
}

function signedIn(me) {
  app.me = me;
  app.csrf = me.csrf || null;
  $('login').hidden = true;
  $('who').textContent = `${me.user} (${me.role})`;
  $('logout').hidden = !!me.anonymous;
  $('requests').hidden = me.role !== 'supervisor';
  document.body.dataset.role = me.role;
  const select = $('ruleset-select');
  select.replaceChildren(
    ...(me.rulesets || []).map((name) =>
      h('option', { value: name, selected: name === me.ruleset }, name),
    ),
  );
  connect();
  showPage();
}

$('login-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  const { status, body } = await api('/api/login', {
    method: 'POST',
    body: JSON.stringify({ user: form.get('user'), password: form.get('password') }),
  });
  if (status !== 200) {
    $('login-error').textContent = body.error || 'login failed';
    return;
  }
  $('login-error').textContent = '';
  const me = await api('/api/me');
  signedIn(me.body);
});

$('logout').addEventListener('click', async () => {
  await api('/api/logout', { method: 'POST' });
  if (app.stream) app.stream.close();
  sessionStorage.clear();
  location.reload();
});

// ------------------------------------------------------------------ live feed

function seqKey() {
  return `tableside.seq.${app.me?.table || ''}`;
}

function connect() {
  if (app.stream) app.stream.close();
  const saved = sessionStorage.getItem(seqKey());
  const since = saved && /^\d+$/.test(saved) ? `?since=${saved}` : '';
  if (since) document.body.dataset.resumedFrom = saved;
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
    $('table-name').textContent = `${hello.table} · ${hello.rulesetTitle || hello.ruleset}`;
    document.title = `tableside · ${hello.table}`;
    publishDiagnostics();
  });
  stream.addEventListener('state', (message) => {
    app.state = JSON.parse(message.data);
    renderTable();
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
    sessionStorage.setItem(seqKey(), String(event.seq));
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
  if (event.type === 'shoe_start') {
    app.strip = [];
    app.alarms = [];
    app.lastResult = null;
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
    renderTable();
  }
  if (event.type === 'round_start') app.lastResult = null;
  if (event.type === 'shoe_start') $('shoe-strip').replaceChildren();
  if (
    event.type === 'alarm' ||
    event.type === 'event_withheld' ||
    event.type === 'hand_voided' ||
    event.type === 'reshuffle_required'
  ) {
    app.alarms.unshift(event);
    app.alarms.length = Math.min(app.alarms.length, 30);
    renderAlarms();
  }
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

function shortTo(to) {
  if (to === 'player') return 'P';
  if (to === 'banker') return 'B';
  if (to === 'dealer') return 'D';
  if (to === 'burn') return 'burn';
  if (to === 'marker') return 'marker';
  if (typeof to === 'string' && to.startsWith('box:')) return to.slice(4);
  return to;
}

// ------------------------------------------------------------------ table page

function renderTable() {
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
function handBoxes(view) {
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
      const name =
        item.box !== undefined
          ? `Box ${item.box}`
          : item.position !== undefined
            ? `Position ${item.position}`
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

function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function renderResult() {
  const event = app.lastResult;
  const el = $('result');
  if (!event) {
    el.textContent = '';
    return;
  }
  const outcome = event.outcome || {};
  el.textContent = `Round ${event.round}: ${outcome.announcement || outcomeSummary(outcome)}`;
  el.className = `result ${outcome.winner || ''}`;
}

/** Games without an announcement: each bet's result (a multiple of the stake, −1 lost, 0 push). */
function outcomeSummary(outcome) {
  if (outcome.winner) return String(outcome.winner);
  const bets = Object.entries(outcome.bets || {});
  if (bets.length === 0) return 'complete';
  const text = bets
    .slice(0, 8)
    .map(
      ([bet, pays]) =>
        `${bet} ${pays > 0 ? `wins ${pays}` : pays === -1 ? 'loses' : pays < 0 ? `loses ${-pays}` : 'push'}`,
    )
    .join(' · ');
  return bets.length > 8 ? `${text} …` : text;
}

function renderAlarms() {
  $('alarms').replaceChildren(
    ...app.alarms.map((alarm) =>
      h(
        'li',
        { class: `alarm ${alarm.type}`, 'data-seq': alarm.seq },
        h('span', { class: 'kind' }, alarm.kind || alarm.type),
        ' ',
        alarm.message || alarm.reason || '',
        alarm.rule ? h('span', { class: 'rule' }, ` (${alarm.rule})`) : null,
      ),
    ),
  );
}

// ------------------------------------------------------------------ requests

const REQUEST_TEXT = {
  new_round: () => 'Start the next coup / round?',
  new_shoe: () => 'Start a new shoe? The shoe in play ends.',
  void_hand: (body) =>
    `Void the hand in play because “${body.reason}”? The void is journaled with your name.`,
  set_ruleset: (body) => `Change the ruleset to ${body.ruleset}? Only between shoes.`,
};

function confirmDialog(text) {
  return new Promise((resolve) => {
    const dialog = $('confirm');
    $('confirm-text').textContent = text;
    dialog.returnValue = '';
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'ok'), { once: true });
    dialog.showModal();
  });
}

for (const button of document.querySelectorAll('#requests button[data-op]')) {
  button.addEventListener('click', async () => {
    const op = button.dataset.op;
    const body = {};
    if (op === 'void_hand') {
      body.reason = $('void-reason').value.trim();
      if (body.reason.length < 3) {
        $('request-result').textContent = 'Give the reason for the void (at least 3 characters).';
        return;
      }
    }
    if (op === 'set_ruleset') body.ruleset = $('ruleset-select').value;
    if (!(await confirmDialog(REQUEST_TEXT[op](body)))) return;
    const { status, body: answer } = await api(`/api/request/${op}`, {
      method: 'POST',
      body: JSON.stringify(body),
    });
    $('request-result').textContent =
      status === 200
        ? `${op.replace('_', ' ')}: done (journal seq ${answer.data && answer.data.seq !== undefined ? answer.data.seq : '–'})`
        : `${op.replace('_', ' ')} refused: ${answer.error}`;
    $('request-result').className = `request-result ${status === 200 ? 'ok' : 'error'}`;
    if (status === 200 && op === 'void_hand') $('void-reason').value = '';
  });
}

// ------------------------------------------------------------------ scoreboard

const COLOURS = { B: '#d3202f', P: '#1f5fd6', T: '#169c45', red: '#d3202f', blue: '#1f5fd6' };

/** A six-row grid as SVG, at least `minCols` wide, showing the last columns that fit. */
function roadSvg(cells, minCols, drawCell) {
  const cols = Math.max(minCols, ...cells.map((cell) => cell.col + 1));
  const size = 20;
  const svg = s('svg', {
    viewBox: `0 0 ${cols * size} ${6 * size}`,
    class: 'road-svg',
    role: 'img',
    'data-cells': cells.length,
  });
  for (let c = 0; c <= cols; c++)
    svg.append(s('line', { x1: c * size, y1: 0, x2: c * size, y2: 6 * size, class: 'grid' }));
  for (let r = 0; r <= 6; r++)
    svg.append(s('line', { x1: 0, y1: r * size, x2: cols * size, y2: r * size, class: 'grid' }));
  for (const cell of cells) {
    const g = s('g', {
      transform: `translate(${cell.col * size + size / 2} ${cell.row * size + size / 2})`,
      'data-col': cell.col,
      'data-row': cell.row,
    });
    drawCell(g, cell);
    svg.append(g);
  }
  return svg;
}

function pairDots(g, cell) {
  if (cell.banker_pair)
    g.append(s('circle', { cx: -6, cy: -6, r: 2.6, fill: COLOURS.B, class: 'pair banker-pair' }));
  if (cell.player_pair)
    g.append(s('circle', { cx: 6, cy: 6, r: 2.6, fill: COLOURS.P, class: 'pair player-pair' }));
}

function renderScoreboard() {
  const roads = app.roads;
  $('no-roads').hidden = !!roads;
  if (!roads) return;
  // The journal seq these roads are as of: a display (or a test) can tell which shoe it shows.
  $('page-scoreboard').dataset.seq = String(roads.seq);
  const counts = roads.counts || {};
  $('counts').replaceChildren(
    h('span', { class: 'count banker' }, `Banker ${counts.B ?? 0}`),
    h('span', { class: 'count player' }, `Player ${counts.P ?? 0}`),
    h('span', { class: 'count tie' }, `Tie ${counts.T ?? 0}`),
    h('span', { class: 'count' }, `B pair ${counts.banker_pairs ?? 0}`),
    h('span', { class: 'count' }, `P pair ${counts.player_pairs ?? 0}`),
    h('span', { class: 'count' }, `Coups ${counts.coups ?? 0}`),
  );
  $('road-bead').replaceChildren(
    roadSvg(roads.bead_plate, 8, (g, cell) => {
      g.setAttribute('class', `bead ${cell.result}`);
      g.append(s('circle', { r: 8.5, fill: COLOURS[cell.result] }));
      g.append(s('text', { y: 3.6, 'text-anchor': 'middle', class: 'bead-letter' }, cell.result));
      pairDots(g, cell);
    }),
  );
  $('road-big').replaceChildren(
    roadSvg(roads.big_road, 24, (g, cell) => {
      g.setAttribute('class', `big ${cell.result}`);
      g.append(
        s('circle', { r: 7.5, fill: 'none', stroke: COLOURS[cell.result], 'stroke-width': 2.6 }),
      );
      if (cell.ties > 0) {
        g.append(
          s('line', {
            x1: -7,
            y1: 7,
            x2: 7,
            y2: -7,
            stroke: COLOURS.T,
            'stroke-width': 2.4,
            class: 'tie',
          }),
        );
        if (cell.ties > 1)
          g.append(s('text', { y: 3.5, 'text-anchor': 'middle', class: 'tie-count' }, cell.ties));
      }
      pairDots(g, cell);
    }),
  );
  const drawDerived = {
    big_eye_boy: (g, cell) =>
      g.append(
        s('circle', { r: 6.5, fill: 'none', stroke: COLOURS[cell.colour], 'stroke-width': 2.4 }),
      ),
    small_road: (g, cell) => g.append(s('circle', { r: 6.5, fill: COLOURS[cell.colour] })),
    cockroach_pig: (g, cell) =>
      g.append(
        s('line', {
          x1: -6,
          y1: 6,
          x2: 6,
          y2: -6,
          stroke: COLOURS[cell.colour],
          'stroke-width': 3,
        }),
      ),
  };
  for (const [name, draw] of Object.entries(drawDerived)) {
    $(`road-${name}`).replaceChildren(
      roadSvg(roads[name], 24, (g, cell) => {
        g.setAttribute('class', `derived ${cell.colour}`);
        draw(g, cell);
      }),
    );
  }
  // The newest columns in view: a scoreboard is read from its right end.
  for (const scroller of document.querySelectorAll('#page-scoreboard .road > div')) {
    scroller.scrollLeft = scroller.scrollWidth;
  }
  const next = roads.next || {};
  $('road-next').replaceChildren(
    ...['B', 'P'].map((side) =>
      h(
        'div',
        { class: `next next-${side}`, 'data-side': side },
        h('span', { class: `next-label ${side}` }, side === 'B' ? 'Banker' : 'Player'),
        ...Object.entries(next[side] || {}).map(([name, colour]) => {
          const svg = s('svg', {
            viewBox: '-10 -10 20 20',
            class: 'next-mark',
            'data-road': name,
            'data-colour': colour || 'none',
          });
          if (colour) drawDerived[name](svg, { colour });
          return svg;
        }),
      ),
    ),
  );
}

// ------------------------------------------------------------------ devices

async function loadDevices() {
  const { status, body } = await api('/api/devices');
  if (status !== 200) {
    banner(body.error);
    return;
  }
  $('devices').replaceChildren(
    ...body.devices.map((device) =>
      h(
        'article',
        { class: `device ${device.availability}`, 'data-device': device.name },
        h(
          'h3',
          {},
          device.name,
          ' ',
          h('span', { class: `pill ${device.availability}` }, device.availability),
        ),
        h(
          'dl',
          {},
          h('dt', {}, 'kind'),
          h('dd', {}, device.kind),
          h('dt', {}, 'link'),
          h('dd', {}, `${device.link} · ${device.url}`),
          h('dt', {}, 'identity'),
          h(
            'dd',
            {},
            device.identity
              ? `${device.identity.model} · serial ${device.identity.serial} · firmware ${device.identity.firmware} · protocol ${device.identity.protocol}`
              : '—',
          ),
          h('dt', {}, 'firmware'),
          h('dd', { class: 'verdict' }, device.firmwareVerdict),
          h('dt', {}, 'lines'),
          h(
            'dd',
            {},
            Object.entries(device.counters)
              .map(([k, v]) => `${k} ${v}`)
              .join(' · '),
          ),
          h('dt', {}, 'last notices'),
          h(
            'dd',
            {},
            device.notices.length ? device.notices.map((n) => n.message).join(' | ') : 'none',
          ),
        ),
      ),
    ),
  );
  $('broker').textContent =
    `${body.broker.url} · ${body.broker.connected ? 'connected' : 'NOT connected'}`;
  const free =
    body.journal.freeBytes === null
      ? 'unknown'
      : `${(body.journal.freeBytes / 1e9).toFixed(2)} GB free`;
  const verified = body.journal.verify
    ? body.journal.verify.ok
      ? `verified (${body.journal.verify.records} records)`
      : 'DOES NOT VERIFY'
    : 'not verified since start';
  $('journal').textContent =
    `${body.journal.dir} · last seq ${body.journal.lastSeq} · ${free} · ${verified}`;
  $('notices').replaceChildren(
    ...body.notices.map((n) =>
      h('li', { class: n.level }, `${new Date(n.ts).toLocaleTimeString()} ${n.message}`),
    ),
  );
}

$('verify').addEventListener('click', async () => {
  $('verify-result').textContent = 'verifying…';
  const { status, body } = await api('/api/journal/verify');
  if (status !== 200) {
    $('verify-result').textContent = body.error;
    return;
  }
  $('verify-result').textContent = body.ok
    ? `The journal verifies: ${body.records} records in ${body.files} files, hash chain intact.`
    : `The journal does NOT verify: ${body.findings.map((f) => `${f.file} line ${f.line}: ${f.message}`).join('; ')}`;
  $('verify-result').className = body.ok ? 'ok' : 'error';
  loadDevices();
});

setInterval(() => {
  if (app.me && document.body.dataset.page === 'devices' && !document.hidden) loadDevices();
}, 3000);

// ------------------------------------------------------------------ history

async function loadHistory() {
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
            h('th', {}, 'Hand'),
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
                    ? hand.result.announcement || hand.result.winner
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
  $('history').replaceChildren(
    h('h2', {}, `${body.table} · ${day}`),
    ...(shoes.length ? shoes : [h('p', { class: 'muted' }, 'No shoes journaled that day.')]),
    requests,
  );
}

let replay = null;

function openReplay(shoeIndex, hand) {
  replay = { hand, step: 0 };
  $('replay').hidden = false;
  $('replay-title').textContent =
    `Hand ${hand.round} (shoe ${shoeIndex + 1}), replayed card by card`;
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
    `step ${replay.step + 1} of ${events.length}: ${current.type}${current.type === 'card' ? ` ${current.hidden ? 'face down' : current.card} to ${current.to}` : ''}${current.outcome ? ` · ${current.outcome.announcement || ''}` : ''}${current.message ? ` · ${current.message}` : ''}`;
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

window.addEventListener('hashchange', showPage);
start().catch((error) => banner(`the console could not start: ${error.message}`));
