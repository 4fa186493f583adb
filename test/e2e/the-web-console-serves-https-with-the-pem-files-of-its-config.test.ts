/**
 * `web.tls` takes PEM files as `mqtt.tls` does: the console is then HTTPS
 * only, its session cookie Secure. A key that cannot be read stops the
 * daemon at start with the option and the path named.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/ports.ts';
import { commandMissing } from '../helpers/tools.ts';
import { startDaemon, tempDir, writeConfig } from './helpers/daemon.ts';
import { skipReason } from './helpers/environment.ts';
import { USERS, WebTable } from './helpers/web-table.ts';

const skip = skipReason(commandMissing('openssl', 'no certificate to serve'));

function httpsRequest(
  url: string,
  ca: Buffer,
  body?: string,
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        ca,
        method: body ? 'POST' : 'GET',
        headers: body ? { 'content-type': 'application/json' } : {},
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe.skipIf(skip)('the web console serves HTTPS with the PEM files of its config', () => {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('answers over TLS with a certificate the client trusts, sets a Secure cookie, and refuses to start without its key', async () => {
    const certs = tempDir('web-tls');
    cleanups.push(() => rmSync(certs, { recursive: true, force: true }));
    const made = spawnSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        'web.key',
        '-out',
        'web.pem',
      ],
      { cwd: certs, encoding: 'utf8' },
    );
    expect(made.status, made.stderr).toBe(0);
    const cert = join(certs, 'web.pem');
    const table = await WebTable.start('web-tls', {
      web: { tls: { cert, key: join(certs, 'web.key') } },
    });
    cleanups.push(() => table.stop());
    expect(table.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const ca = readFileSync(cert);
    const page = await httpsRequest(`${table.url}/`, ca);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<title>tableside</title>');
    const login = await httpsRequest(
      `${table.url}/api/login`,
      ca,
      JSON.stringify({ user: 'alice', password: USERS.alice.password }),
    );
    expect(login.status).toBe(200);
    expect(String(login.headers['set-cookie'])).toMatch(
      /; HttpOnly; SameSite=Strict; Max-Age=\d+; Secure$/,
    );
    // A client that does not trust the certificate is refused by TLS itself.
    await expect(httpsRequest(`${table.url}/`, Buffer.from(''))).rejects.toThrow(
      /self[- ]signed|unable to verify|certificate/i,
    );

    const dir = tempDir('web-tls-missing');
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const config = writeConfig(dir, {
      devices: { shoe: { kind: 'shoe', transport: 'simulate' } },
      mqtt: { port: await freePort() },
      journal: { dir: join(dir, 'journal') },
      web: { port: 0, tls: { cert, key: join(certs, 'missing.key') } },
    });
    const daemon = startDaemon(config, { cwd: dir });
    const exit = await daemon.exited;
    expect(exit.code, daemon.describe()).toBe(1);
    expect(daemon.stderr).toContain(`web.tls.key: cannot read ${join(certs, 'missing.key')}`);
  });
});
