// (page.evaluate callbacks run in the browser)
import { afterEach, describe, expect, it } from 'vitest';
import { skipReason, until } from '../e2e/helpers/environment.ts';
import { currentShoeCards, USERS, WebTable } from '../e2e/helpers/web-table.ts';
import { chromiumMissing, launchBrowser, logIn, type TestBrowser } from './helpers/browser.ts';

const skip = skipReason(chromiumMissing());

const stripSeqs = () =>
  Array.from(document.querySelectorAll<HTMLElement>('#shoe-strip .strip-card')).map((card) =>
    Number(card.dataset.seq),
  );

/** The strip's cards and the last seq the page took, read in one turn of the page. */
const stripAndLastSeq = () => ({
  after: Array.from(document.querySelectorAll<HTMLElement>('#shoe-strip .strip-card')).map((card) =>
    Number(card.dataset.seq),
  ),
  lastSeq: Number(document.body.dataset.lastSeq),
});

describe.skipIf(skip)('a reload of the web console resumes without a gap', () => {
  let table: WebTable | undefined;
  let browser: TestBrowser | undefined;
  afterEach(async () => {
    await browser?.close();
    await table?.stop();
    browser = table = undefined;
  });

  it('draws the shoe in play again after a reload and follows it on, each event once', async () => {
    table = await WebTable.start('reload', { cardIntervalMs: 60, roundIntervalMs: 100 });
    browser = await launchBrowser();
    const { page } = browser;
    await logIn(page, table.url, 'bob', USERS.bob.password);
    await until(async () => (await page.evaluate(stripSeqs)).length >= 10, '10 cards on the page');
    const before = await page.evaluate(stripSeqs);
    // The page before the reload saw every event up to the last it stored (no gap, no repeat).
    expect(
      await page.evaluate(() => [document.body.dataset.gaps, document.body.dataset.duplicates]),
    ).toEqual(['0', '0']);

    await page.reload();
    await until(
      async () => (await page.evaluate(stripSeqs)).length >= before.length + 10,
      '10 more cards after the reload',
    );
    // Both in one evaluate: a card arriving between two reads would make them disagree.
    const { after, lastSeq } = await page.evaluate(stripAndLastSeq);

    // Exactly the journal's cards of the shoe, from its first up to what the page has seen.
    const journal = currentShoeCards(await table.journal()).map((record) => record.seq);
    expect(after).toEqual(journal.filter((seq) => seq <= lastSeq));
    // The cards drawn before the reload are drawn again, first.
    expect(after.slice(0, before.length)).toEqual(before);
    expect(await page.evaluate(() => document.body.dataset.gaps)).toBe('0');
    expect(await page.evaluate(() => document.body.dataset.duplicates)).toBe('0');
  });

  it('resumes a stream from Last-Event-ID with the next event, whose `after` is that id', async () => {
    table = await WebTable.start('reload-sse', { cardIntervalMs: 40, roundIntervalMs: 60 });
    const { cookie } = await table.login('bob');
    const frames = async (headers: Record<string, string>, count: number) => {
      const controller = new AbortController();
      const response = await fetch(`${table!.url}/api/stream`, {
        headers: { cookie, ...headers },
        signal: controller.signal,
      });
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      const events: Array<{ id: number; data: { seq: number; after: number } }> = [];
      while (events.length < count) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        for (let end = text.indexOf('\n\n'); end >= 0; end = text.indexOf('\n\n')) {
          const frame = text.slice(0, end);
          text = text.slice(end + 2);
          const id = /^id: (\d+)$/m.exec(frame)?.[1];
          const data = /^data: (.*)$/m.exec(frame)?.[1];
          if (id && data && !/^event:/m.test(frame))
            events.push({ id: Number(id), data: JSON.parse(data) });
        }
      }
      controller.abort();
      return events;
    };
    const first = await frames({}, 12);
    const resumeAt = first[5]!.id;
    const resumed = await frames({ 'last-event-id': String(resumeAt) }, 6);
    expect(resumed[0]!.data.after).toBe(resumeAt);
    expect(resumed.slice(0, 6).map((e) => e.id)).toEqual(first.slice(6, 12).map((e) => e.id));
    for (const [index, event] of resumed.entries()) {
      if (index > 0) expect(event.data.after).toBe(resumed[index - 1]!.id);
    }
  });
});
