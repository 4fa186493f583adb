// (page.evaluate callbacks run in the browser)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipReason, until } from '../e2e/helpers/environment.ts';
import { USERS, WebTable } from '../e2e/helpers/web-table.ts';
import { chromiumMissing, launchBrowser, logIn } from './helpers/browser.ts';

const skip = skipReason(chromiumMissing());

const ROADS = [
  'road-bead',
  'road-big',
  'road-big_eye_boy',
  'road-small_road',
  'road-cockroach_pig',
];

interface RoadView {
  cells: number;
  lastCol: number;
  /** Cells whose square lies wholly inside the road's scroll box. */
  whole: number;
  /** Cells only partly inside it: a cut column. */
  cut: number;
  /** Whether a cell of the road's last column is wholly in view. */
  lastInView: boolean;
  /** How many columns the box shows whole. */
  fits: number;
}

/** Each road as the user sees it: its cells in view, cut or out of view (read in one go). */
function readRoads(ids: string[]): Record<string, RoadView> {
  const views: Record<string, RoadView> = {};
  for (const id of ids) {
    const box = document.getElementById(id)!;
    const svg = box.querySelector('svg')!;
    const view = box.getBoundingClientRect();
    const columns = Number(svg.viewBox.baseVal.width) / 20;
    const column = svg.getBoundingClientRect().width / columns;
    const groups = Array.from(svg.querySelectorAll('g[data-col]'));
    const lastCol = Math.max(-1, ...groups.map((g) => Number(g.getAttribute('data-col'))));
    let whole = 0;
    let cut = 0;
    let lastInView = false;
    for (const g of groups) {
      // The cell's square: the group sits at its centre.
      const centre = g.getBoundingClientRect();
      const middle = (centre.left + centre.right) / 2;
      const left = middle - column / 2;
      const right = middle + column / 2;
      const inside = left >= view.left - 0.5 && right <= view.right + 0.5;
      const outside = right <= view.left + 0.5 || left >= view.right - 0.5;
      if (inside) whole++;
      else if (!outside) cut++;
      if (inside && Number(g.getAttribute('data-col')) === lastCol) lastInView = true;
    }
    views[id] = {
      cells: groups.length,
      lastCol,
      whole,
      cut,
      lastInView,
      fits: Math.floor(view.width / column + 0.01),
    };
  }
  return views;
}

describe.skipIf(skip)(
  'the scoreboard roads show their latest cells whole on desktop and phone',
  () => {
    let table: WebTable | undefined;
    beforeAll(async () => {
      // Slow enough that the shoe is still in its first third when both pages have read it.
      table = await WebTable.start('scoreboard-view', {
        cardIntervalMs: 30,
        roundIntervalMs: 60,
        seed: 7,
      });
    }, 60_000);
    afterAll(async () => {
      await table?.stop();
    });

    for (const [name, viewport, device] of [
      ['desktop 1920×1080', { width: 1920, height: 1080 }, {}],
      ['phone 390×844', { width: 390, height: 844 }, { isMobile: true, deviceScaleFactor: 3 }],
    ] as const) {
      it(`on a ${name} each road shows its last column and no half-cut one`, async () => {
        const browser = await launchBrowser(viewport, device);
        try {
          const { page } = browser;
          await logIn(page, table!.url, 'bob', USERS.bob.password);
          await page.goto(`${table!.url}/#scoreboard`);
          // 22 coups: the derived roads have started but fill far fewer columns than the big road.
          await until(
            async () =>
              Number((await page.locator('#road-bead svg').getAttribute('data-cells')) ?? 0) >= 22,
            '22 coups on the scoreboard',
            60_000,
            () => table!.daemon.describe(),
          );
          const roads = await page.evaluate(readRoads, ROADS);
          for (const id of ROADS) {
            const road = roads[id]!;
            const what = `${id} on a ${name}: ${JSON.stringify(road)}`;
            expect(road.cells, what).toBeGreaterThan(0);
            expect(road.lastInView, what).toBe(true);
            expect(road.cut, what).toBe(0);
            // Every column that fits is in view, up to the last one drawn.
            const columns = road.lastCol + 1;
            if (columns <= road.fits) expect(road.whole, what).toBe(road.cells);
          }
        } finally {
          await browser.close();
        }
      }, 90_000);
    }
  },
);
