/**
 * A table plays one game for the life of its journal: at start, a journal
 * folder holding another game's table is refused (journal-resume). So
 * `set_ruleset` naming another game's ruleset is refused at once, naming
 * both, and changes nothing; before, it was journaled and answered ok, and
 * the table then refused to start again. The web console offers only the
 * table's own game's rulesets.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../firmware-host/config/loader.ts';
import { TableDaemon } from '../../../firmware-host/daemon/table-daemon.ts';
import { gameOf } from '../../../firmware-host/games/registry.ts';
import { applyConsoleRequest } from '../../../firmware-host/web/requests.ts';
import { freePort } from '../../helpers/ports.ts';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function daemonIn(dir: string, ruleset: string): Promise<TableDaemon> {
  const { config } = resolveConfig(
    { table: 't', ruleset, mqtt: { url: 'embedded', port: await freePort() }, journal: { dir } },
    { env: {} },
  );
  const daemon = new TableDaemon({ config, simulate: false });
  await daemon.start();
  return daemon;
}

describe('set_ruleset across games', () => {
  it.each([
    [
      'tdc-baccarat-no-commission',
      'tdc-roulette',
      /tdc-roulette is a roulette table's ruleset; this card table plays tdc-baccarat-no-commission/,
    ],
    [
      'tdc-roulette',
      'bulgaria-punto-banco',
      /bulgaria-punto-banco is a card table's ruleset; this roulette table plays tdc-roulette/,
    ],
  ])('a %s table refuses %s, changes nothing, and starts again', async (own, other, message) => {
    const state = await mkdtemp(join(tmpdir(), 'tableside-other-game-ruleset-'));
    cleanup.push(() => rm(state, { recursive: true, force: true }));
    // The journal in a folder of its own: the table's host key is made beside it, in this test's folder.
    const dir = join(state, 'journal');
    const daemon = await daemonIn(dir, own);
    const seq = daemon.lastSeq;
    const refusal = await daemon.handleRequest({ op: 'set_ruleset', ruleset: other }).then(
      () => undefined,
      (error: Error & { code?: string }) => error,
    );
    expect(refusal?.code).toBe('other_game');
    expect(refusal?.message).toMatch(message);
    expect(refusal?.message).toContain('a new journal.dir');
    // Through the web console's door as well.
    await expect(
      applyConsoleRequest(daemon, { op: 'set_ruleset', ruleset: other }, 'sam'),
    ).rejects.toMatchObject({ code: 'other_game' });
    expect(daemon.lastSeq).toBe(seq);
    expect(daemon.health()).toMatchObject({ ruleset: own });
    // A ruleset of its own game is still taken (none is in play yet).
    const sibling = gameOf(own)
      .rulesetNames()
      .find((name) => name !== own);
    if (sibling !== undefined) {
      expect(await daemon.handleRequest({ op: 'set_ruleset', ruleset: sibling })).toMatchObject({
        ruleset: sibling,
      });
    }
    await daemon.stop();
    const again = await daemonIn(dir, sibling ?? own);
    cleanup.push(() => again.stop());
    expect(again.health()).toMatchObject({ ruleset: sibling ?? own });
  });
});
