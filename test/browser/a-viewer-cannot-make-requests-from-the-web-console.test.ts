// (page.evaluate callbacks run in the browser)
import { afterEach, describe, expect, it } from 'vitest';
import { skipReason, until } from '../e2e/helpers/environment.ts';
import { USERS, WebTable } from '../e2e/helpers/web-table.ts';
import { chromiumMissing, launchBrowser, logIn, type TestBrowser } from './helpers/browser.ts';

const skip = skipReason(chromiumMissing());

describe.skipIf(skip)('a viewer cannot make requests from the web console', () => {
  let table: WebTable | undefined;
  let browser: TestBrowser | undefined;
  afterEach(async () => {
    await browser?.close();
    await table?.stop();
    browser = table = undefined;
  });

  it('shows no request buttons, and a request sent anyway is refused and journals nothing', async () => {
    table = await WebTable.start('viewer');
    browser = await launchBrowser();
    const { page } = browser;
    // A wrong password first: the page says so and stays on the login form.
    await page.goto(`${table.url}/#table`);
    await page.locator('#login-form input[name=user]').fill('bob');
    await page.locator('#login-form input[name=password]').fill('not-his-password');
    await page.locator('#login-form button[type=submit]').click();
    await expect
      .poll(() => page.locator('#login-error').textContent())
      .toBe('wrong user name or password');
    expect(await page.locator('#page-table').isHidden()).toBe(true);

    await logIn(page, table.url, 'bob', USERS.bob.password);
    expect(await page.locator('#who').textContent()).toBe('bob (viewer)');
    expect(await page.locator('#requests').isHidden()).toBe(true);

    // The viewer's own session and CSRF token, from the page itself: still not allowed.
    const answers = await page.evaluate(async () => {
      const me = await (await fetch('/api/me')).json();
      const results = [];
      for (const [op, body] of [
        ['void_hand', { reason: 'viewer tries a void' }],
        ['new_shoe', {}],
        ['set_ruleset', { ruleset: 'tdc-blackjack' }],
      ] as const) {
        const response = await fetch(`/api/request/${op}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': me.csrf },
          body: JSON.stringify(body),
        });
        results.push({ status: response.status, body: await response.json() });
      }
      return results;
    });
    for (const answer of answers) {
      expect(answer).toEqual({
        status: 403,
        body: {
          status: 'error',
          code: 'not_allowed',
          error: 'bob is a viewer: only a supervisor may make requests',
        },
      });
    }
    const records = await table.journal();
    const fromTheWeb = records.filter(
      (record) =>
        (record.kind === 'input' &&
          String((record.data as { src?: string }).src).startsWith('web:')) ||
        (record.kind === 'meta' && (record.data as { type: string }).type === 'ruleset'),
    );
    expect(fromTheWeb).toEqual([]);
    await until(
      () => table!.daemon.stderr.includes('request refused: not a supervisor'),
      'the log line',
    );
    expect(table.daemon.running).toBe(true);
  });
});
