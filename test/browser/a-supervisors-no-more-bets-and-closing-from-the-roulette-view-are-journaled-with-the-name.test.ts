// (page.evaluate callbacks run in the browser)
import { afterEach, describe, expect, it } from 'vitest';
import { gameOf } from '../../firmware-host/games/registry.ts';
import type { JournalRecord } from '../../firmware-host/journal/record.ts';
import { skipReason, until } from '../e2e/helpers/environment.ts';
import { USERS, WebTable } from '../e2e/helpers/web-table.ts';
import { chromiumMissing, launchBrowser, logIn, type TestBrowser } from './helpers/browser.ts';

const skip = skipReason(chromiumMissing());

const isEvent = (record: JournalRecord, type: string) =>
  record.kind === 'event' && (record.data as { type: string }).type === type;
const fromAlice = (record: JournalRecord, t: string) =>
  record.kind === 'input' &&
  (record.data as { t: string; src?: string }).t === t &&
  (record.data as { src?: string }).src === 'web:alice';

describe.skipIf(skip)(
  "a supervisor's no more bets and closing from the roulette view are journaled with the name",
  () => {
    let table: WebTable | undefined;
    let browser: TestBrowser | undefined;
    afterEach(async () => {
      await browser?.close();
      await table?.stop();
      browser = table = undefined;
    });

    it('closes the betting, counts closing time down to a closed table, refuses card requests, and offers only roulette rulesets to change to', async () => {
      // Long betting, so the supervisor's "no more bets" comes before the wheel's own.
      table = await WebTable.start('roulette-requests', {
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
      expect(await page.locator('#roulette-requests').isVisible()).toBe(true);
      const result = page.locator('#roulette-request-result');

      // No more bets, confirmed while the betting is open (tried again if the wheel closed it first).
      let closedBy: JournalRecord | undefined;
      for (let attempt = 0; attempt < 5 && !closedBy; attempt++) {
        await page.waitForSelector('#spin[data-betting=open]', { timeout: 20_000 });
        await page.locator('#roulette-requests button[data-op=no_more_bets]').click();
        await expect
          .poll(() => page.locator('#confirm-text').textContent())
          .toContain('no more bets');
        await page.locator('#confirm-ok').click();
        await until(async () => ((await result.textContent()) ?? '') !== '', 'an answer');
        expect(await result.textContent()).toMatch(/^no more bets: done \(journal seq \d+\)$/);
        const seq = Number(/seq (\d+)/.exec((await result.textContent())!)![1]);
        const records = await table.journal();
        const input = records.find(
          (record) =>
            fromAlice(record, 'no_more_bets') && record.seq <= seq && record.seq >= seq - 1,
        );
        expect(input, 'the request journaled with web:alice').toBeDefined();
        // Its event follows it when it was the request that closed the betting.
        if (
          records.some((record) => record.seq === input!.seq + 1 && isEvent(record, 'no_more_bets'))
        ) {
          closedBy = input;
        }
        await result.evaluate((el) => {
          el.textContent = '';
        });
      }
      expect(closedBy, "the betting closed by alice's request").toBeDefined();
      await until(
        async () => (await page.locator('#spin-betting').textContent()) === 'No more bets',
        '"No more bets" on the page',
      );

      // A card table's request is refused at the wheel and journals nothing.
      const refused = await page.evaluate(async () => {
        const me = await (await fetch('/api/me')).json();
        const response = await fetch('/api/request/new_round', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': me.csrf },
          body: '{}',
        });
        return { status: response.status, body: await response.json() };
      });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ status: 'error', code: 'not_for_this_table' });
      expect(refused.body.error).toBe(
        'new_round is not a request of this table: it plays tdc-roulette (roulette), whose requests are no_more_bets, closing, reopen, set_ruleset',
      );

      // Closing time: announced, then counted down game by game until the table closes.
      const countdown: string[] = [];
      await page.exposeFunction('sawGamesLeft', (left: string) => countdown.push(left));
      await page.evaluate(() => {
        const closing = document.getElementById('closing')!;
        new MutationObserver(() =>
          (window as unknown as { sawGamesLeft: (left: string) => void }).sawGamesLeft(
            closing.dataset.gamesLeft ?? '',
          ),
        ).observe(closing, { attributes: true, attributeFilter: ['data-games-left'] });
      });
      await page.locator('#roulette-requests button[data-op=closing]').click();
      await expect
        .poll(() => page.locator('#confirm-text').textContent())
        .toContain('closing time');
      await page.locator('#confirm-ok').click();
      await until(async () => ((await result.textContent()) ?? '') !== '', 'an answer');
      expect(await result.textContent()).toMatch(/^closing: done \(journal seq \d+\)$/);
      await until(
        async () =>
          ((await page.locator('#closing').textContent()) ?? '').startsWith('Table closed'),
        'the table closed',
        60_000,
      );
      // Each render sets the attribute again: the count-down is its distinct values in turn.
      const shown = countdown.filter((left) => left !== '');
      expect(shown.filter((left, i) => left !== shown[i - 1])).toEqual(['3', '2', '1', '0']);
      expect(await page.locator('#spin').getAttribute('data-betting')).toBe('closed-table');

      const records = await table.journal();
      const closing = records.find((record) => fromAlice(record, 'closing'));
      expect(closing, 'closing journaled with web:alice').toBeDefined();
      expect(records.find((record) => record.seq === closing!.seq + 1)?.data).toMatchObject({
        type: 'closing',
        games: 3,
      });
      expect(records.filter((record) => isEvent(record, 'table_closed'))).toHaveLength(1);
      expect(
        records.filter(
          (record) => record.kind === 'input' && (record.data as { t: string }).t === 'round',
        ),
      ).toEqual([]);
      await until(
        () => /"user":"alice","request":\{"op":"closing"\}/.test(table!.daemon.stderr),
        'the request in the log',
      );

      // Between games, another roulette ruleset; only its own game's are offered (a table never
      // changes game: set_ruleset refuses another's, other_game).
      const offered = await page
        .locator('#roulette-ruleset-select option')
        .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
      expect([...offered].sort()).toEqual([...gameOf('tdc-roulette').rulesetNames()].sort());
      await page.locator('#roulette-ruleset-select').selectOption('bulgaria-roulette');
      await page.locator('#roulette-requests button[data-op=set_ruleset]').click();
      await page.locator('#confirm-ok').click();
      await until(
        async () => ((await result.textContent()) ?? '').startsWith('set ruleset: done'),
        'the ruleset changed',
      );
      await until(
        async () => (await page.locator('#roulette-ruleset').textContent()) === 'bulgaria-roulette',
        'the page naming the new ruleset',
      );
      expect(await page.evaluate(() => document.body.dataset.view)).toBe('roulette');
      expect(await page.evaluate(() => Number(document.body.dataset.gaps))).toBe(0);
    }, 120_000);
  },
);
