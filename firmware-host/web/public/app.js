// The tableside web console: plain browser modules, served as written (no
// build step). Data comes from the daemon's live feed (Server-Sent Events,
// resumed by seq) and its JSON API; nothing here holds a second table state.
import { api } from './api.js';
import { loadDevices } from './devices.js';
import { $, banner, h } from './dom.js';
import { connect } from './feed.js';
import { loadHistory } from './history.js';
import { showRequests } from './requests.js';
import { app } from './state.js';
import { loadViews, scoreboardShown } from './views.js';

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
  // A drawing made while the page was hidden had no layout (the roads scroll to their latest).
  if (name === 'scoreboard') scoreboardShown();
  if (name === 'history' && !$('history').dataset.loaded) loadHistory();
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
  await signedIn(body);
}

async function signedIn(me) {
  app.me = me;
  app.csrf = me.csrf || null;
  $('login').hidden = true;
  $('who').textContent = `${me.user} (${me.role})`;
  $('logout').hidden = !!me.anonymous;
  // The game's own modules for its parts of the page (and their markup), before any event
  // reaches them and before their request panels are filled.
  try {
    await loadViews(me);
  } catch (error) {
    banner(`the table's view could not be loaded: ${error.message}`);
  }
  showRequests(me.role);
  document.body.dataset.role = me.role;
  for (const select of document.querySelectorAll('select.ruleset-select')) {
    select.replaceChildren(
      ...(me.rulesets || []).map((name) =>
        h('option', { value: name, selected: name === me.ruleset }, name),
      ),
    );
  }
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
  await signedIn(me.body);
});

$('logout').addEventListener('click', async () => {
  await api('/api/logout', { method: 'POST' });
  if (app.stream) app.stream.close();
  sessionStorage.clear();
  location.reload();
});

window.addEventListener('hashchange', showPage);
start().catch((error) => banner(`the console could not start: ${error.message}`));
