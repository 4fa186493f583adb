/**
 * The embedded broker (aedes) speaks MQTT 3.1.1 only. A config asking for
 * MQTT 5 with it is a config error, not a silent fallback: the daemon exits
 * 2 naming `mqtt.protocolVersion` and what to do, and writes nothing. With
 * the broker URL given in the environment instead, the same file is valid.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/daemon.ts';

it('exits 2 naming mqtt.protocolVersion, and creates no journal', async () => {
  const dir = tempDir('mqtt5-embedded');
  writeFileSync(
    join(dir, 'table.yaml'),
    'mqtt:\n  protocolVersion: 5\njournal:\n  dir: ./journal\n',
  );
  const result = await runCli(['run', '--config', 'table.yaml', '--no-view'], { cwd: dir });
  expect(result.code, result.stderr).toBe(2);
  expect(result.stderr).toContain(
    'mqtt.protocolVersion: the embedded broker (aedes) speaks MQTT 3.1.1 only: set protocolVersion to 4, or set url to an MQTT 5 broker such as mosquitto 2',
  );
  expect(existsSync(join(dir, 'journal'))).toBe(false);
  expect(readdirSync(dir)).toEqual(['table.yaml']);

  const checked = await runCli(['config', 'show', 'table.yaml', '--json'], {
    cwd: dir,
    env: { TABLESIDE_MQTT_URL: 'mqtt://127.0.0.1:1' },
  });
  expect(checked.code, checked.stderr).toBe(0);
  expect(JSON.parse(checked.stdout).mqtt).toMatchObject({
    url: 'mqtt://127.0.0.1:1',
    protocolVersion: 5,
    sessionExpirySeconds: 300,
    willDelaySeconds: 10,
  });
});
