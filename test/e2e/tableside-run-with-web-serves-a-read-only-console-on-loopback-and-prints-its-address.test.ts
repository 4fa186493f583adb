/**
 * What `npm start` gives (`tableside run --web`): the console on loopback,
 * its address printed, and with no users configured anyone at the Pi may
 * watch but nobody may make requests.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/ports.ts';
import { CliProcess, tempDir } from './helpers/daemon.ts';
import { until } from './helpers/environment.ts';

describe('tableside run --web serves a read-only console on loopback and prints its address', () => {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('prints http://127.0.0.1:PORT, lets anyone watch, and refuses requests', async () => {
    const cwd = tempDir('run-web');
    cleanups.push(() => rmSync(cwd, { recursive: true, force: true }));
    const [mqttPort, webPort] = [await freePort(), await freePort()];
    const overrides = join(cwd, 'overrides.json');
    writeFileSync(
      overrides,
      JSON.stringify({
        mqtt: { port: mqttPort },
        simulation: { cardIntervalMs: 20, roundIntervalMs: 40, seed: 3 },
      }),
    );
    const daemon = new CliProcess(['run', '--no-view', '--web', String(webPort)], {
      cwd,
      env: { TABLESIDE_CONFIG: overrides, TABLESIDE_LOG_LEVEL: 'warn' },
    });
    cleanups.push(() => daemon.kill('SIGKILL'));
    const url = `http://127.0.0.1:${webPort}`;
    await until(
      () => daemon.stderr.includes(`web console: ${url}\n`),
      'the address',
      30_000,
      () => daemon.describe(),
    );

    const me = await (await fetch(`${url}/api/me`)).json();
    expect(me).toMatchObject({
      user: 'anonymous',
      role: 'viewer',
      anonymous: true,
      table: 'table-1',
    });
    const page = await fetch(`${url}/`, { headers: { 'accept-encoding': 'gzip' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(await page.text()).toContain('<script type="module" src="/app.js"></script>');

    const stream = await fetch(`${url}/api/stream`);
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = stream.body!.getReader();
    let text = '';
    while (!/^id: \d+$/m.test(text)) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    expect(text).toContain('event: hello');

    const refused = await fetch(`${url}/api/request/new_shoe`, { method: 'POST', body: '{}' });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toBe(
      'anonymous is a viewer: only a supervisor may make requests',
    );

    // A bad --web value is a clear error before anything starts.
    const bad = new CliProcess(['run', '--no-view', '--web', 'nowhere:port'], {
      cwd,
      env: { TABLESIDE_CONFIG: overrides, TABLESIDE_LOG_LEVEL: 'warn' },
    });
    expect((await bad.exited).code).toBe(2);
    expect(bad.stderr).toContain(
      '--web "nowhere:port": expected host:port or port, e.g. 127.0.0.1:8080',
    );
  });
});
