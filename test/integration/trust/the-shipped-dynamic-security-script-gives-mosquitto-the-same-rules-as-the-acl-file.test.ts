/**
 * hardware/deploy/mosquitto/dynamic-security.sh run with mosquitto_ctrl
 * against a real mosquitto with the dynamic-security plugin: the same rules
 * as the ACL file. Each table's daemon publishes only under its own table,
 * a consumer publishes nothing, a supervisor publishes requests only,
 * anonymous clients are refused.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestBroker } from '../../helpers/broker.ts';
import { REPO_ROOT } from '../../helpers/cli.ts';
import { commandMissing, fileMissing, mosquittoMissing, skipReason } from '../../helpers/tools.ts';
import { BASE, Cleanup, Client, settle, tempDir, waitFor } from './support.ts';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());
const PLUGIN = ['/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/usr/lib']
  .map((dir) => join(dir, 'mosquitto_dynamic_security.so'))
  .find((path) => existsSync(path));
const missing = skipReason(
  mosquittoMissing('the dynamic-security scenario needs it'),
  commandMissing('mosquitto_ctrl', 'the dynamic-security scenario needs it'),
  fileMissing(
    PLUGIN,
    'mosquitto_dynamic_security.so is not installed: the dynamic-security scenario needs it',
  ),
);

const PASSWORDS = {
  'table-t1': 'table-one-secret',
  'table-t2': 'table-two-secret',
  'consumer-pit': 'consumer-secret',
  'supervisor-pit': 'supervisor-secret',
};

describe.skipIf(missing)('the shipped dynamic-security script', () => {
  it('gives mosquitto the same rules as the ACL file', async () => {
    const dir = tempDir(cleanup);
    chmodSync(dir, 0o777); // mosquitto (its own user) saves the plugin's file here
    const config = join(dir, 'dynamic-security.json');
    const init = spawnSync('mosquitto_ctrl', ['dynsec', 'init', config, 'admin', 'admin-secret'], {
      encoding: 'utf8',
    });
    expect(init.status, init.stderr).toBe(0);
    chmodSync(config, 0o666);
    const broker = await startTestBroker({
      extraConfig: [
        'allow_anonymous false',
        `plugin ${PLUGIN}`,
        `plugin_opt_config_file ${config}`,
      ],
    });
    cleanup.add(() => broker.close());
    const passwords = join(dir, 'passwords');
    writeFileSync(
      passwords,
      Object.entries(PASSWORDS)
        .map(([user, pw]) => `${user} ${pw}`)
        .join('\n'),
      { mode: 0o600 },
    );
    const script = spawnSync(
      'sh',
      [join(REPO_ROOT, 'hardware/deploy/mosquitto/dynamic-security.sh')],
      {
        encoding: 'utf8',
        env: {
          ...process.env,
          ADMIN: `-h 127.0.0.1 -p ${broker.port} -u admin -P admin-secret`,
          PASSWORDS_FILE: passwords,
        },
      },
    );
    expect(script.status, script.stderr).toBe(0);

    const auth = (user: keyof typeof PASSWORDS) => ({ username: user, password: PASSWORDS[user] });
    await expect(
      mqtt.connectAsync(broker.url, { reconnectPeriod: 0, connectTimeout: 3000 }),
    ).rejects.toThrow();
    const watcher = await Client.connect(cleanup, broker.url, auth('supervisor-pit'));
    const consumer = await Client.connect(cleanup, broker.url, auth('consumer-pit'));
    const table1 = await Client.connect(cleanup, broker.url, auth('table-t1'), `${BASE}/t1/#`);
    const table2 = await Client.connect(cleanup, broker.url, auth('table-t2'), '');

    await consumer.publish(`${BASE}/t1/bridge/request/new_shoe`, 'from a consumer');
    await consumer.publish(`${BASE}/t1/events/card`, 'from a consumer');
    await table2.publish(`${BASE}/t1/events/card`, 'from table 2');
    await watcher.publish(`${BASE}/t1/events/card`, 'from a supervisor');
    await table1.publish(`${BASE}/t1/events/card`, 'from table 1');
    await watcher.publish(`${BASE}/t1/bridge/request/new_shoe`, 'from a supervisor');
    await waitFor(() => watcher.messages.length >= 2, 'the allowed messages');
    await settle(500);
    expect(watcher.messages.map((m) => `${m.topic} ${m.text}`).sort()).toEqual([
      `${BASE}/t1/bridge/request/new_shoe from a supervisor`,
      `${BASE}/t1/events/card from table 1`,
    ]);
    // The table's daemon reads its requests; the consumer reads the events.
    expect(table1.on(`${BASE}/t1/bridge/request/new_shoe`).map((m) => m.text)).toEqual([
      'from a supervisor',
    ]);
    expect(consumer.on(`${BASE}/t1/events/card`).map((m) => m.text)).toEqual(['from table 1']);
  });
});
