// (page.evaluate callbacks run in the browser)
import { afterEach, describe, expect, it } from 'vitest';
import type { JournalRecord } from '../../firmware-host/journal/record.ts';
import { skipReason, until } from '../e2e/helpers/environment.ts';
import { USERS, WebTable } from '../e2e/helpers/web-table.ts';
import { chromiumMissing, launchBrowser, logIn, type TestBrowser } from './helpers/browser.ts';

const skip = skipReason(chromiumMissing());

/** The wheel's colours as app.css paints the pockets. */
const PAINT = { red: 'rgb(200, 16, 46)', black: 'rgb(22, 22, 22)', green: 'rgb(10, 138, 58)' };

interface Spin {
  number: number;
  colour: keyof typeof PAINT;
  game: number;
  rotor?: string;
  ball?: string;
  revolutions?: number;
}

const spinsOf = (records: readonly JournalRecord[]): Spin[] =>
  records
    .filter(
      (record) => record.kind === 'event' && (record.data as { type: string }).type === 'spin',
    )
    .map((record) => record.data as unknown as Spin);

/** A pocket list as the user sees it: number, colour class and painted background. */
function readPockets(id: string) {
  return Array.from(document.querySelectorAll(`#${id} li`)).map((li) => ({
    number: Number((li as HTMLElement).dataset.number),
    colour: (li as HTMLElement).dataset.colour,
    count: (li as HTMLElement).dataset.count,
    paint: getComputedStyle(li).backgroundColor,
  }));
}

