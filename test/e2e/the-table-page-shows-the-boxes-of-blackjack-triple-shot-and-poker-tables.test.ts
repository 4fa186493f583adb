// (page.evaluate callbacks run in the browser)
import { afterEach, describe, expect, it } from 'vitest';
import { chromiumMissing, launchBrowser, logIn, type TestBrowser } from './helpers/browser.ts';
import { skipReason, until } from './helpers/environment.ts';
import { currentShoeCards, USERS, WebTable } from './helpers/web-table.ts';

const skip = skipReason(chromiumMissing());

const CASES = [
  { ruleset: 'tdc-blackjack', labels: /^Dealer,Box 1,Box 2/ },
  { ruleset: 'peru-triple-shot', labels: /^Dealer,Position 1,Position 2/ },
  { ruleset: 'spain-holdem-bonus', labels: /^Dealer,Board,Box 1,Box 2/ },
] as const;

describe.skipIf(skip)(
  'the table page shows the boxes of blackjack, Triple Shot and poker tables',
  () => {
    let table: WebTable | undefined;
    let browser: TestBrowser | undefined;
    afterEach(async () => {
      await browser?.close();
      await table?.stop();
      browser = table = undefined;
    });

    for (const { ruleset, labels } of CASES) {
      it(`${ruleset}: the dealer and each box, a face-down card as a back`, async () => {
        table = await WebTable.start(ruleset, {
          ruleset,
          cardIntervalMs: 150,
          roundIntervalMs: 200,
        });
        browser = await launchBrowser();
        const { page } = browser;
        await logIn(page, table.url, 'bob', USERS.bob.password);
        const boxLabels = () =>
          page.$$eval('#hand .box-label > span:first-child', (spans) =>
            spans.map((span) => span.textContent).join(','),
          );
        await until(
          async () => labels.test(await boxLabels()),
          `the boxes of ${ruleset}`,
          20_000,
          () => table!.daemon.describe(),
        );
        // Every card the page shows face up was dealt face up in this shoe.
        const shown = await page.$$eval('#hand [data-card]', (cards) =>
          cards.map((card) => card.getAttribute('data-card')!),
        );
        const faceUp = new Set(
          currentShoeCards(await table.journal())
            .map((record) => record.data as { card: string; face?: string })
            .filter((card) => card.face !== 'down')
            .map((card) => card.card),
        );
        for (const card of shown) expect(faceUp.has(card), `${card} shown face up`).toBe(true);
        if (ruleset === 'spain-holdem-bonus') {
          // Hole cards are dealt face down: the boxes hold backs only until the showdown.
          await until(
            async () => (await page.locator('#hand .box-box-1 .card.back').count()) === 2,
            'two backs in box 1',
          );
          expect(await page.locator('#hand .box-box-1 [data-card]').count()).toBe(0);
        }
      });
    }
  },
);
