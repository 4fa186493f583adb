/**
 * `tableside run` on a roulette bench (no devices configured: a simulated
 * wheel) for every shipped roulette ruleset: the simulated croupier spins
 * game after game through the wheel's wire, and the table finds nothing wrong
 * with a legal spin, whichever ruleset's spin rules apply.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../firmware-host/config/loader.ts';
import { TableDaemon } from '../../../firmware-host/daemon/table-daemon.ts';
import { rouletteRulesetNames } from '../../../firmware-host/games/rulesets.ts';
import type { JournalRecord } from '../../../firmware-host/journal/record.ts';
import { verifyJournalDir } from '../../../firmware-host/journal/verify.ts';
import type { DomainEvent } from '../../../firmware-host/table/events.ts';
import { freePort } from '../../helpers/ports.ts';
import { until } from '../../helpers/until.ts';

const GAMES = 6;

const cleanup: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe.each(rouletteRulesetNames())('a simulated roulette bench of %s', (ruleset) => {
  it(`spins ${GAMES} games with no alarm and a verified journal`, async () => {
    const state = await mkdtemp(join(tmpdir(), `tableside-roulette-bench-${ruleset}-`));
    cleanup.push(() => rm(state, { recursive: true, force: true }));
    // The journal in a folder of its own: the table's host key is made beside it, in this test's folder.
    const dir = join(state, 'journal');
    const { config } = resolveConfig(
      {
        table: 'bench',
        ruleset,
        mqtt: { url: 'embedded', port: await freePort() },
        journal: { dir },
        simulation: { cardIntervalMs: 5, roundIntervalMs: 10, seed: 8 },
      },
      { env: {} },
    );
    const daemon = new TableDaemon({ config });
    const events: DomainEvent[] = [];
    daemon.on('journaled', (records: readonly JournalRecord[]) => {
      for (const record of records) if (record.kind === 'event') events.push(record.data);
    });
    await daemon.start();
    const spins = () => events.filter((event) => event.type === 'spin').length;
    await until(() => spins() >= GAMES, `${GAMES} spins`);
    await daemon.stop();
    expect(spins()).toBeGreaterThanOrEqual(GAMES);
    expect(events.filter((event) => event.type === 'alarm')).toEqual([]);
    expect(events.filter((event) => event.type === 'no_more_bets').length).toBeGreaterThanOrEqual(
      GAMES,
    );
    expect((await verifyJournalDir(dir)).ok).toBe(true);
  });
});
