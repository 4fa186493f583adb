// (page.evaluate callbacks run in the browser)
import { afterEach, describe, expect, it } from 'vitest';
import { TableSession } from '../../firmware-host/games/table-session.ts';
import type { JournalRecord } from '../../firmware-host/journal/record.ts';
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
  // A Triple Shot position is a box, as the table's prompts and results call it: one word.
  { ruleset: 'peru-triple-shot', labels: /^Dealer,Box 1,Box 2/ },
  { ruleset: 'spain-holdem-bonus', labels: /^Dealer,Board,Box 1,Box 2/ },
] as const;

/**
 * Records each text the result takes on the page, with whether a round was in play then
 * (the felt drawn as a hand in progress), to show when the last result left.
 */
function watchResult(): void {
  const seen: { text: string; roundInPlay: boolean }[] = [];
  (window as unknown as { resultsSeen: typeof seen }).resultsSeen = seen;
  const result = document.getElementById('result')!;
  new MutationObserver(() => {
    const text = result.textContent ?? '';
    const roundInPlay = !document.getElementById('hand')!.classList.contains('finished');
    if (seen.at(-1)?.text !== text) seen.push({ text, roundInPlay });
  }).observe(result, { childList: true, subtree: true, characterData: true });
}

describe.skipIf(skip)(
  'the table page shows the boxes and results of blackjack, Triple Shot and poker tables',
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
        await page.evaluate(watchResult);
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
        // The game's own Scoreboard (its counts, not empty baccarat roads): the tab shows.
        expect(await page.locator('#nav a[data-page=scoreboard]').isVisible()).toBe(true);
        // The result in the game's own sentences, a box's a line: no raw bet key.
        const resultLines = () =>
          page.$$eval('#result .result-line', (lines) => lines.map((line) => line.textContent!));
        await until(
          async () => (await resultLines()).some((line) => /^Box \d+ /.test(line)),
          `a result of ${ruleset} in words`,
          30_000,
          () => table!.daemon.describe(),
        );
        for (const line of await resultLines()) {
          expect(line).toMatch(/^[A-Z0-9].*\.$/);
          expect(line).not.toMatch(/box:\d/);
        }
        // The last result stays until the next round starts (a deck-per-round game shuffles
        // a new deck first): two results seen, and none cleared between rounds.
        const seen = () =>
          page.evaluate(
            () =>
              (window as unknown as { resultsSeen: { text: string; roundInPlay: boolean }[] })
                .resultsSeen,
          );
        await until(
          async () => {
            const rounds = (await seen()).map((moment) => /^Round \d+/.exec(moment.text)?.[0]);
            return new Set(rounds.filter(Boolean)).size >= 2;
          },
          `two results of ${ruleset}`,
          60_000,
        );
        const cleared = (await seen()).filter(
          (s, i, all) => s.text === '' && i > 0 && all[i - 1]!.text !== '',
        );
        expect(cleared.length).toBeGreaterThan(0);
        for (const moment of cleared)
          expect(moment.roundInPlay, JSON.stringify(await seen())).toBe(true);
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
