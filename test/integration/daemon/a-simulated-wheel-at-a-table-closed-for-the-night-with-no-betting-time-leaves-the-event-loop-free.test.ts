/**
 * `simulation.roundIntervalMs: 0` (no betting time) at a roulette table that
 * closing time has closed (003 § 13(2)): the simulated wheel keeps asking
 * whether it may play. It once asked in a loop of settled promises that never
 * yielded, so no timer, socket or request of the process ran again; it now
 * asks on a timer. Timers firing after the close show the loop is free.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { resolveConfig } from '../../../firmware-host/config/loader.ts';
import { TableDaemon } from '../../../firmware-host/daemon/table-daemon.ts';
import { freePort } from '../../helpers/ports.ts';
import { until } from '../../helpers/until.ts';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('a simulated wheel at a closed table with no betting time leaves the event loop free', async () => {
  const state = await mkdtemp(join(tmpdir(), 'tableside-closed-wheel-'));
  cleanup.push(() => rm(state, { recursive: true, force: true }));
  // The journal in a folder of its own: the table's host key is made beside it, in this test's folder.
  const dir = join(state, 'journal');
  const { config } = resolveConfig(
    {
      table: 't',
      ruleset: 'tdc-roulette',
      mqtt: { url: 'embedded', port: await freePort() },
      journal: { dir },
      simulation: { cardIntervalMs: 1, roundIntervalMs: 0, seed: 3 },
    },
    { env: {} },
  );
  const daemon = new TableDaemon({ config, simulate: true });
  await daemon.start();
  cleanup.push(() => daemon.stop());
  await daemon.handleRequest({ op: 'closing' });
  // The last games are played, then the table is closed for the night.
  await until(
    () => (daemon.snapshot() as { roulette?: { closed?: boolean } }).roulette?.closed === true,
    'the table closed for the night',
  );
  expect(daemon.snapshot()).toMatchObject({ roulette: { closed: true } });
  // Ten timers in a row still fire with the wheel asking to play.
  let fired = 0;
  for (let tick = 0; tick < 10; tick++) {
    // fixed wait: timer under test: the timers are the probe: a closed wheel that kept the event loop busy would never let them fire
    await sleep(15);
    fired++;
  }
  expect(fired).toBe(10);
  expect(daemon.health()).toMatchObject({ ruleset: 'tdc-roulette' });
}, 30_000);
