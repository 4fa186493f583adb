// (page.evaluate callbacks run in the browser)
/**
 * Issue 25, item 10: an alarm is acted on by the rule it cites and the card
 * it is about. The Table page showed `face_up_card` with the card masked
 * (▒▒) although it left the shoe face up and the terminal names it, and
 * cited only practice text. Now the page screens alarms as MQTT does (a card
 * is named only when its input left the shoe face up) and each cites the
 * nearest seed article; a card with a foreign back, dealt face down, stays
 * masked.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { skipReason, socatMissing, until } from '../e2e/helpers/environment.ts';
import { startWebTableWithShoe, USERS, type WebTableWithShoe } from '../e2e/helpers/web-table.ts';
import { chromiumMissing, launchBrowser, logIn, type TestBrowser } from './helpers/browser.ts';

const skip = skipReason(chromiumMissing(), socatMissing());
const ARTICLE = /\b00\d § \S/;

describe.skipIf(skip)(
  'an alarm on the Table page cites its article and names only an exposed card',
  () => {
    let setup: WebTableWithShoe | undefined;
    let browser: TestBrowser | undefined;
    afterEach(async () => {
      await browser?.close();
      await setup?.stop();
      browser = setup = undefined;
    });

    it('shows the face-up card by name and the face-down one as ▒▒, each with its article', async () => {
      setup = await startWebTableWithShoe('alarm-cites', {
        seed: 4242,
        rate: 200,
        steps: '  - shuffle\n  - lid: closed\n  - deal: 30\n',
        faults: ['wrong-colour=15', 'face-up=22'],
      });
      const { table, shoe } = setup;
      browser = await launchBrowser();
      const { page } = browser;
      await logIn(page, table.url, 'bob', USERS.bob.password);
      await shoe.whenDone();
      const kinds = ['face_up_card', 'wrong_back_colour'];
      await until(
        async () =>
          (await page.locator('#alarms li').allTextContents()).filter((text) =>
            kinds.some((kind) => text.startsWith(kind)),
          ).length === 2,
        'both alarms on the Table page',
        30_000,
        () => table.daemon.describe(),
      );
      // The cards the shoe dealt, as its inputs say how they left it.
      const inputs = (await table.journal())
        .filter((record) => record.kind === 'input')
        .map((record) => record.data as { t: string; card?: string; face?: string; back?: string });
      const faceUp = inputs.find((input) => input.t === 'card' && input.face === 'up')!;
      const foreign = inputs.find((input) => input.t === 'card' && input.back !== 'red')!;
      expect(foreign.face, 'the card with a foreign back left the shoe face down').toBe('down');

      const alarm = (kind: string) =>
        page.evaluate((kind) => {
          const li = Array.from(document.querySelectorAll('#alarms li')).find(
            (item) => item.querySelector('.kind')?.textContent === kind,
          )!;
          return { text: li.textContent!, rule: li.querySelector('.rule')?.textContent ?? '' };
        }, kind);
      const shownFaceUp = await alarm('face_up_card');
      expect(shownFaceUp.text).toContain(`${faceUp.card} was found face up`);
      expect(shownFaceUp.text).not.toContain('▒▒');
      expect(shownFaceUp.rule).toMatch(ARTICLE);

      const shownForeign = await alarm('wrong_back_colour');
      expect(shownForeign.text).toContain('▒▒');
      expect(shownForeign.rule).toMatch(ARTICLE);
      // The face-down card is nowhere on the page.
      expect(await page.evaluate(() => document.body.innerHTML)).not.toMatch(
        new RegExp(`\\b${foreign.card}\\b`),
      );
    });
  },
);
