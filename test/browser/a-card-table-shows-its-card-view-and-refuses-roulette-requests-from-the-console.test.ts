// (page.evaluate callbacks run in the browser)
import { afterEach, describe, expect, it } from 'vitest';
import { skipReason } from '../e2e/helpers/environment.ts';
import { USERS, WebTable } from '../e2e/helpers/web-table.ts';
import { chromiumMissing, launchBrowser, logIn, type TestBrowser } from './helpers/browser.ts';

const skip = skipReason(chromiumMissing());

describe.skipIf(skip)(
  'a card table shows its card view and refuses roulette requests from the console',
  () => {
    let table: WebTable | undefined;
    let browser: TestBrowser | undefined;
    afterEach(async () => {
      await browser?.close();
      await table?.stop();
      browser = table = undefined;
    });

    it('draws the hand and the card requests, no roulette view, and journals no "no more bets"', async () => {
      table = await WebTable.start('card-view');
      browser = await launchBrowser();
      const { page } = browser;
      await logIn(page, table.url, 'alice', USERS.alice.password);
      await page.waitForSelector('#hand .card');
      expect(await page.locator('#view-cards').isVisible()).toBe(true);
      expect(await page.locator('#view-roulette').isHidden()).toBe(true);
      expect(await page.evaluate(() => document.body.dataset.view)).toBe('cards');
      expect(await page.locator('#shoe-info').textContent()).toMatch(
        /^shoe 1 · 8 decks · \d+ dealt/,
      );
      expect(await page.locator('#nav a[data-page=scoreboard]').isVisible()).toBe(true);
      expect(await page.locator('#requests').isVisible()).toBe(true);
      expect(await page.locator('#roulette-requests').isHidden()).toBe(true);
      // The ruleset list offers what the table takes: a baccarat table's own game's rulesets.
      expect(
        await page.$$eval('#ruleset-select option', (options) =>
          options.map((o) => o.getAttribute('value')),
        ),
      ).toEqual(['monaco-punto-2000', 'bulgaria-punto-banco', 'tdc-baccarat-no-commission']);

      const answers = await page.evaluate(async () => {
        const me = await (await fetch('/api/me')).json();
        const results = [];
        for (const op of ['no_more_bets', 'closing']) {
          const response = await fetch(`/api/request/${op}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-csrf-token': me.csrf },
            body: '{}',
          });
          results.push({ status: response.status, body: await response.json() });
        }
        return { view: me.view, results };
      });
      // The baccarat plug-in names its view (the card view with the scoreboard page).
      expect(answers.view).toBe('baccarat');
      for (const [i, op] of ['no_more_bets', 'closing'].entries()) {
        expect(answers.results[i]).toEqual({
          status: 409,
          body: {
            status: 'error',
            code: 'not_for_this_table',
            error: `${op} is not a request of this table: it plays tdc-baccarat-no-commission (punto-banco), whose requests are new_round, void_hand, new_shoe, set_ruleset`,
          },
        });
      }
      const records = await table.journal();
      expect(
        records.filter(
          (record) =>
            record.kind === 'input' &&
            ['no_more_bets', 'closing'].includes((record.data as { t: string }).t),
        ),
      ).toEqual([]);
    }, 60_000);
  },
);
