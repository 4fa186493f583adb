/**
 * DNS rebinding: a page of another site whose name now points at the
 * console's address sends that site's name in `Host`. The console answers
 * only to its own names (the address it listens on, localhost on loopback,
 * and `web.allowedHosts` for a reverse proxy) and refuses the rest with 421,
 * naming the header, before any page or data.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { rawRequest } from './helpers/raw-http.ts';
import { USERS, WebTable } from './helpers/web-table.ts';

describe('the web console refuses a Host header that is not one of its names', () => {
  let table: WebTable | undefined;
  afterEach(async () => {
    await table?.stop();
    table = undefined;
  });

  it('answers 127.0.0.1, localhost, ::1 and the allowed proxy name, and refuses another name on every path', async () => {
    table = await WebTable.start('host-header', {
      web: { allowedHosts: ['table-1.casino.example'] },
    });
    const { url } = table;
    const port = new URL(url).port;
    const get = (path: string, host: string, headers: Record<string, string> = {}) =>
      rawRequest(url, { method: 'GET', path, headers: { host, ...headers } });

    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `LOCALHOST:${port}`,
      `[::1]:${port}`,
      'table-1.casino.example',
      'table-1.casino.example:443',
    ]) {
      expect((await get('/', host)).status, host).toBe(200);
      expect((await get('/api/me', host)).status, host).toBe(200);
    }

    const { cookie } = await table.login('bob');
    for (const [path, host] of [
      ['/', `evil.example:${port}`],
      ['/app.js', `evil.example:${port}`],
      ['/api/me', `rebound.attacker.example:${port}`],
      ['/api/history', `localhost.evil.example:${port}`],
      ['/api/stream', `127.0.0.1.nip.io:${port}`],
    ] as const) {
      const refused = await get(path, host, { cookie });
      expect(refused, `${path} ${host}`).toMatchObject({
        status: 421,
        code: 'wrong_host',
        error: `refused: the Host header "${host}" is not a name of this console (a reverse proxy's name goes in web.allowedHosts)`,
      });
      expect(refused.body).not.toContain('web-e2e');
    }
    const login = await rawRequest(url, {
      path: '/api/login',
      headers: { host: 'evil.example', 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'alice', password: USERS.alice.password }),
    });
    expect(login).toMatchObject({ status: 421, code: 'wrong_host' });
    expect(login.headers['set-cookie']).toBeUndefined();
    expect(table.daemon.stderr).toContain('request refused: not our Host name');
    // A config with users is not a bench: no supervisor login link is printed.
    expect(table.daemon.stderr).not.toContain('log in as a supervisor');
  });
});