describe.skipIf(skip)(
  'the roulette view shows the last numbers in their colours, hot and cold numbers, the spin in play, and no requests to a viewer',
  () => {
    let table: WebTable | undefined;
    const browsers: TestBrowser[] = [];
    afterEach(async () => {
      for (const browser of browsers.splice(0)) await browser.close();
      await table?.stop();
      table = undefined;
    });

    it('follows the simulated wheel, then matches the journal exactly once closing time has closed the table', async () => {
      table = await WebTable.start('roulette-view', {
        ruleset: 'tdc-roulette',
        devices: { wheel: { kind: 'wheel', transport: 'simulate' } },
        cardIntervalMs: 30,
        roundIntervalMs: 120,
        seed: 7,
      });
      const desktop = await launchBrowser();
      browsers.push(desktop);
      const { page } = desktop;
      await logIn(page, table.url, 'bob', USERS.bob.password);
      // The server names the view; the card view is not drawn at a wheel.
      await page.waitForSelector('#view-roulette:not([hidden])');
      expect(await page.locator('#view-cards').isHidden()).toBe(true);
      expect(await page.evaluate(() => document.body.dataset.view)).toBe('roulette');
      // The wheel's own Scoreboard (its last numbers, even chances, dozens): the tab shows.
      expect(await page.locator('#nav a[data-page=scoreboard]').isVisible()).toBe(true);

      // The spin in play: every betting state the page shows, as it shows it.
      await page.evaluate(() => {
        const seen = new Set<string>();
        (window as unknown as { seen: Set<string> }).seen = seen;
        const betting = document.getElementById('spin-betting')!;
        new MutationObserver(() => seen.add(betting.textContent ?? '')).observe(betting, {
          childList: true,
          characterData: true,
          subtree: true,
        });
      });
      await until(
        async () => (await page.locator('#marquee li').count()) >= 8,
        'eight numbers on the marquee',
        60_000,
        () => table!.daemon.describe(),
      );
      await until(
        async () =>
          (
            await page.evaluate(() => [...(window as unknown as { seen: Set<string> }).seen])
          ).filter((text) => text === 'Place your bets' || text === 'No more bets').length === 2,
        'both "Place your bets" and "No more bets" shown',
      );

      // A viewer: no request panel, and a request sent anyway with the page's own token is refused.
      expect(await page.locator('#roulette-requests').isHidden()).toBe(true);
      expect(await page.locator('#requests').isHidden()).toBe(true);
      const refused = await page.evaluate(async () => {
        const me = await (await fetch('/api/me')).json();
        const response = await fetch('/api/request/no_more_bets', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': me.csrf },
          body: '{}',
        });
        return { status: response.status, body: await response.json() };
      });
      expect(refused).toEqual({
        status: 403,
        body: {
          status: 'error',
          code: 'not_allowed',
          error: 'bob is a viewer: only a supervisor may make requests',
        },
      });

      // A supervisor elsewhere announces closing time: after the last games the wheel stops,
      // and the page can be held against the journal exactly.
      const alice = await table.login('alice');
      const closing = await fetch(`${table.url}/api/request/closing`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          cookie: alice.cookie,
          'x-csrf-token': alice.csrf,
        },
        body: '{}',
      });
      expect(closing.status).toBe(200);
      await page.waitForSelector('#spin[data-betting=closed-table]', { timeout: 30_000 });
      await until(
        async () =>
          ((await page.locator('#closing').textContent()) ?? '').startsWith('Table closed'),
        'the table closed',
      );
      const records = await table.journal();
      const spins = spinsOf(records);
      const last = spins.at(-1)!;
      await until(
        async () =>
          (await page.locator('#spin-result').getAttribute('data-number')) === String(last.number),
        'the last result on the page',
      );

      // The marquee: the last numbers, newest first, each painted its wheel colour.
      const marquee = await page.evaluate(readPockets, 'marquee');
      const newest = spins.slice(-20).reverse();
      expect(marquee.map((pocket) => pocket.number)).toEqual(newest.map((spin) => spin.number));
      expect(marquee.map((pocket) => pocket.colour)).toEqual(newest.map((spin) => spin.colour));
      for (const pocket of marquee) {
        expect(pocket.paint).toBe(PAINT[pocket.colour as keyof typeof PAINT]);
      }
      expect(await page.locator('#marquee li').first().getAttribute('class')).toContain('latest');

      // The result with its spin: rotor and ball as the wheel reported them.
      const turn = { cw: '↻ clockwise', ccw: '↺ counter-clockwise' } as Record<string, string>;
      expect(await page.locator('#spin-directions .last-spin').textContent()).toBe(
        `Game ${last.game}: ${last.number} ${last.colour} · rotor ${turn[last.rotor!]} · ball ${turn[last.ball!]} · ${last.revolutions} revolutions`,
      );

      // Hot and cold: the counts over the journal's spins, ties to the lower number.
      const counts = new Array<number>(37).fill(0);
      for (const spin of spins) counts[spin.number]! += 1;
      const ranked = counts.map((count, number) => ({ number, count: String(count) }));
      const hot = [...ranked]
        .filter((entry) => entry.count !== '0')
        .sort((a, b) => Number(b.count) - Number(a.count) || a.number - b.number)
        .slice(0, 5);
      const cold = [...ranked]
        .sort((a, b) => Number(a.count) - Number(b.count) || a.number - b.number)
        .slice(0, 5);
      const hotShown = await page.evaluate(readPockets, 'hot');
      const coldShown = await page.evaluate(readPockets, 'cold');
      expect(hotShown.map(({ number, count }) => ({ number, count }))).toEqual(hot);
      expect(coldShown.map(({ number, count }) => ({ number, count }))).toEqual(cold);
      for (const pocket of [...hotShown, ...coldShown]) {
        expect(pocket.paint).toBe(PAINT[pocket.colour as keyof typeof PAINT]);
      }
      expect(await page.locator('#hot-cold-note').textContent()).toBe(
        `over the last ${spins.length} spins (at most 2000)`,
      );

      // The bias watch: its six tests, the hot number's naming the hottest.
      const bias = await page.evaluate(() =>
        Array.from(document.querySelectorAll('#bias tr')).map((row) => ({
          test: (row as HTMLElement).dataset.test,
          verdict: (row as HTMLElement).dataset.verdict,
          detail: row.querySelector('.detail')?.textContent,
        })),
      );
      expect(bias.map((row) => row.test)).toEqual([
        'frequencies',
        'hot_number',
        'cold_number',
        'sector',
        'direction_split',
        'repeat',
      ]);
      for (const row of bias) expect(['ok', 'not_run', 'ALARM']).toContain(row.verdict);
      expect(bias[1]!.detail).toMatch(
        new RegExp(`^${hot[0]!.number} came ${hot[0]!.count} times in ${spins.length} spins`),
      );

      // Closing time's count-down left its article on the page.
      const closed = records.find(
        (record) =>
          record.kind === 'event' && (record.data as { type: string }).type === 'table_closed',
      )!.data as { rule: string };
      expect(await page.locator('#closing').textContent()).toBe(`Table closed (${closed.rule})`);

      // On a phone: the same view, nothing wider than the screen.
      const phone = await launchBrowser(
        { width: 390, height: 844 },
        { deviceScaleFactor: 2, isMobile: true },
      );
      browsers.push(phone);
      await logIn(phone.page, table.url, 'bob', USERS.bob.password);
      await phone.page.waitForSelector('#marquee li');
      // Opened after the close: the last games' events are sent again, closing time's article with them.
      await until(
        async () =>
          (await phone.page.locator('#closing').textContent()) === `Table closed (${closed.rule})`,
        'the closed table on the phone',
      );
      const phoneMarquee = await phone.page.evaluate(readPockets, 'marquee');
      expect(phoneMarquee.map((pocket) => pocket.number)).toEqual(
        newest.map((spin) => spin.number),
      );
      expect(
        await phone.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      ).toBe(true);
      expect(table.daemon.running).toBe(true);
    }, 120_000);
  },
);
