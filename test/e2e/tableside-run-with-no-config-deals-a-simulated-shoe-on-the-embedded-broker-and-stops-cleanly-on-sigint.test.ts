import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, waitForPort } from '../helpers/ports.ts';
import { Consumer } from './helpers/consumer.ts';
import { CliProcess, tempDir } from './helpers/daemon.ts';
import { until } from './helpers/environment.ts';

describe('tableside run with no config deals a simulated shoe on the embedded broker and stops cleanly on SIGINT', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });

  it('is online, deals cards and results within seconds, and publishes offline and exits 0 on Ctrl-C', async () => {
    const cwd = tempDir('npm-start');
    const port = await freePort();
    // What `npm start` runs, from an empty folder: the defaults (embedded broker,
    // a simulated shoe, no-commission baccarat), with only the broker's port
    // moved off 1883 and the simulated dealer hurried, through TABLESIDE_CONFIG.
    const overrides = join(cwd, 'overrides.json');
    writeFileSync(
      overrides,
      JSON.stringify({
        mqtt: { port },
        simulation: { cardIntervalMs: 20, roundIntervalMs: 50, seed: 3 },
      }),
    );
    const daemon = new CliProcess(['run'], {
      cwd,
      env: { TABLESIDE_CONFIG: overrides, TABLESIDE_LOG_LEVEL: 'warn' },
    });
    cleanups.push(() => daemon.kill('SIGKILL'));

    await Promise.race([
      waitForPort(port, 30_000),
      daemon.exited.then(() => {
        throw new Error(`tableside run exited\n${daemon.describe()}`);
      }),
    ]);
    const subscriber = await Consumer.connect({
      url: `mqtt://127.0.0.1:${port}`,
      root: 'tableside/table-1',
    });
    cleanups.push(() => subscriber.close());

    await until(
      () => subscriber.value('bridge/state') === 'online',
      'online',
      20_000,
      () => daemon.describe(),
    );
    await until(
      () => subscriber.ofType('result').length >= 1,
      'a result',
      30_000,
      () => daemon.describe(),
    );
    expect(subscriber.ofType('card').length).toBeGreaterThanOrEqual(4);
    expect(subscriber.outOfOrder).toEqual([]);
    expect(JSON.parse(subscriber.value('bridge/info') ?? '{}')).toMatchObject({
      ruleset: 'tdc-baccarat-no-commission',
      devices: { shoe: { simulated: true } },
    });
    // The journal went where the defaults say: below the working directory.
    expect(existsSync(join(cwd, '.tableside/journal'))).toBe(true);
    // Its stdout is a pipe, as under systemd: the table at start, no line per card or result.
    expect(daemon.stdout).toContain('mosquitto_sub');
    expect(daemon.stdout).not.toMatch(/^#\d+ /m);

    daemon.child.kill('SIGINT');
    await until(
      () => subscriber.value('bridge/state') === 'offline',
      'offline on bridge/state',
      20_000,
      () => daemon.describe(),
    );
    const exit = await daemon.exited;
    expect(exit, daemon.describe()).toEqual({ code: 0, signal: null });
  });
});
