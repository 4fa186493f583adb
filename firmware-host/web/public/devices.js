// The Devices page: devices, broker, journal (and its verification on request).
import { api } from './api.js';
import { $, banner, h } from './dom.js';
import { app } from './state.js';

/** Why a device's line is not open, when it is tried again, and for how long it has been away. */
function lineText(line) {
  const next =
    line.nextTryInMs === undefined
      ? ''
      : ` · next try in ${(line.nextTryInMs / 1000).toFixed(1)} s`;
  const away = ` · unreachable for ${Math.round(line.unreachableForMs / 1000)} s`;
  return `${line.reason}${next} (attempt ${line.attempt})${away}${line.alarmed ? ' · alarmed' : ''}`;
}

export async function loadDevices() {
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
          ' ',
          h('span', { class: `pill pairing ${device.pairing.state}` }, device.pairing.state),
        ),
        h(
          'dl',
          {},
          h('dt', {}, 'kind'),
          h('dd', {}, device.kind),
          h('dt', {}, 'link'),
          h('dd', {}, `${device.link} · ${device.url}`),
          ...(device.line
            ? [h('dt', {}, 'not open'), h('dd', { class: 'line' }, lineText(device.line))]
            : []),
          h('dt', {}, 'identity'),
          h(
            'dd',
            {},
            device.identity
              ? `${device.identity.model} · serial ${device.identity.serial} · firmware ${device.identity.firmware} · protocol ${device.identity.protocol}`
              : '—',
          ),
          h('dt', {}, 'pairing'),
          h('dd', { class: 'pairing' }, device.pairing.text),
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
