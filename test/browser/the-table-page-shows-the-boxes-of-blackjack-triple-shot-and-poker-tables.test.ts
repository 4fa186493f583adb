// (page.evaluate callbacks run in the browser)
import { afterEach, describe, expect, it } from 'vitest';
import type { JournalRecord } from '../../firmware-host/journal/record.ts';
import { TableSession } from '../../firmware-host/table/table-session.ts';
import { eventFrameData, screenedSnapshot } from '../../firmware-host/web/feed.ts';
import { skipReason, until } from '../e2e/helpers/environment.ts';
import { USERS, WebTable } from '../e2e/helpers/web-table.ts';
import { chromiumMissing, launchBrowser, logIn, type TestBrowser } from './helpers/browser.ts';

const skip = skipReason(chromiumMissing());
const CARD_CODE = /\b[2-9TJQKA][SHDC]\b/g;

/**
 * The cards a viewer may see: those named by the console's feed (each event
 * screened as the page gets it) and by the table's state after the journal
 * (replayed through a table session: the state the page is sent).
 */
function exposedCards(records: readonly JournalRecord[], ruleset: string): Set<string> {
  const session = TableSession.forRuleset(ruleset);
  const text: string[] = [];
  for (const record of records) {
    if (record.kind === 'event') text.push(JSON.stringify(eventFrameData(record)));
    if (record.kind === 'input') session.feed(record.data);
  }
  const state = screenedSnapshot(session.snapshot());
  if (state.ok) text.push(JSON.stringify(state.snapshot));
  return new Set(text.join('\n').match(CARD_CODE) ?? []);
}

const CASES = [
  { ruleset: 'tdc-blackjack', labels: /^Dealer,Box 1,Box 2/ },
  { ruleset: 'peru-triple-shot', labels: /^Dealer,Position 1,Position 2/ },
  { ruleset: 'spain-holdem-bonus', labels: /^Dealer,Board,Box 1,Box 2/ },
] as const;

describe.skipIf(skip)(
  'the table page shows the boxes of blackjack, Triple Shot and poker tables',
  () => {
    let table: WebTable | undefined;
    let browser: TestBrowser | undefined;
    afterEach(async () => {
      await browser?.close();
      await table?.stop();
      browser = table = undefined;
    });

    for (const { ruleset, labels } of CASES) {
      it(`${ruleset}: the dealer and each box, a face-down card as a back`, async () => {
        table = await WebTable.start(ruleset, {
          ruleset,
          cardIntervalMs: 150,
          roundIntervalMs: 200,
        });
        browser = await launchBrowser();
        const { page } = browser;
        await logIn(page, table.url, 'bob', USERS.bob.password);
        const boxLabels = () =>
          page.$$eval('#hand .box-label > span:first-child', (spans) =>
            spans.map((span) => span.textContent).join(','),
          );
        await until(
          async () => labels.test(await boxLabels()),
          `the boxes of ${ruleset}`,
          20_000,
          () => table!.daemon.describe(),
        );
        // Every card the page shows face up is one the table exposed: named by the feed
        // (a card dealt face up, a result) or by the table's state (a hole card turned when
        // the dealer plays). The journal is read after the page, so it holds all the page saw.
        const shown = await page.$$eval('#hand [data-card]', (cards) =>
          cards.map((card) => card.getAttribute('data-card')!),
        );
        const exposed = exposedCards(await table.journal(), ruleset);
        for (const card of shown) expect(exposed.has(card), `${card} shown face up`).toBe(true);
        if (ruleset === 'spain-holdem-bonus') {
          // Hole cards are dealt face down: the boxes hold backs only until the showdown.
          await until(
            async () => (await page.locator('#hand .box-box-1 .card.back').count()) === 2,
            'two backs in box 1',
          );
          expect(await page.locator('#hand .box-box-1 [data-card]').count()).toBe(0);
        }
      });
    }
  },
);
