// (page.evaluate callbacks run in the browser)
import { afterEach, describe, expect, it } from 'vitest';
import type { JournalRecord } from '../../firmware-host/journal/record.ts';
import type { DomainEvent } from '../../firmware-host/table/events.ts';
import { skipReason, until } from '../e2e/helpers/environment.ts';
import { USERS, WebTable } from '../e2e/helpers/web-table.ts';
import { chromiumMissing, launchBrowser, logIn, type TestBrowser } from './helpers/browser.ts';

const skip = skipReason(chromiumMissing());

type Spin = Extract<DomainEvent, { type: 'spin' }>;
const spinsOf = (records: readonly JournalRecord[]): Spin[] =>
  records.flatMap((record) =>
    record.kind === 'event' && record.data.type === 'spin' ? [record.data] : [],
  );

/** The game whose betting alice's request closed: her input, then the event it caused. */
function closedByAlice(records: readonly JournalRecord[]): number | undefined {
  for (const [index, record] of records.entries()) {
    const next = records[index + 1];
    if (
      record.kind === 'input' &&
      record.data.t === 'no_more_bets' &&
      record.data.src === 'web:alice' &&
      next?.kind === 'event' &&
      next.data.type === 'no_more_bets'
    ) {
      return next.data.game;
    }
  }
  return undefined;
}

describe.skipIf(skip)(
  "a roulette table's history lists its games with their numbers and who closed the betting",
  () => {
    let table: WebTable | undefined;
    let browser: TestBrowser | undefined;
    afterEach(async () => {
      await browser?.close();
      await table?.stop();
      browser = table = undefined;
    });

    it("shows each spun game's number and colour, the game alice closed as closed by her, its events on opening, the export and the print", async () => {
      // Long betting, so the supervisor's "no more bets" comes before the wheel's own.
      table = await WebTable.start('roulette-history', {
        ruleset: 'tdc-roulette',
        devices: { wheel: { kind: 'wheel', transport: 'simulate' } },
        cardIntervalMs: 250,
        roundIntervalMs: 2500,
        seed: 3,
      });
      browser = await launchBrowser();
      const { page } = browser;
      await logIn(page, table.url, 'alice', USERS.alice.password);
      await page.waitForSelector('#view-roulette:not([hidden])');

      // Alice closes the betting of a game (tried again if the wheel closed it first).
      let aliceClosed: number | undefined;
      for (let attempt = 0; attempt < 5 && aliceClosed === undefined; attempt++) {
        await page.waitForSelector('#spin[data-betting=open]', { timeout: 20_000 });
        const status = await page.evaluate(async () => {
          const me = await (await fetch('/api/me')).json();
          const response = await fetch('/api/request/no_more_bets', {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-csrf-token': me.csrf },
            body: '{}',
          });
          return response.status;
        });
        expect(status).toBe(200);
        aliceClosed = closedByAlice(await table.journal());
        await page.waitForSelector('#spin:not([data-betting=open])', { timeout: 20_000 });
      }
      expect(aliceClosed, "a game's betting closed by alice's request").toBeDefined();
      // Her game spun, and the next one too.
      await until(
        async () => spinsOf(await table!.journal()).some((spin) => spin.game > aliceClosed!),
        "the game after alice's spun",
        60_000,
      );
      const records = await table.journal();
      const spins = spinsOf(records);
      // The file shows a record while its write is still going to disk, and the History lists
      // only what the daemon holds durable (its journal's lastSeq): it is waited for to hold the
      // last spin, or that game would be drawn as "spin awaited".
      const lastSpinSeq = Math.max(
        ...records.flatMap((record) =>
          record.kind === 'event' && record.data.type === 'spin' ? [record.seq] : [],
        ),
      );
      await until(
        async () =>
          (await page.evaluate(
            async () => (await (await fetch('/api/devices')).json()).journal.lastSeq as number,
          )) >= lastSpinSeq,
        'the last spin durable at the daemon',
      );

      await page.goto(`${table.url}/#history`);
      await page.waitForSelector('#history details[data-game]');
      expect(await page.locator('#history').textContent()).not.toContain('No shoes');
      // Every spin journaled is a game on the page with its number and colour.
      for (const spin of spins) {
        const summary = page.locator(`#history details[data-game="${spin.game}"] > summary`);
        expect(await summary.textContent()).toContain(`Game ${spin.game} · `);
        expect(await summary.textContent()).toContain(` · ${spin.number} ${spin.colour}`);
        expect(
          await summary.locator(`.pocket.${spin.colour}`).textContent(),
          `game ${spin.game}'s number in its colour`,
        ).toBe(String(spin.number));
      }
      const game = page.locator(`#history details[data-game="${aliceClosed}"]`);
      expect(await game.locator('summary').textContent()).toMatch(
        / · betting closed [^·]+ by alice$/,
      );
      // Closed, its events are hidden; opened, they are listed in journal order with who caused each.
      const closeLine = game.locator('li[data-type=no_more_bets]');
      expect(await closeLine.isVisible()).toBe(false);
      await game.locator('summary').click();
      expect(await closeLine.isVisible()).toBe(true);
      expect(await closeLine.textContent()).toMatch(
        new RegExp(`game ${aliceClosed}: no more bets · by alice$`),
      );
      const seqs = await game
        .locator('li[data-seq]')
        .evaluateAll((lines) => lines.map((line) => Number(line.getAttribute('data-seq'))));
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      expect(await game.locator('li[data-type=spin]').textContent()).toContain('· by wheel');

      // The export is the day's games as JSON, as an attachment.
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
      expect(exported.body.shoes).toBeUndefined();
      expect(
        exported.body.games.find((g: { game: number }) => g.game === aliceClosed),
      ).toMatchObject({ closed: { by: 'web:alice' }, spin: { by: 'wheel' } });

      // Printed: every game's events shown, without the navigation and the controls.
      await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
      await page.emulateMedia({ media: 'print' });
      expect(await page.locator('header.bar').isVisible()).toBe(false);
      expect(await page.locator('#history-form').isVisible()).toBe(false);
      const first = spins[0]!.game;
      expect(
        await page.locator(`#history details[data-game="${first}"] li[data-type=spin]`).isVisible(),
      ).toBe(true);
      await page.emulateMedia({ media: 'screen' });

      // A day with nothing journaled says so.
      await page.locator('#history-day').fill('2001-01-01');
      await page.locator('#history-form button[type=submit]').click();
      await page.waitForSelector('#history[data-loaded="2001-01-01"]');
      await until(
        async () =>
          ((await page.locator('#history').textContent()) ?? '').includes(
            'No games journaled that day.',
          ),
        'the empty day',
      );
    }, 120_000);
  },
);
