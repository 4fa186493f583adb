// (page.evaluate callbacks run in the browser)
import { afterEach, describe, expect, it } from 'vitest';
import type { JournalRecord } from '../../firmware-host/journal/record.ts';
import { skipReason, until } from '../e2e/helpers/environment.ts';
import { USERS, WebTable } from '../e2e/helpers/web-table.ts';
import { runCliSync } from '../helpers/cli.ts';
import { chromiumMissing, launchBrowser, logIn, type TestBrowser } from './helpers/browser.ts';

const skip = skipReason(chromiumMissing());

/** The results of the shoe in play at `asOf`, as `tableside roads --results` takes them, from the journal. */
function shoeResults(records: readonly JournalRecord[], asOf: number): string {
  let results = '';
  for (const record of records) {
    if (record.kind !== 'event' || record.seq > asOf) continue;
    const event = record.data as { type: string; outcome?: { winner?: string } };
    if (event.type === 'shoe_start') results = '';
    if (event.type === 'result') {
      results += { banker: 'B', player: 'P', tie: 'T' }[event.outcome!.winner!]!;
    }
  }
  return results;
}

describe.skipIf(skip)('the scoreboard matches tableside roads for the same coups', () => {
  let table: WebTable | undefined;
  let browser: TestBrowser | undefined;
  afterEach(async () => {
    await browser?.close();
    await table?.stop();
    browser = table = undefined;
  });

  it('draws every road cell where the CLI puts it, in its colour, with the same what-if marks', async () => {
    table = await WebTable.start('scoreboard', {
      cardIntervalMs: 10,
      roundIntervalMs: 20,
      seed: 7,
    });
    browser = await launchBrowser();
    const { page } = browser;
    await logIn(page, table.url, 'bob', USERS.bob.password);
    await page.goto(`${table.url}/#scoreboard`);
    await until(
      async () =>
        Number((await page.locator('#road-bead svg').getAttribute('data-cells')) ?? 0) >= 35,
      '35 coups on the scoreboard',
      40_000,
      () => table!.daemon.describe(),
    );
    // One read of the page: every road as drawn at that moment.
    const drawn = await page.evaluate(() => {
      const cells = (id: string) =>
        Array.from(document.querySelectorAll(`#${id} g[data-col]`)).map((g) => ({
          col: Number(g.getAttribute('data-col')),
          row: Number(g.getAttribute('data-row')),
          kind: g.getAttribute('class')!.split(' ')[1]!,
          tie: g.querySelector('.tie') !== null,
          tieCount: g.querySelector('.tie-count')?.textContent ?? null,
        }));
      const next: Record<string, Record<string, string>> = {};
      for (const side of Array.from(document.querySelectorAll('#road-next [data-side]'))) {
        next[side.getAttribute('data-side')!] = Object.fromEntries(
          Array.from(side.querySelectorAll('[data-road]')).map((mark) => [
            mark.getAttribute('data-road')!,
            mark.getAttribute('data-colour')!,
          ]),
        );
      }
      return {
        seq: Number(document.getElementById('page-scoreboard')!.dataset.seq),
        bead: cells('road-bead'),
        big: cells('road-big'),
        big_eye_boy: cells('road-big_eye_boy'),
        small_road: cells('road-small_road'),
        cockroach_pig: cells('road-cockroach_pig'),
        next,
      };
    });

    const results = shoeResults(await table.journal(), drawn.seq);
    expect(results).toHaveLength(drawn.bead.length);
    const cli = runCliSync(['roads', '--results', results, '--json'], { timeout: 20_000 });
    expect(cli.status, cli.stderr).toBe(0);
    const roads = JSON.parse(cli.stdout);

    expect(drawn.bead).toEqual(
      roads.bead_plate.map((c: { col: number; row: number; result: string }) => ({
        col: c.col,
        row: c.row,
        kind: c.result,
        tie: false,
        tieCount: null,
      })),
    );
    expect(drawn.big).toEqual(
      roads.big_road.map((c: { col: number; row: number; result: string; ties: number }) => ({
        col: c.col,
        row: c.row,
        kind: c.result,
        tie: c.ties > 0,
        tieCount: c.ties > 1 ? String(c.ties) : null,
      })),
    );
    for (const name of ['big_eye_boy', 'small_road', 'cockroach_pig'] as const) {
      expect(drawn[name], name).toEqual(
        roads[name].map((c: { col: number; row: number; colour: string }) => ({
          col: c.col,
          row: c.row,
          kind: c.colour,
          tie: false,
          tieCount: null,
        })),
      );
    }
    for (const side of ['B', 'P'] as const) {
      expect(drawn.next[side]).toEqual(
        Object.fromEntries(
          Object.entries(roads.next[side]).map(([road, colour]) => [road, colour ?? 'none']),
        ),
      );
    }
    // The shoe was long enough for every derived road to have started.
    expect(roads.cockroach_pig.length).toBeGreaterThan(0);
  });
});
