/**
 * A baccarat table's web console (a simulated shoe): the table info names
 * the game's own Scoreboard module (the roads) by its URL, the server gives
 * that module and no other file of the game's folder (its code, a path
 * climbing out of it), and the counted Scoreboard a baccarat table does not
 * have is a clear 404, not an empty board.
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

describe("the web console serves a game's declared views and nothing else of its folder", () => {
  it('names the roads module, serves it, and refuses the rest of games/cards/', async () => {
    const state = await mkdtemp(join(tmpdir(), 'tableside-game-views-'));
    cleanup.push(() => rm(state, { recursive: true, force: true }));
    // The journal in a folder of its own: the table's host key is made beside it, in this test's folder.
    const dir = join(state, 'journal');
    const { config } = resolveConfig(
      {
        table: 'bac-1',
        ruleset: 'tdc-baccarat-no-commission',
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
    const url = daemon.webAddress;
    const me = (await (await fetch(`${url}/api/me`)).json()) as { views: Record<string, string> };
    expect(me).toMatchObject({ view: 'baccarat', views: { scoreboard: '/games/cards/roads.js' } });
    expect(me.views.table).toBeUndefined();

    const roads = await fetch(`${url}${me.views.scoreboard}`);
    expect(roads.status).toBe(200);
    expect(roads.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await roads.text()).toContain('export const scoreboard');

    for (const path of [
      '/games/cards/plugin.ts',
      '/games/cards/scoreboard.ts',
      '/games/cards/web/public/roads.js',
      '/games/cards/../web/static-files.ts',
      '/games/roulette/wheel-watch.ts',
    ]) {
      expect((await fetch(`${url}${path}`)).status, path).toBe(404);
    }

    const board = await fetch(`${url}/api/scoreboard`);
    expect(board.status).toBe(404);
    expect(await board.json()).toMatchObject({ code: 'no_scoreboard' });
  });
});
