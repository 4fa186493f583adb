/**
 * The web console's Devices page, in Chromium, says of each device whether
 * it is paired, unpaired or quarantined: a simulated shoe paired with its
 * key file, a simulated shuffler left unpaired, and a reader on a TCP line
 * that says HELLO without being paired, which the table refuses.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatPublicKey, keyFingerprint } from '../../device-protocol/auth/keys.ts';
import { createKeyFile, deviceKey } from '../../hardware/keys/device-key.ts';
import { SimulatedDevice } from '../../simulators/device.ts';
import { TcpServerTransport } from '../../simulators/tcp-server.ts';
import { tempDir } from '../e2e/helpers/daemon.ts';
import { skipReason } from '../e2e/helpers/environment.ts';
import { USERS, WebTable } from '../e2e/helpers/web-table.ts';
import { chromiumMissing, launchBrowser, logIn, type TestBrowser } from './helpers/browser.ts';

const skip = skipReason(chromiumMissing());

describe.skipIf(skip)('the Devices page shows pairing', () => {
  let table: WebTable | undefined;
  let browser: TestBrowser | undefined;
  let reader: SimulatedDevice | undefined;
  let keys: string | undefined;
  afterEach(async () => {
    await browser?.close();
    await reader?.stop();
    await table?.stop();
    if (keys) rmSync(keys, { recursive: true, force: true });
    browser = table = reader = keys = undefined;
  });

  it('shows each device paired, unpaired or quarantined', async () => {
    keys = tempDir('devices-page-keys');
    const keyFile = join(keys, 'shoe.key');
    const key = await deviceKey(await createKeyFile(keyFile, 'ed25519'));
    const server = new TcpServerTransport(0, '127.0.0.1');
    await server.listen();
    reader = new SimulatedDevice({
      kind: 'reader',
      transport: server,
      ruleset: 'tdc-baccarat-no-commission',
      reconnect: { openTimeoutMs: 60_000, initialDelayMs: 10, maxDelayMs: 100 },
    });
    reader.start();
    table = await WebTable.start('devices-pairing', {
      devices: {
        shoe: {
          kind: 'shoe',
          transport: 'simulate',
          keyFile,
          key: formatPublicKey(key.publicKey),
        },
        shuffler: { kind: 'shuffler', transport: 'simulate' },
        reader: { kind: 'reader', transport: `tcp://127.0.0.1:${server.boundPort}` },
      },
    });
    browser = await launchBrowser();
    const { page } = browser;
    await logIn(page, table.url, 'alice', USERS.alice.password);
    await page.goto(`${table.url}/#devices`);

    const pill = (name: string) => page.locator(`[data-device=${name}] .pill.pairing`);
    const words = (name: string) => page.locator(`[data-device=${name}] dd.pairing`);
    // The page reloads every 3 s: each device as soon as it has said HELLO.
    await expect.poll(() => pill('shoe').textContent(), { timeout: 30_000 }).toBe('paired');
    await expect
      .poll(() => words('shoe').textContent(), { timeout: 30_000 })
      .toBe(`paired, key ${keyFingerprint(key.publicKey)}, proved on this connection`);
    expect(await pill('shuffler').textContent()).toBe('unpaired');
    expect(await words('shuffler').textContent()).toBe('unpaired: a simulated device');
    await expect.poll(() => pill('reader').textContent(), { timeout: 30_000 }).toBe('quarantined');
    expect(await words('reader').textContent()).toMatch(
      /^unpaired: the table holds no key for it \(pair it: tableside device pair reader; on a bench only: devices\.reader\.unpaired: allow\)$/,
    );
    // Refused for its pairing, not its firmware.
    expect(await page.locator('[data-device=reader] dd.verdict').textContent()).toBe(
      'any firmware accepted (no allow-list configured)',
    );
  });
});
