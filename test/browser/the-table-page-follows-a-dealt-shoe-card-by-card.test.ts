// (page.evaluate callbacks run in the browser)
import { afterEach, describe, expect, it } from 'vitest';
import { skipReason, until } from '../e2e/helpers/environment.ts';
import { currentShoeCards, USERS, WebTable } from '../e2e/helpers/web-table.ts';
import { chromiumMissing, launchBrowser, logIn, type TestBrowser } from './helpers/browser.ts';

const skip = skipReason(chromiumMissing());

describe.skipIf(skip)('the table page follows a dealt shoe card by card', () => {
  let table: WebTable | undefined;
  let browser: TestBrowser | undefined;
  afterEach(async () => {
    await browser?.close();
    await table?.stop();
    browser = table = undefined;
  });

  it('shows every card of the shoe in journal order, burns as backs, and the hand in play', async () => {
    table = await WebTable.start('table-page');
    browser = await launchBrowser();
    const { page } = browser;
    await logIn(page, table.url, 'bob', USERS.bob.password);

    // The page's shoe strip grows one card at a time as the simulated shoe deals.
    const counts: number[] = [];
    const first = await page.locator('#shoe-strip .strip-card').count();
    await until(
      async () => {
        counts.push(await page.locator('#shoe-strip .strip-card').count());
        return counts.at(-1)! >= Math.max(30, first + 15);
      },
      '15 more cards on the page',
      40_000,
      () => table!.daemon.describe(),
    );
    // It grew as the cards came, in many small steps, never shrinking (not one lump at the end).
    for (const [i, count] of counts.entries())
      expect(count).toBeGreaterThanOrEqual(counts[i - 1] ?? 0);
    expect(new Set(counts).size).toBeGreaterThanOrEqual(10);

    const shown = await page.$$eval('#shoe-strip .strip-card', (cards) =>
      cards.map((card) => ({
        seq: Number((card as HTMLElement).dataset.seq),
        face: card.querySelector('.card')?.getAttribute('data-card') ?? 'back',
      })),
    );
    const journal = currentShoeCards(await table.journal());
    const expected = journal.slice(0, shown.length).map((record) => {
      const card = record.data as { card: string; face?: string };
      return { seq: record.seq, face: card.face === 'down' ? 'back' : card.card };
    });
    expect(shown).toEqual(expected);
    // The shoe opened with a turned card and its burns: at least one back.
    expect(shown.some((card) => card.face === 'back')).toBe(true);

    // The hand on the felt is the snapshot's: Player and Banker boxes with cards.
    await page.waitForSelector('#hand .box-player .card');
    const progress = await page.locator('#shoe-info').textContent();
    expect(progress).toMatch(/shoe 1 · 8 decks · \d+ dealt · \d+ left/);
    expect(await page.evaluate(() => document.body.dataset.gaps)).toBe('0');
    expect(await page.evaluate(() => document.body.dataset.duplicates)).toBe('0');
  });
});
