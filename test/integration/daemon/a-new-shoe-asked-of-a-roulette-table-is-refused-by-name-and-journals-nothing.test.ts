/**
 * A roulette table has no shoe: a new shoe asked of it through the doors
 * that do not go through the MQTT request handler (the web console, the
 * daemon's own `newShoe`) is refused with a DaemonError naming the table's
 * game, journals nothing, and the table plays on.
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

async function rouletteTable(): Promise<TableDaemon> {
  const dir = await mkdtemp(join(tmpdir(), 'tableside-roulette-new-shoe-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  const { config } = resolveConfig(
    {
      table: 't',
      ruleset: 'tdc-roulette',
      mqtt: { url: 'embedded', port: await freePort() },
      journal: { dir },
    },
    { env: {} },
  );
  const daemon = new TableDaemon({ config, simulate: false });
  await daemon.start();
  cleanup.push(() => daemon.stop());
  return daemon;
}

describe('a new shoe asked of a roulette table', () => {
  it('is refused by name, journals nothing, and the table plays on', async () => {
    const daemon = await rouletteTable();
    const seq = daemon.lastSeq;

    const direct = await daemon.newShoe('a shoe for a wheel').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isDaemonError(direct)).toBe(true);
    expect(direct).toMatchObject({
      code: 'refused',
      message: 'new_shoe is for a card table; this table plays tdc-roulette',
    });

    await expect(
      applyConsoleRequest(daemon, { op: 'new_shoe', reason: 'from the console' }, 'pit'),
    ).rejects.toThrow(/new_shoe is for a card table; this table plays tdc-roulette/);

    expect(daemon.lastSeq).toBe(seq);
    // Still a roulette table awaiting its first game's bets.
    expect(daemon.expecting()).toMatchObject({ kind: 'bets', game: 1 });
    expect(await daemon.handleRequest({ op: 'no_more_bets' })).toMatchObject({
      events: ['no_more_bets'],
    });
  });
});
