import { afterEach, describe, expect, it } from 'vitest';
import { skipReason, until } from '../e2e/helpers/environment.ts';
import { USERS, WebTable } from '../e2e/helpers/web-table.ts';
import { chromiumMissing, launchBrowser, logIn, type TestBrowser } from './helpers/browser.ts';

const skip = skipReason(chromiumMissing());

describe.skipIf(skip)("a supervisor's void from the web console is journaled with the name", () => {
  let table: WebTable | undefined;
  let browser: TestBrowser | undefined;
  afterEach(async () => {
    await browser?.close();
    await table?.stop();
    browser = table = undefined;
  });

  it('asks for confirmation, then journals the void with web:alice and the reason', async () => {
    // Slow cards: a coup is in play for seconds, the pause between coups is short.
    table = await WebTable.start('void', { cardIntervalMs: 700, roundIntervalMs: 100 });
    browser = await launchBrowser();
    const { page } = browser;
    await logIn(page, table.url, 'alice', USERS.alice.password);
    expect(await page.locator('#requests').isVisible()).toBe(true);

    const reason = 'card flashed by the dealer';
    // Cancelled once: nothing is sent.
    await page.waitForSelector('#hand .box-player .card');
    await page.locator('#void-reason').fill(reason);
    await page.locator('#requests button[data-op=void_hand]').click();
    await expect.poll(() => page.locator('#confirm-text').textContent()).toContain(reason);
    await page.locator('#confirm button[value=cancel]').click();
    expect(await page.locator('#request-result').textContent()).toBe('');

    // Confirmed while a coup is in play (tried again if the coup ended in between).
    for (let attempt = 0; attempt < 6; attempt++) {
      await until(
        async () => ((await page.locator('#expecting').textContent()) ?? '').includes('card'),
        'a coup in play',
      );
      await page.locator('#void-reason').fill(reason);
      await page.locator('#requests button[data-op=void_hand]').click();
      await page.locator('#confirm-ok').click();
      await until(
        async () => ((await page.locator('#request-result').textContent()) ?? '') !== '',
        'an answer',
      );
      if ((await page.locator('#request-result').textContent())!.includes('done')) break;
    }
    expect(await page.locator('#request-result').textContent()).toMatch(
      /void hand: done \(journal seq \d+\)/,
    );

    const records = await table.journal();
    const voids = records.filter(
      (record) => record.kind === 'input' && (record.data as { t: string }).t === 'void',
    );
    expect(voids).toHaveLength(1);
    expect(voids[0]!.data).toMatchObject({ t: 'void', src: 'web:alice', reason });
    const voided = records.find(
      (record) =>
        record.kind === 'event' &&
        record.seq > voids[0]!.seq &&
        (record.data as { type: string }).type === 'hand_voided',
    );
    expect(voided, 'a hand_voided event after the void').toBeDefined();
    await until(
      () => /"user":"alice","request":\{"op":"void_hand"/.test(table!.daemon.stderr),
      'the request in the log',
    );

    // The History page names who voided it.
    await page.goto(`${table.url}/#history`);
    await page.waitForSelector('#history tr[data-round]');
    await expect
      .poll(() => page.locator('#history').textContent())
      .toContain(`void by alice: ${reason}`);
  });
});
