// (page.evaluate callbacks run in the browser)
/**
 * `npm start` (`tableside run --web`) on the simulated bench has no users, so
 * nobody could make a request from the console. It prints a one-time link
 * that logs this machine's browser in as a supervisor: opened in Chromium it
 * shows the requests, a request is journaled as `web:bench`, and the link
 * does not work a second time.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readJournalRecords } from '../../firmware-host/journal/journal.ts';
import type { JournalRecord } from '../../firmware-host/journal/record.ts';
import { CliProcess, tempDir } from '../e2e/helpers/daemon.ts';
import { skipReason, until } from '../e2e/helpers/environment.ts';
import { freePort } from '../helpers/ports.ts';
import { chromiumMissing, launchBrowser, type TestBrowser } from './helpers/browser.ts';

const skip = skipReason(chromiumMissing());

describe.skipIf(skip)(
  'tableside run on the simulated bench prints a one-time supervisor login link',
  () => {
    const cleanups: Array<() => unknown> = [];
    let browser: TestBrowser | undefined;
    afterEach(async () => {
      await browser?.close();
      browser = undefined;
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    it('logs the browser that opens it in as a supervisor, once', async () => {
      const cwd = tempDir('bench-login');
      cleanups.push(() => rmSync(cwd, { recursive: true, force: true }));
      const [mqttPort, webPort] = [await freePort(), await freePort()];
      const overrides = join(cwd, 'overrides.json');
      writeFileSync(
        overrides,
        JSON.stringify({
          mqtt: { port: mqttPort },
          simulation: { cardIntervalMs: 200, roundIntervalMs: 400, seed: 5 },
        }),
      );
      const daemon = new CliProcess(['run', '--no-view', '--web', String(webPort)], {
        cwd,
        env: { TABLESIDE_CONFIG: overrides, TABLESIDE_LOG_LEVEL: 'warn' },
      });
      cleanups.push(() => daemon.kill('SIGKILL'));
      const url = `http://127.0.0.1:${webPort}`;
      const printed = new RegExp(
        `web console: log in as a supervisor \\(once, on this machine\\): (${url}/bench-login\\?token=[A-Za-z0-9_-]{43})\\n`,
      );
      await until(
        () => printed.test(daemon.stderr),
        'the login link',
        30_000,
        () => daemon.describe(),
      );
      const link = printed.exec(daemon.stderr)![1]!;

      // A wrong token gets nothing.
      const wrong = await fetch(`${url}/bench-login?token=not-the-token`, { redirect: 'manual' });
      expect(wrong.status).toBe(403);
      expect(wrong.headers.get('set-cookie')).toBeNull();

      browser = await launchBrowser();
      const { page } = browser;
      await page.goto(link);
      await page.waitForSelector('#page-table:not([hidden])');
      expect(new URL(page.url()).pathname).toBe('/');
      expect(await page.locator('#who').textContent()).toBe('bench (supervisor)');
      expect(await page.locator('#requests').isHidden()).toBe(false);

      // A request from that session is taken and journaled with the name.
      const answer = await page.evaluate(async () => {
        const me = await (await fetch('/api/me')).json();
        const response = await fetch('/api/request/new_shoe', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': me.csrf },
          body: '{}',
        });
        return { status: response.status, body: await response.json() };
      });
      expect(answer).toMatchObject({ status: 200, body: { status: 'ok' } });
      const journaled = async () => {
        const records: JournalRecord[] = [];
        for await (const record of readJournalRecords(join(cwd, '.tableside/journal')))
          records.push(record);
        return records.filter((r) => (r.data as { src?: string }).src === 'web:bench');
      };
      await until(async () => (await journaled()).length > 0, 'the request in the journal');

      // The link is spent: a second browser (or a copy of the link) gets a clear refusal.
      const again = await fetch(link, { redirect: 'manual' });
      expect(again.status).toBe(403);
      expect(await again.json()).toMatchObject({
        code: 'login_link_used',
        error:
          'this one-time login link was used already: restart the bench (npm start) for a new one',
      });
      expect(daemon.running).toBe(true);
    });
  },
);
