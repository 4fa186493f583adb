// (page.evaluate callbacks run in the browser)
/**
 * Debian's Chromium, driven by playwright-core, for the web console's
 * end-to-end tests: headless, sandbox off (containers), no network of its
 * own, a fresh profile each launch (removed on close).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

import { CHROMIUM } from '../../helpers/tools.ts';

export { CHROMIUM, chromiumMissing } from '../../helpers/tools.ts';

export interface TestBrowser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

export async function launchBrowser(
  viewport: { width: number; height: number } = { width: 1920, height: 1080 },
  options: { deviceScaleFactor?: number; isMobile?: boolean } = {},
): Promise<TestBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'tableside-chromium-'));
  let context: BrowserContext;
  try {
    // A persistent context is how playwright takes the fresh --user-data-dir.
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      viewport,
      ...options,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Logs in through the page's own form and waits for the live feed. */
export async function logIn(
  page: Page,
  url: string,
  user: string,
  password: string,
): Promise<void> {
  await page.goto(`${url}/#table`);
  await page.locator('#login-form input[name=user]').fill(user);
  await page.locator('#login-form input[name=password]').fill(password);
  await page.locator('#login-form button[type=submit]').click();
  await page.waitForSelector('#page-table:not([hidden])');
  await page.waitForFunction(() => document.body.dataset.lastSeq !== undefined);
}
