/**
 * The web console's bad input, over plain HTTP against the real daemon: a
 * wrong password (rate-limited), requests without a session, from another
 * site or without the CSRF token, malformed bodies, a bad day, and a journal
 * file that no longer verifies. Each gets a clear error; the daemon keeps
 * running and journals nothing for any of them.
 */
import { closeSync, openSync, readdirSync, readFileSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from './helpers/environment.ts';
import { USERS, WebTable } from './helpers/web-table.ts';

describe('bad requests to the web console get clear errors and change nothing', () => {
  let table: WebTable | undefined;
  afterEach(async () => {
    await table?.stop();
    table = undefined;
  });

  it('refuses each with a status and a message, journals none, and keeps dealing', async () => {
    table = await WebTable.start('bad-input', { cardIntervalMs: 50, roundIntervalMs: 80 });
    const url = table.url;
    const post = (path: string, body: string, headers: Record<string, string> = {}) =>
      fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
    const answer = async (response: Response): Promise<Record<string, unknown>> => ({
      ...((await response.json()) as Record<string, unknown>),
      http: response.status,
    });

    // Not logged in: no stream, no history, no requests.
    expect(await answer(await fetch(`${url}/api/stream`))).toMatchObject({
      http: 401,
      code: 'login_required',
    });
    expect(await answer(await post('/api/request/new_shoe', '{}'))).toMatchObject({ http: 401 });

    // The session cookie is HttpOnly and SameSite=Strict.
    const login = await post(
      '/api/login',
      JSON.stringify({ user: 'alice', password: USERS.alice.password }),
    );
    expect(login.headers.get('set-cookie')).toMatch(
      /^tableside_session=[^;]+; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+$/,
    );
    const { cookie, csrf } = await table.login('alice');

    // From another site, even with the cookie and the token.
    expect(
      await answer(
        await post('/api/request/void_hand', '{"reason":"forged"}', {
          cookie,
          'x-csrf-token': csrf,
          origin: 'http://evil.example',
        }),
      ),
    ).toMatchObject({
      http: 403,
      code: 'cross_site',
      error: `refused: a request from http://evil.example, not ${url}`,
    });
    expect(
      await answer(
        await post('/api/request/void_hand', '{"reason":"forged"}', {
          cookie,
          'x-csrf-token': csrf,
          'sec-fetch-site': 'cross-site',
        }),
      ),
    ).toMatchObject({ http: 403, code: 'cross_site' });
    // Without the CSRF token, or with a wrong one.
    expect(
      await answer(await post('/api/request/void_hand', '{"reason":"no token"}', { cookie })),
    ).toMatchObject({
      http: 403,
      code: 'bad_csrf',
    });
    expect(
      await answer(
        await post('/api/request/void_hand', '{"reason":"no token"}', {
          cookie,
          'x-csrf-token': `${csrf}x`,
        }),
      ),
    ).toMatchObject({ http: 403, code: 'bad_csrf' });
    // Malformed bodies and unknown requests.
    const good = { cookie, 'x-csrf-token': csrf };
    expect(await answer(await post('/api/request/void_hand', '{"reason":', good))).toMatchObject({
      http: 400,
      code: 'bad_json',
      error: 'the request body is not valid JSON',
    });
    expect(
      await answer(await post('/api/request/void_hand', '{"reason":"x"}', good)),
    ).toMatchObject({
      http: 400,
      code: 'bad_request',
      error: 'void_hand: reason: a reason of at least 3 characters',
    });
    expect(await answer(await post('/api/request/void_hand', '[1,2]', good))).toMatchObject({
      http: 400,
      code: 'bad_json',
    });
    expect(await answer(await post('/api/request/explode', '{}', good))).toMatchObject({
      http: 400,
      error:
        'unknown request "explode"; known: new_shoe, void_hand, new_round, set_ruleset, no_more_bets, closing, reopen',
    });
    expect(
      await answer(
        await post('/api/request/set_ruleset', '{"ruleset":"bulgaria-punto-banco"}', good),
      ),
    ).toMatchObject({
      http: 409,
      code: 'shoe_in_play',
    });
    expect(
      await answer(await fetch(`${url}/api/history?day=yesterday`, { headers: { cookie } })),
    ).toMatchObject({
      http: 400,
      error: 'day "yesterday": expected a date as YYYY-MM-DD',
    });

    // Logging out ends the session's open stream, and the cookie no longer opens one.
    const other = await table.login('alice');
    const live = await fetch(`${url}/api/stream`, { headers: { cookie: other.cookie } });
    const reader = live.body!.getReader();
    await reader.read();
    expect(await answer(await post('/api/logout', '{}', { cookie: other.cookie }))).toMatchObject({
      http: 200,
    });
    let done = false;
    while (!done) done = (await reader.read()).done;
    expect(
      await answer(await fetch(`${url}/api/stream`, { headers: { cookie: other.cookie } })),
    ).toMatchObject({
      http: 401,
    });

    // Wrong passwords: five are answered, the sixth within the minute is rate-limited.
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect(
        await answer(await post('/api/login', JSON.stringify({ user: 'bob', password: 'guess' }))),
      ).toEqual({
        http: 401,
        status: 'error',
        code: 'bad_login',
        error: 'wrong user name or password',
      });
    }
    const limited = await post(
      '/api/login',
      JSON.stringify({ user: 'bob', password: USERS.bob.password }),
    );
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await limited.json()) as { error: string }).error).toMatch(
      /too many failed logins from this address: try again in \d+ s/,
    );

    // Nothing of it was journaled, and the table deals on.
    const records = await table.journal();
    expect(
      records.filter(
        (r) => r.kind === 'input' && String((r.data as { src?: string }).src).startsWith('web:'),
      ),
    ).toEqual([]);
    const lastSeq = records.at(-1)!.seq;
    await until(async () => (await table!.journal()).at(-1)!.seq > lastSeq + 5, 'more records');

    // A journal file edited behind the daemon's back: the console says so, and the daemon goes on.
    // One byte of an early record, rewritten in place (the daemon keeps appending to its file).
    const files = readdirSync(table.journalDir).filter((name) => name.endsWith('.jsonl'));
    const file = files.find(
      (name) => readFileSync(join(table!.journalDir, name), 'utf8').split('\n').length > 4,
    )!;
    const path = join(table.journalDir, file);
    const text = readFileSync(path, 'utf8');
    const at = Buffer.byteLength(text.slice(0, text.indexOf('"ts":', text.indexOf('\n') + 1) + 5));
    const fd = openSync(path, 'r+');
    const digit = Buffer.alloc(1);
    readSync(fd, digit, 0, 1, at);
    writeSync(fd, Buffer.from(String((Number(digit.toString()) + 1) % 10)), 0, 1, at);
    closeSync(fd);
    const verify = await answer(await fetch(`${url}/api/journal/verify`, { headers: { cookie } }));
    expect(verify).toMatchObject({ http: 200, ok: false });
    expect((verify.findings as unknown[])[0]).toMatchObject({ problem: 'edited', file });
    await until(() => table!.daemon.stderr.includes('journal does not verify'), 'the log line');
    const devices = await answer(await fetch(`${url}/api/devices`, { headers: { cookie } }));
    expect(devices).toMatchObject({ journal: { verify: { ok: false } } });
    expect(table.daemon.running).toBe(true);
  });
});
