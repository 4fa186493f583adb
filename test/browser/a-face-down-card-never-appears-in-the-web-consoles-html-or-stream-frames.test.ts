import { afterEach, describe, expect, it } from 'vitest';
import { skipReason, until } from '../e2e/helpers/environment.ts';
import { currentShoeCards, USERS, WebTable } from '../e2e/helpers/web-table.ts';
import { chromiumMissing, launchBrowser, logIn, type TestBrowser } from './helpers/browser.ts';

const skip = skipReason(chromiumMissing());

describe.skipIf(skip)(
  "a face-down card never appears in the web console's HTML or stream frames",
  () => {
    let table: WebTable | undefined;
    let browser: TestBrowser | undefined;
    afterEach(async () => {
      await browser?.close();
      await table?.stop();
      browser = table = undefined;
    });

    it("shows the shoe's face-down burns as backs: no value in the frames, the DOM or the history", async () => {
      table = await WebTable.start('face-down', {
        cardIntervalMs: 30,
        roundIntervalMs: 50,
        seed: 23,
      });
      browser = await launchBrowser();
      const { page, context } = browser;
      // Every frame of the page's event stream, as Chromium received it.
      const cdp = await context.newCDPSession(page);
      const frames: Array<{ eventName: string; eventId: string; data: string }> = [];
      cdp.on('Network.eventSourceMessageReceived', (message) => frames.push(message));
      await cdp.send('Network.enable');
      await logIn(page, table.url, 'alice', USERS.alice.password);
      await until(
        async () => (await page.locator('#shoe-strip .strip-card').count()) >= 20,
        '20 cards',
      );

      const journal = await table.journal();
      const faceDown = currentShoeCards(journal)
        .filter((record) => (record.data as { face?: string }).face === 'down')
        .map((record) => ({ seq: record.seq, card: (record.data as { card: string }).card }));
      expect(faceDown.length, 'the shoe opened with face-down burns').toBeGreaterThan(0);

      for (const { seq, card } of faceDown) {
        const frame = frames.find((f) => f.eventId === String(seq) && f.eventName === 'message');
        expect(frame, `the frame of seq ${seq}`).toBeDefined();
        const data = JSON.parse(frame!.data);
        expect(data).toMatchObject({ seq, type: 'card', card: null, hidden: true, face: 'down' });
        expect(frame!.data).not.toContain(`"${card}"`);
        const element = page.locator(`#shoe-strip .strip-card[data-seq="${seq}"]`);
        const html = await element.evaluate((el) => el.outerHTML);
        expect(html).toContain('card back');
        expect(html).not.toContain('data-card');
        expect(html).not.toContain(card);
      }
      // No frame of any kind (state, roads, hello) names a face-down card at its seq,
      // and no frame carries a shuffler order.
      for (const frame of frames) expect(frame.data).not.toMatch(/"order"/);

      // The History page and its JSON export screen them the same way.
      const { cookie } = await table.login('bob');
      const history = await (
        await fetch(`${table.url}/api/history`, { headers: { cookie } })
      ).json();
      const burns = history.shoes
        .at(-1)
        .events.filter((event: { face?: string }) => event.face === 'down');
      // The shoe's face-down cards are its burns, journaled before its first coup.
      expect(burns.map((event: { seq: number }) => event.seq)).toEqual(
        faceDown.map((card) => card.seq),
      );
      for (const burn of burns) expect(burn).toMatchObject({ card: null, hidden: true });
    });
  },
);
