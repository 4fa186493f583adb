/**
 * A game brings its own simulator (issue 35 item 1): high card, a fixture
 * game no shipped file names, plugged in by a registry this test builds,
 * hands the daemon's simulation extension its simulated dealer (its
 * plug-in's `simulate`). A table of it with its default simulated shoe
 * deals by itself, as `npm start` deals a baccarat shoe: the dealer
 * shuffles and starts rounds, the cards come from the simulated shoe over
 * its wire through the driver, and every round is settled with no alarm.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../firmware-host/config/loader.ts';
import { TableDaemon } from '../../../firmware-host/daemon/table-daemon.ts';
import { useGameRegistry } from '../../../firmware-host/games/registry.ts';
import { withHighCard } from '../../fixtures/games/high-card/registry.ts';
import { freePort } from '../../helpers/ports.ts';
import { tempDir } from '../../helpers/temp.ts';
import { until } from '../../helpers/until.ts';

const cleanup: Array<() => Promise<void>> = [];
beforeAll(() => {
  useGameRegistry(withHighCard());
});
afterAll(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

function journaled(dir: string): { kind: string; data: Record<string, unknown> }[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .flatMap((name) => readFileSync(join(dir, name), 'utf8').split('\n').filter(Boolean))
    .map((line) => JSON.parse(line) as { kind: string; data: Record<string, unknown> });
}

describe('a fixture game on a simulated bench', () => {
  // The journal in a folder of its own: the table's host key goes beside it, in the temporary folder.
  const dir = join(tempDir('fixture-high-card-bench-'), 'journal');

  it('deals by itself through its own simulated dealer and a simulated shoe, with no alarm', async () => {
    const { config } = resolveConfig(
      {
        table: 'high-bench',
        ruleset: 'fixture-high-card',
        mqtt: { url: 'embedded', port: await freePort() },
        journal: { dir },
        simulation: { cardIntervalMs: 0, roundIntervalMs: 0, seed: 11 },
      },
      { env: {} },
    );
    // No devices configured: the game's default, a simulated shoe.
    expect(Object.values(config.devices)).toMatchObject([{ kind: 'shoe', transport: 'simulate' }]);
    const daemon = new TableDaemon({ config });
    cleanup.push(() => daemon.stop());
    await daemon.start();

    await until(
      () =>
        journaled(dir).filter((record) => record.kind === 'event' && record.data.type === 'result')
          .length >= 3,
      'three rounds of high card settled',
    );
    await daemon.stop();

    const records = journaled(dir);
    const events = records.filter((record) => record.kind === 'event').map((r) => r.data);
    expect(events.filter((event) => event.type === 'alarm')).toEqual([]);
    // The dealer's records are the simulator's; every card is the shoe's, from its wire.
    const inputs = records.filter((record) => record.kind === 'input').map((r) => r.data);
    expect(
      inputs.filter((input) => input.t !== 'card').map((input) => [input.t, input.src]),
    ).toEqual(
      expect.arrayContaining([
        ['shuffle', 'simulator'],
        ['round', 'simulator'],
      ]),
    );
    const cards = inputs.filter((input) => input.t === 'card');
    expect(cards.length).toBeGreaterThanOrEqual(6);
    expect(new Set(cards.map((card) => card.src))).toEqual(new Set(['shoe']));
    // Each round: the player's card, then the banker's, then its result.
    const dealt = events.filter((event) => event.type === 'card').map((event) => event.to);
    expect(dealt.slice(0, 6)).toEqual(['player', 'banker', 'player', 'banker', 'player', 'banker']);
  });
});
