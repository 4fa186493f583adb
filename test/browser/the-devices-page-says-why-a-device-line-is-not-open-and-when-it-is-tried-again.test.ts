/**
 * Issue 34 item 1 on the web console: a shoe configured on a serial path
 * that does not exist is not just "offline" on the Devices page: its card
 * says why its line is not open (the OS's error, with the path), when it is
 * tried again and how long it has been unreachable.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../e2e/helpers/daemon.ts';
import { skipReason } from '../e2e/helpers/environment.ts';
import { USERS, WebTable } from '../e2e/helpers/web-table.ts';
import { chromiumMissing, launchBrowser, logIn, type TestBrowser } from './helpers/browser.ts';

const skip = skipReason(chromiumMissing());

describe.skipIf(skip)("the Devices page says why a device's line is not open", () => {
  let table: WebTable | undefined;
  let browser: TestBrowser | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await browser?.close();
    await table?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
    browser = table = dir = undefined;
  });

  it('shows the path, the OS error, the next try and the time away of a shoe whose port is absent', async () => {
    dir = tempDir('devices-absent');
    const path = join(dir, 'ttyUSB9');
    table = await WebTable.start('devices-absent', {
      devices: { shoe: { kind: 'shoe', transport: path, unpaired: 'allow' } },
    });
    browser = await launchBrowser();
    const { page } = browser;
    await logIn(page, table.url, 'alice', USERS.alice.password);
    await page.goto(`${table.url}/#devices`);

    const line = page.locator('[data-device=shoe] dd.line');
    // The page reloads every 3 s; one drawn while a retry's open is under way has no next try.
    await expect
      .poll(async () => (await line.textContent()) ?? '', { timeout: 30_000 })
      .toMatch(/ · next try in \d+\.\d s \(attempt \d+\) · unreachable for \d+ s( · alarmed)?$/);
    const text = (await line.textContent()) ?? '';
    expect(text).toContain(`serial ${path}`);
    expect(text).toMatch(/no such file or directory/i);
    expect(await page.locator('[data-device=shoe] .pill').first().textContent()).toBe('offline');
  });
});
