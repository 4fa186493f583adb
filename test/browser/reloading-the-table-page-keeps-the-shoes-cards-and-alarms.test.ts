// (page.evaluate callbacks run in the browser)
/**
 * Issue 25, item 5: F5 on the Table page once wiped the shoe's cards (19 to
 * 0) and alarms (3 to 0): the page resumed the feed after the last seq it
 * had seen, but a reloaded page has drawn nothing. It now draws the shoe in
 * play again from its start, each event once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { skipReason, socatMissing, until } from '../e2e/helpers/environment.ts';
import {
  currentShoeCards,
  startWebTableWithShoe,
  USERS,
  type WebTableWithShoe,
} from '../e2e/helpers/web-table.ts';
import { chromiumMissing, launchBrowser, logIn, type TestBrowser } from './helpers/browser.ts';

const skip = skipReason(chromiumMissing(), socatMissing());

/** What the Table page shows of the shoe: its cards and alarms, by seq, and the feed's counters. */
const drawn = () => ({
  cards: Array.from(document.querySelectorAll<HTMLElement>('#shoe-strip .strip-card')).map((card) =>
    Number(card.dataset.seq),
  ),
  alarms: Array.from(document.querySelectorAll<HTMLElement>('#alarms li')).map((alarm) =>
    Number(alarm.dataset.seq),
  ),
  lastSeq: Number(document.body.dataset.lastSeq),
  gaps: document.body.dataset.gaps,
  duplicates: document.body.dataset.duplicates,
});

describe.skipIf(skip)("reloading the Table page keeps the shoe's cards and alarms", () => {
  let setup: WebTableWithShoe | undefined;
  let browser: TestBrowser | undefined;
  afterEach(async () => {
    await browser?.close();
    await setup?.stop();
    browser = setup = undefined;
  });

  it('draws the same cards and alarms after F5, from the journal, with no gap or repeat', async () => {
    setup = await startWebTableWithShoe('reload-alarms', {
      seed: 4242,
      rate: 200,
      steps: '  - shuffle\n  - lid: closed\n  - deal: 40\n',
      // Three alarms: a card with a foreign back, one found face up, one from another shoe.
      faults: ['wrong-colour=15', 'face-up=22', 'foreign=30'],
    });
    const { table, shoe } = setup;
    browser = await launchBrowser();
    const { page } = browser;
    await logIn(page, table.url, 'bob', USERS.bob.password);
    await shoe.whenDone();
    // The shoe has stopped dealing: the page holds everything once it reaches the journal's end.
    let journal = await table.journal();
    await until(
      async () => {
        journal = await table.journal();
        return (await page.evaluate(drawn)).lastSeq === journal.at(-1)!.seq;
      },
      'the page to reach the end of the journal',
      30_000,
      () => table.daemon.describe(),
    );
    const before = await page.evaluate(drawn);
    const shoeCards = currentShoeCards(journal).map((record) => record.seq);
    expect(before.cards).toEqual(shoeCards);
    expect(before.alarms.length, 'the faults raised alarms').toBeGreaterThanOrEqual(3);

    await page.reload();
    await page.waitForSelector('#page-table:not([hidden])');
    await until(
      async () => (await page.evaluate(drawn)).lastSeq === before.lastSeq,
      'the reloaded page to reach the same seq',
    );
    const after = await page.evaluate(drawn);
    expect(after.cards).toEqual(before.cards);
    expect(after.alarms).toEqual(before.alarms);
    expect([after.gaps, after.duplicates]).toEqual(['0', '0']);
  });
});
