/**
 * The MQTT requests of a roulette table, through the daemon's request
 * handler: `no_more_bets` closes the betting (003 § 11(2)), `closing`
 * announces the last games (003 § 13(2)); a card-table request there, or a
 * roulette request at a card table, is refused naming the table's game and
 * changes nothing (a new shoe asked through the web console or the daemon's
 * own door as well).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../firmware-host/config/loader.ts';
import { isDaemonError } from '../../../firmware-host/daemon/errors.ts';
import { TableDaemon } from '../../../firmware-host/daemon/table-daemon.ts';
import { applyConsoleRequest } from '../../../firmware-host/web/requests.ts';
import { freePort } from '../../helpers/ports.ts';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function daemonFor(ruleset: string): Promise<TableDaemon> {
  const state = await mkdtemp(join(tmpdir(), 'tableside-roulette-requests-'));
  cleanup.push(() => rm(state, { recursive: true, force: true }));
  // The journal in a folder of its own: the table's host key is made beside it, in this test's folder.
  const dir = join(state, 'journal');
  const { config } = resolveConfig(
    { table: 't', ruleset, mqtt: { url: 'embedded', port: await freePort() }, journal: { dir } },
    { env: {} },
  );
  const daemon = new TableDaemon({ config, simulate: false });
  await daemon.start();
  cleanup.push(() => daemon.stop());
  return daemon;
}

describe('roulette requests', () => {
  it('close the betting and announce closing time at a roulette table', async () => {
    const daemon = await daemonFor('tdc-roulette');
    expect(daemon.expecting()).toMatchObject({ kind: 'bets', game: 1 });
    expect(await daemon.handleRequest({ op: 'no_more_bets' })).toMatchObject({
      events: ['no_more_bets'],
      expecting: 'game 1: no more bets, spin',
    });
    // A second close changes nothing and is no error.
    expect(await daemon.handleRequest({ op: 'no_more_bets' })).toMatchObject({ events: [] });
    expect(await daemon.handleRequest({ op: 'closing' })).toMatchObject({ events: ['closing'] });
    expect(daemon.snapshot()).toMatchObject({ roulette: { betting: 'closed', gamesLeft: 3 } });
    expect(daemon.health()).toMatchObject({ ruleset: 'tdc-roulette', expecting: { kind: 'spin' } });
  });

  it('refuse card-table requests at a roulette table, and roulette ones at a card table', async () => {
    const roulette = await daemonFor('bulgaria-roulette');
    const seq = roulette.lastSeq;
    await expect(roulette.handleRequest({ op: 'new_shoe' })).rejects.toThrow(
      /new_shoe is for a card table; this table plays bulgaria-roulette/,
    );
    // The hand requests of a card table, too: before, they answered ok and did nothing.
    for (const request of [
      { op: 'new_round' },
      { op: 'player_action', action: 'stand', box: 1 },
      { op: 'void_hand', reason: 'misdeal' },
    ] as const) {
      await expect(roulette.handleRequest(request)).rejects.toThrow(
        new RegExp(`${request.op} is for a card table; this table plays bulgaria-roulette`),
      );
    }
    expect(roulette.lastSeq).toBe(seq);
    const cards = await daemonFor('tdc-baccarat-no-commission');
    await expect(cards.handleRequest({ op: 'no_more_bets' })).rejects.toThrow(
      /no_more_bets is for a roulette table; this table plays tdc-baccarat-no-commission/,
    );
    await expect(cards.handleRequest({ op: 'closing' })).rejects.toThrow(/roulette table/);
  });

  it('refuse a new shoe at a roulette table through the doors past the MQTT handler too', async () => {
    const daemon = await daemonFor('tdc-roulette');
    const seq = daemon.lastSeq;
    // The daemon's own newShoe (a shoe's lid, the simulated dealer) rejects, never throws.
    const direct = await daemon.newShoe('a shoe for a wheel').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isDaemonError(direct)).toBe(true);
    expect(direct).toMatchObject({
      code: 'refused',
      message: 'new_shoe is for a card table; this table plays tdc-roulette',
    });
    // The console refuses it before the daemon's doors: a roulette table's requests are its game's.
    await expect(
      applyConsoleRequest(daemon, { op: 'new_shoe', reason: 'from the console' }, 'pit'),
    ).rejects.toThrow(/new_shoe is not a request of this table: it plays tdc-roulette/);
    expect(daemon.lastSeq).toBe(seq);
    // The table plays on: the first game's betting closes.
    expect(await daemon.handleRequest({ op: 'no_more_bets' })).toMatchObject({
      events: ['no_more_bets'],
    });
  });

  it('change ruleset between games within roulette, and not during a spin', async () => {
    // Another game's ruleset is refused (other_game): a-table-refuses-a-ruleset-of-another-game-….
    const daemon = await daemonFor('tdc-roulette');
    expect(await daemon.handleRequest({ op: 'set_ruleset', ruleset: 'bulgaria-roulette' })).toEqual(
      {
        ruleset: 'bulgaria-roulette',
      },
    );
    expect(daemon.snapshot()).toMatchObject({ game: 'roulette', roulette: { game: 1 } });
    await daemon.handleRequest({ op: 'no_more_bets' });
    await expect(
      daemon.handleRequest({ op: 'set_ruleset', ruleset: 'tdc-roulette' }),
    ).rejects.toThrow(/ruleset changes only between games/);
  });
});
