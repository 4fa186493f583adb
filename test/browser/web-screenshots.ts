// (page.evaluate callbacks run in the browser)
/**
 * `npm run screenshots`: the web console's pages as PNGs in
 * docs/screenshots/, at 1920x1080 (a pit display) and on a phone, from a
 * real daemon dealing a simulated baccarat shoe, and the roulette view
 * (`roulette-*.png`) from one spinning a simulated wheel. The README and
 * docs/operator/web-console.md show them.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../e2e/helpers/daemon.ts';
import { until } from '../e2e/helpers/environment.ts';
import { USERS, WebTable } from '../e2e/helpers/web-table.ts';
import { chromiumMissing, launchBrowser, logIn } from './helpers/browser.ts';

const OUT = join(REPO_ROOT, 'docs/screenshots');
const PAGES = ['table', 'scoreboard', 'devices', 'history'] as const;
const SCREENS = [
  { name: 'desktop', viewport: { width: 1920, height: 1080 }, options: {} },
  {
    name: 'phone',
    viewport: { width: 390, height: 844 },
    options: { deviceScaleFactor: 2, isMobile: true },
  },
] as const;

async function main(): Promise<void> {
  const missing = chromiumMissing();
  if (missing) {
    process.stderr.write(`screenshots skipped: ${missing}\n`);
    return;
  }
  mkdirSync(OUT, { recursive: true });
  await cardPages();
  await rouletteView();
}

/** The Table page of a roulette table, once every test of the bias watch has spins enough to run. */
async function rouletteView(): Promise<void> {
  const table = await WebTable.start('screenshots-roulette', {
    ruleset: 'tdc-roulette',
    devices: { wheel: { kind: 'wheel', transport: 'simulate' } },
    cardIntervalMs: 2,
    roundIntervalMs: 4,
    seed: 42,
  });
  try {
    for (const screen of SCREENS) {
      const browser = await launchBrowser(screen.viewport, screen.options);
      try {
        const { page } = browser;
        await logIn(page, table.url, 'alice', USERS.alice.password);
        await until(
          async () => (await page.locator('#bias tr[data-verdict=not_run]').count()) === 0,
          'spins enough for every test of the bias watch',
          120_000,
        );
        // fixed wait: picture settle: the page's transitions finish before the picture
        await page.waitForTimeout(300);
        const file = join(OUT, `roulette-${screen.name}.png`);
        await page.screenshot({ path: file, fullPage: screen.name === 'phone' });
        process.stdout.write(`${file}\n`);
      } finally {
        await browser.close();
      }
    }
  } finally {
    await table.stop();
  }
}

async function cardPages(): Promise<void> {
  const table = await WebTable.start('screenshots', {
    cardIntervalMs: 4,
    roundIntervalMs: 8,
    seed: 42,
  });
  try {
    for (const screen of SCREENS) {
      const browser = await launchBrowser(screen.viewport, screen.options);
      try {
        const { page } = browser;
        await logIn(page, table.url, 'alice', USERS.alice.password);
        await page.goto(`${table.url}/#scoreboard`);
        await until(
          async () =>
            Number((await page.locator('#road-bead svg').getAttribute('data-cells')) ?? 0) >= 40,
          '40 coups on the scoreboard',
          60_000,
        );
        for (const name of PAGES) {
          await page.goto(`${table.url}/#${name}`);
          if (name === 'history') {
            await page.waitForSelector('#history tr[data-round]');
            await page.locator('#history tr[data-round] button').first().click();
            await page.locator('#replay-next').click();
            await page.locator('#replay-next').click();
            await page.locator('#replay-next').click();
            await page.evaluate(() => window.scrollTo(0, 0));
          }
          if (name === 'devices') await page.waitForSelector('#devices .device');
          if (name === 'table') await page.waitForSelector('#hand .card');
          // fixed wait: picture settle: the page's transitions finish before the picture
          await page.waitForTimeout(300);
          const file = join(OUT, `${name}-${screen.name}.png`);
          await page.screenshot({
            path: file,
            fullPage: screen.name === 'phone' && name === 'scoreboard',
          });
          process.stdout.write(`${file}\n`);
        }
      } finally {
        await browser.close();
      }
    }
  } finally {
    await table.stop();
  }
}

await main();
