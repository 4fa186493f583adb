// A supervisor's requests, in every view's panel (`.requests`, the game's view may mount its own):
// confirmed first in the view's words, then sent with the CSRF token.
import { api } from './api.js';
import { $ } from './dom.js';
import { requestText } from './views.js';

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

/** Sends one request from its panel: the reason its panel asks for it (`data-reason-for`), the ruleset. */
async function send(panel, op) {
  const result = panel.querySelector('.request-result');
  const body = {};
  const reason = panel.querySelector(`input[data-reason-for="${op}"]`);
  if (reason) {
    body.reason = reason.value.trim();
    if (body.reason.length < 3) {
      result.textContent = `Give the reason for the ${reason.dataset.reasonNoun} (at least 3 characters).`;
      return;
    }
  }
  if (op === 'set_ruleset') body.ruleset = panel.querySelector('.ruleset-select').value;
  if (!(await confirmDialog(requestText(op, body)))) return;
  // The last request's answer goes while this one is out: an answer shown is always this one's.
  result.textContent = '';
  result.className = 'request-result';
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
  if (status === 200 && reason) reason.value = '';
}

// One listener for every panel: a view mounted after the page loaded has its buttons answered too.
document.addEventListener('click', (event) => {
  const button = event.target.closest?.('.requests button[data-op]');
  if (button) send(button.closest('.requests'), button.dataset.op);
});
