// A supervisor's requests, in every view's panel (`.requests`): confirmed first, then sent with the CSRF token.
import { api } from './api.js';
import { $ } from './dom.js';

const REQUEST_TEXT = {
  new_round: () => 'Start the next coup / round?',
  new_shoe: () => 'Start a new shoe? The shoe in play ends.',
  void_hand: (body) =>
    `Void the hand in play because “${body.reason}”? The void is journaled with your name.`,
  set_ruleset: (body) => `Change the ruleset to ${body.ruleset}? Only between shoes or games.`,
  no_more_bets: () => 'Close the betting on the game in play (“no more bets”)?',
  closing: () =>
    'Announce closing time? The last games are counted down, then the table closes for the day.',
  reopen: (body) =>
    `Reopen the closed table because “${body.reason}”? Closing time ends; the reopening is journaled with your name.`,
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

/** Whether a user of this role sees the request panels. */
export function showRequests(role) {
  for (const panel of document.querySelectorAll('.requests')) panel.hidden = role !== 'supervisor';
}

for (const panel of document.querySelectorAll('.requests')) {
  const result = panel.querySelector('.request-result');
  for (const button of panel.querySelectorAll('button[data-op]')) {
    button.addEventListener('click', async () => {
      const op = button.dataset.op;
      const body = {};
      if (op === 'void_hand' || op === 'reopen') {
        const reason = panel.querySelector(op === 'reopen' ? '.reopen-reason' : '.void-reason');
        body.reason = reason.value.trim();
        if (body.reason.length < 3) {
          result.textContent = `Give the reason for the ${op === 'reopen' ? 'reopening' : 'void'} (at least 3 characters).`;
          return;
        }
      }
      if (op === 'set_ruleset') body.ruleset = panel.querySelector('.ruleset-select').value;
      if (!(await confirmDialog(REQUEST_TEXT[op](body)))) return;
      const { status, body: answer } = await api(`/api/request/${op}`, {
        method: 'POST',
        body: JSON.stringify(body),
      });
      const name = op.replaceAll('_', ' ');
      result.textContent =
        status === 200
          ? `${name}: done (journal seq ${answer.data && answer.data.seq !== undefined ? answer.data.seq : '–'})`
          : `${name} refused: ${answer.error}`;
      result.className = `request-result ${status === 200 ? 'ok' : 'error'}`;
      if (status === 200 && op === 'void_hand') panel.querySelector('.void-reason').value = '';
    });
  }
}
