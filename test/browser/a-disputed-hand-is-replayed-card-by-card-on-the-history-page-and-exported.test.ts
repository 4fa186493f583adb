// (page.evaluate callbacks run in the browser)
import { afterEach, describe, expect, it } from 'vitest';
import { skipReason, until } from '../e2e/helpers/environment.ts';
import { USERS, WebTable } from '../e2e/helpers/web-table.ts';
import { chromiumMissing, launchBrowser, logIn, type TestBrowser } from './helpers/browser.ts';

const skip = skipReason(chromiumMissing());

describe.skipIf(skip)(
  'a disputed hand is replayed card by card on the History page and exported',
  () => {
    let table: WebTable | undefined;
    let browser: TestBrowser | undefined;
    afterEach(async () => {
      await browser?.close();
      await table?.stop();
      browser = table = undefined;
    });

    it("steps through hand 1's journaled cards one at a time, exports the day as JSON, prints without the controls", async () => {
      table = await WebTable.start('history', { cardIntervalMs: 20, roundIntervalMs: 30 });
      browser = await launchBrowser();
      const { page } = browser;
      await logIn(page, table.url, 'bob', USERS.bob.password);
      await until(async () => {
        const journal = await table!.journal();
        return (
          journal.filter(
            (r) => r.kind === 'event' && (r.data as { type: string }).type === 'result',
          ).length >= 3
        );
      }, 'three coups');

      // Hand 1 as journaled: its cards in order, between round_start 1 and its result.
      const journal = await table.journal();
      const start = journal.findIndex(
        (r) =>
          r.kind === 'event' && (r.data as { type: string; round?: number }).type === 'round_start',
      );
      const end = journal.findIndex(
        (r, i) => i > start && r.kind === 'event' && (r.data as { type: string }).type === 'result',
      );
      const cards = journal
        .slice(start, end)
        .filter((r) => r.kind === 'event' && (r.data as { type: string }).type === 'card')
        .map((r) => (r.data as { card: string }).card);
      expect(cards.length).toBeGreaterThanOrEqual(4);

      await page.goto(`${table.url}/#history`);
      await page.waitForSelector('#history tr[data-round="1"]');
      await page.locator('#history tr[data-round="1"] button').click();
      // The round is named as the Table page and the Scoreboard name it ("Round 1").
      expect(await page.locator('#history thead th').first().textContent()).toBe('Round');
      expect(await page.locator('#replay-title').textContent()).toBe(
        'Round 1 (shoe 1), replayed card by card',
      );
      const shown = () =>
        page.$$eval('#replay-hand [data-card]', (els) =>
          els.map((el) => el.getAttribute('data-card')),
        );
      expect(await shown()).toEqual([]);
      const steps: string[][] = [];
      for (let step = 0; step < 12; step++) {
        await page.locator('#replay-next').click();
        steps.push((await shown()) as string[]);
      }
      // Each step adds at most one card, and the cards appear in the journal's order.
      const lengths = steps.map((s) => s.length);
      for (const [i, length] of lengths.entries())
        expect(length - (lengths[i - 1] ?? 0)).toBeLessThanOrEqual(1);
      // After each step the felt holds exactly the hand's first n journaled cards.
      for (const shownNow of steps) {
        expect([...shownNow].sort()).toEqual(cards.slice(0, shownNow.length).sort());
      }
      expect(lengths.at(-1)).toBe(cards.length);
      expect(await page.$$eval('#replay-hand .box', (boxes) => boxes.length)).toBe(2);
      expect(await page.locator('#replay-step').textContent()).toMatch(/^step \d+ of \d+: result/);

      // The export is the day's JSON, as an attachment.
      const exported = await page.evaluate(async () => {
        const href = (document.getElementById('history-export') as HTMLAnchorElement).href;
        const response = await fetch(href);
        return {
          disposition: response.headers.get('content-disposition'),
          body: await response.json(),
        };
      });
      expect(exported.disposition).toMatch(
        /^attachment; filename="web-e2e-\d{4}-\d{2}-\d{2}\.json"$/,
      );
      expect(exported.body.shoes[0].hands[0]).toMatchObject({
        round: 1,
        result: { announcement: expect.any(String) },
      });

      // Printed: the history without the navigation and the controls.
      await page.emulateMedia({ media: 'print' });
      expect(await page.locator('header.bar').isVisible()).toBe(false);
      expect(await page.locator('#history-form').isVisible()).toBe(false);
      expect(await page.locator('#history table').first().isVisible()).toBe(true);
    });
  },
);
