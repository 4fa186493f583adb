// (page.evaluate callbacks run in the browser)
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { getRouletteRuleset } from '../../firmware-host/games/rulesets.ts';
import { SerialTransport } from '../../hardware/transports/serial.ts';
import { SimulatedWheel } from '../../simulators/wheel.ts';
import { tempDir } from '../e2e/helpers/daemon.ts';
import { skipReason, socatMissing, until } from '../e2e/helpers/environment.ts';
import { USERS, WebTable } from '../e2e/helpers/web-table.ts';
import { PtyPair } from '../helpers/pty-pair.ts';
import { chromiumMissing, launchBrowser, logIn, type TestBrowser } from './helpers/browser.ts';

const skip = skipReason(chromiumMissing(), socatMissing());
const RULESET = 'tdc-roulette';

/** The roulette view's alarm list as the user reads it. */
const readAlarms = () =>
  Array.from(document.querySelectorAll('#roulette-alarms li')).map((li) => ({
    kind: li.querySelector('.kind')?.textContent,
    rule: li.querySelector('.rule')?.textContent,
  }));

describe.skipIf(skip)(
  'an alarm at a roulette table shows in the roulette view with its article, and after a reload',
  () => {
    const cleanups: Array<() => Promise<unknown>> = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    it('lists the same-direction rotor and the chip in the wheel with their articles, newest first', async () => {
      const ptyDir = tempDir('roulette-alarm-pty');
      cleanups.push(async () => rmSync(ptyDir, { recursive: true, force: true }));
      const pty = new PtyPair(ptyDir);
      await pty.start();
      cleanups.push(() => pty.stop());
      const table = await WebTable.start('roulette-alarm', {
        ruleset: RULESET,
        // A wheel on a real line, dealt unpaired on this bench.
        devices: { wheel: { kind: 'wheel', transport: pty.a, unpaired: 'allow' } },
      });
      cleanups.push(() => table.stop());
      const wheel = new SimulatedWheel({
        transport: new SerialTransport({ path: pty.b, baudRate: 115_200 }),
        seed: 9,
        minRevolutions: getRouletteRuleset(RULESET).spin.minBallRevolutions.value,
        faults: ['same-direction=2', 'chip=3'],
      });
      cleanups.push(() => wheel.stop());
      wheel.start();
      let browser: TestBrowser | undefined = await launchBrowser();
      cleanups.push(() => browser!.close());
      await logIn(browser.page, table.url, 'bob', USERS.bob.password);
      await browser.page.waitForSelector('#view-roulette:not([hidden])');

      for (let game = 1; game <= 3; game++) {
        await wheel.playGame();
        await wheel.whenSettled();
      }
      const ruleset = getRouletteRuleset(RULESET).spin;
      const expected = [
        { kind: 'game_voided', rule: ` (${ruleset.noSpinVoids.source})` },
        { kind: 'no_spin', rule: ` (${ruleset.noSpinVoids.source})` },
        { kind: 'rotor_same_direction', rule: ` (${ruleset.alternateRotor.source})` },
      ];
      const roulette = (alarms: Array<{ kind?: string | null }>) =>
        alarms.filter((alarm) => alarm.kind !== 'device_unpaired');
      await until(
        async () => roulette(await browser!.page.evaluate(readAlarms)).length >= 3,
        'three alarms on the roulette view',
        30_000,
        () => table.daemon.describe(),
      );
      expect(roulette(await browser.page.evaluate(readAlarms))).toEqual(expected);
      expect(await browser.page.locator('#roulette-info').textContent()).toBe('2 spins · 1 void');

      // A page opened afresh is sent the last games again: the same alarms, each once.
      await browser.close();
      browser = await launchBrowser({ width: 390, height: 844 }, { isMobile: true });
      await logIn(browser.page, table.url, 'bob', USERS.bob.password);
      await until(
        async () => roulette(await browser!.page.evaluate(readAlarms)).length >= 3,
        'the alarms after the reload',
      );
      expect(roulette(await browser.page.evaluate(readAlarms))).toEqual(expected);
      expect(await browser.page.evaluate(() => document.body.dataset.duplicates)).toBe('0');
    }, 120_000);
  },
);
