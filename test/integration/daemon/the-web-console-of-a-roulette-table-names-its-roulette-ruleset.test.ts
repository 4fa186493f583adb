/**
 * The web console of a roulette table (a simulated wheel): `/api/me` names
 * the roulette ruleset and its game. A roulette ruleset lives in a registry
 * of its own, so asking the card registry for it made every page fail.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../firmware-host/config/loader.ts';
import { TableDaemon } from '../../../firmware-host/daemon/table-daemon.ts';
import { freePort } from '../../helpers/ports.ts';

const cleanup: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe('the web console of a roulette table', () => {
  it('names its roulette ruleset and game to a viewer', async () => {
    const state = await mkdtemp(join(tmpdir(), 'tableside-roulette-web-'));
    cleanup.push(() => rm(state, { recursive: true, force: true }));
    // The journal in a folder of its own: the table's host key is made beside it, in this test's folder.
    const dir = join(state, 'journal');
    const { config } = resolveConfig(
      {
        table: 'wheel-1',
        ruleset: 'tdc-roulette',
        mqtt: { url: 'embedded', port: await freePort() },
        journal: { dir },
        web: { host: '127.0.0.1', port: await freePort() },
        simulation: { cardIntervalMs: 5, roundIntervalMs: 10, seed: 4 },
      },
      { env: {} },
    );
    const daemon = new TableDaemon({ config });
    await daemon.start();
    cleanup.push(() => daemon.stop());
    const response = await fetch(`${daemon.webAddress}/api/me`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      role: 'viewer',
      table: 'wheel-1',
      ruleset: 'tdc-roulette',
      game: 'roulette',
      // The roulette plug-in names the page that draws its table.
      view: 'roulette',
    });
  });
});
