// (page.evaluate callbacks run in the browser)
/**
 * The History page of a day when nobody made a request from the console: the
 * shoes and hands, no stray "null" where the requests list would be; and in
 * Chromium no page loads with a console error (the browser's own
 * `/favicon.ico` request is answered with an icon).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { skipReason, until } from '../e2e/helpers/environment.ts';
import { USERS, WebTable } from '../e2e/helpers/web-table.ts';
import { chromiumMissing, launchBrowser, logIn, type TestBrowser } from './helpers/browser.ts';

const skip = skipReason(chromiumMissing());

describe.skipIf(skip)(
  'the History page of a day without console requests shows no null and logs no errors',
  () => {
    let table: WebTable | undefined;
    let browser: TestBrowser | undefined;
    afterEach(async () => {
      await browser?.close();
      await table?.stop();
      browser = table = undefined;
    });

    it('lists the hands and nothing else, with no error in the console', async () => {
      table = await WebTable.start('history-no-requests', {
        cardIntervalMs: 20,
        roundIntervalMs: 30,
      });
      const icon = await fetch(`${table.url}/favicon.ico`);
      expect(icon.status).toBe(200);
      expect(icon.headers.get('content-type')).toBe('image/x-icon');
      // An ICO file: reserved 0, type 1 (icon), at least one image.
      const bytes = Buffer.from(await icon.arrayBuffer());
      expect([bytes.readUInt16LE(0), bytes.readUInt16LE(2)]).toEqual([0, 1]);
      expect(bytes.readUInt16LE(4)).toBeGreaterThan(0);

      browser = await launchBrowser();
      const { page } = browser;
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(`${message.text()} ${message.location().url}`);
      });
      page.on('pageerror', (error) => errors.push(error.message));
      // Chromium asks for /favicon.ico by itself (playwright does not show that request): a 404
      // would be a "Failed to load resource" console error by the time the page below is checked.
      await logIn(page, table.url, 'bob', USERS.bob.password);
      await until(async () => {
        const journal = await table!.journal();
        return journal.some(
          (r) => r.kind === 'event' && (r.data as { type: string }).type === 'result',
        );
      }, 'a coup');

      await page.goto(`${table.url}/#history`);
      await page.waitForSelector('#history tr[data-round="1"]');
      const text = (await page.locator('#history').innerText()).trim();
      expect(text).not.toMatch(/\bnull\b/);
      expect(text).not.toContain('Requests made from the console');
      const children = await page.$$eval('#history > *', (els) => els.map((el) => el.tagName));
      expect(children[0]).toBe('H2');
      expect(children.slice(1).every((tag) => tag === 'SECTION')).toBe(true);
      expect(await page.$$eval('#history', (els) => els[0]!.lastChild!.nodeType)).toBe(1);
      expect(errors).toEqual([]);
    });
  },
);
