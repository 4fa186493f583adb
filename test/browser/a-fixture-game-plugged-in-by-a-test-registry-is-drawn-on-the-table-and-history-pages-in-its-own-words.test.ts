// (page.evaluate callbacks run in the browser)
/**
 * Adding a game is its folder and a line in a registry (issue 35 item 1),
 * its browser views too: high card, a fixture game no shipped file names
 * (test/fixtures/games/high-card/, its views in web/ there), plugged in by
 * the test's registry, deals through a table daemon whose console Chromium
 * opens. The Table page draws each round with the game's own module (its
 * two cards, its result in its words) and the History page lists the day's
 * rounds in the same words, with no error on the page.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../firmware-host/config/loader.ts';
import { TableDaemon } from '../../firmware-host/daemon/table-daemon.ts';
import { GAME_PLUGINS, GameRegistry, useGameRegistry } from '../../firmware-host/games/registry.ts';
import type { TableLogRecord } from '../../firmware-host/table/log.ts';
import { skipReason } from '../e2e/helpers/environment.ts';
import { withHighCard } from '../fixtures/games/high-card/registry.ts';
import { freePort } from '../helpers/ports.ts';
import { tempDir } from '../helpers/temp.ts';
import { chromiumMissing, launchBrowser, type TestBrowser } from './helpers/browser.ts';

const skip = skipReason(chromiumMissing());

const ROUND_ONE: readonly TableLogRecord[] = [
  { t: 'shuffle', decks: 1, backs: ['green'] },
  { t: 'round' },
  { t: 'card', card: 'KS', back: 'green', face: 'up' },
  { t: 'card', card: '9H', back: 'green', face: 'up' },
];
const ROUND_TWO: readonly TableLogRecord[] = [
  { t: 'round' },
  { t: 'card', card: '4D', back: 'green', face: 'up' },
  { t: 'card', card: '4C', back: 'green', face: 'up' },
];

describe.skipIf(skip)('a fixture game plugged in by a test registry, in Chromium', () => {
  let daemon: TableDaemon | undefined;
  let browser: TestBrowser | undefined;
  beforeAll(() => {
    useGameRegistry(withHighCard());
  });
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
    useGameRegistry(new GameRegistry(GAME_PLUGINS));
  });

  it('is drawn on the Table and History pages by its own modules, in its own words', async () => {
    const { config } = resolveConfig(
      {
        table: 'high-1',
        ruleset: 'fixture-high-card',
        mqtt: { url: 'embedded', port: await freePort() },
        // The journal in a folder of its own: the table's host key goes beside it.
        journal: { dir: join(tempDir('high-card-browser-'), 'journal') },
        web: { host: '127.0.0.1', port: await freePort() },
      },
      { env: {} },
    );
    daemon = new TableDaemon({ config, simulate: false });
    await daemon.start();
    const url = daemon.webAddress ?? '';

    browser = await launchBrowser();
    const { page } = browser;
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    const served: string[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith('/games/')) {
        served.push(`${response.status()} ${new URL(response.url()).pathname}`);
      }
    });

    // The anonymous viewer on loopback: the page opens on the game's own view, not the card view.
    await page.goto(`${url}/#table`);
    await page.waitForSelector('#view-high-card:not([hidden])');
    expect(await page.locator('#view-cards').isHidden()).toBe(true);
    expect(served).toContain('200 /games/high-card/table.js');
    await expect
      .poll(() => page.locator('#high-card-expecting').textContent())
      .toBe('Next: shuffle the deck');

    for (const record of ROUND_ONE) await daemon.ingest(record);
    await expect
      .poll(() => page.locator('#high-card-result').innerText())
      .toBe('Round 1\nPlayer KS, banker 9H.\nThe player wins.');
    expect(
      await page.$$eval('#high-card-cards .box', (boxes) =>
        boxes.map((box) => [
          (box as HTMLElement).dataset.side,
          box.querySelector('.card')?.getAttribute('data-card'),
        ]),
      ),
    ).toEqual([
      ['player', 'KS'],
      ['banker', '9H'],
    ]);

    for (const record of ROUND_TWO) await daemon.ingest(record);
    await expect
      .poll(() => page.locator('#high-card-result').innerText())
      .toBe('Round 2\nPlayer 4D, banker 4C.\nA tie: both bets push.');
    await expect
      .poll(() => page.locator('#high-card-expecting').textContent())
      .toBe('Next: start the next round');

    // History: the day's rounds, each in the words the Table page gave it.
    await page.goto(`${url}/#history`);
    await page.waitForSelector('.high-card-rounds li[data-round="2"]');
    expect(await page.locator('.high-card-rounds li').allInnerTexts()).toEqual([
      'Round 1: Player KS, banker 9H. The player wins.',
      'Round 2: Player 4D, banker 4C. A tie: both bets push.',
    ]);
    expect(served).toContain('200 /games/high-card/history.js');
    expect(errors).toEqual([]);
  });
});
