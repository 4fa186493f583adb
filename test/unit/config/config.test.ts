import { readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type ConfigError,
  configWarnings,
  isConfigError,
  loadConfig,
  pairingPolicyOf,
  parseTransportUrl,
  redactConfig,
  resolveConfig,
} from '../../../firmware-host/config/index.ts';
import { runCliSync } from '../../helpers/cli.ts';
import { tempDir as makeTempDir } from '../../helpers/temp.ts';

const root = resolve(import.meta.dirname, '../../..');
const examplesDir = join(root, 'firmware-host/config/examples');

function issuesOf(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (isConfigError(error)) return error.issues.map((issue) => `${issue.path}: ${issue.message}`);
    throw error;
  }
  throw new Error('expected a ConfigError');
}

function tempFile(name: string, text: string): string {
  const dir = makeTempDir('tableside-config-');
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const cli = (...args: string[]) =>
  runCliSync(args, { env: { TABLESIDE_MQTT_PASSWORD: '', TABLESIDE_TABLE_ID: '' } });

describe('configuration', () => {
  it('gives a working simulator bench with no file at all', async () => {
    const { config, file } = await loadConfig({ env: {}, cwd: '/srv/bench' });
    expect(file).toBeUndefined();
    expect(config.table).toBe('table-1');
    expect(config.ruleset).toBe('tdc-baccarat-no-commission');
    expect(config.devices).toEqual({ shoe: { kind: 'shoe', transport: 'simulate', firmware: [] } });
    expect(config.mqtt.url).toBe('embedded');
    expect(config.mqtt.port).toBe(1883);
    expect(config.mqtt.baseTopic).toBe('tableside');
    expect(config.journal.dir).toBe('/srv/bench/.tableside/journal');
  });

  it('lists every error with its path, not only the first', () => {
    const issues = issuesOf(() =>
      resolveConfig({
        tabel: 'x',
        table: 'a/b',
        devices: {
          shoe: { kind: 'shoo', transport: 'usb://1', firmware: ['abc'] },
          reader: { transport: 'simulate' },
        },
        mqtt: { url: 'http://broker', port: 70000, tls: { cert: 'c.pem' } },
        journal: 5,
      }),
    );
    expect(issues).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^tabel: unknown key/),
        expect.stringMatching(/^table: expected 1-64 letters/),
        expect.stringMatching(
          /^devices\.shoe\.kind: expected one of "shoe", "shuffler", "reader", "wheel", got "shoo"/,
        ),
        expect.stringMatching(/^devices\.shoe\.transport: expected a transport/),
        expect.stringMatching(/^devices\.shoe\.firmware\[0\]: expected a SHA-256/),
        expect.stringMatching(/^devices\.reader\.kind: missing: expected/),
        expect.stringMatching(/^mqtt\.url: expected "embedded" or a broker URL/),
        expect.stringMatching(/^mqtt\.port: /),
        expect.stringMatching(/^mqtt\.tls: expected cert and key together/),
        expect.stringMatching(/^journal: expected a mapping of settings, got 5/),
      ]),
    );
    expect(issues).toHaveLength(10);
  });

  it('applies the environment overrides and names the variable in errors', async () => {
    const path = tempFile('table.yaml', 'table: from-file\nmqtt:\n  url: mqtt://file:1883\n');
    const { config, overrides } = await loadConfig({
      file: path,
      env: {
        TABLESIDE_TABLE_ID: 'from-env',
        TABLESIDE_MQTT_URL: 'mqtts://broker.example:8883',
        TABLESIDE_MQTT_USERNAME: 'bac-07',
        TABLESIDE_MQTT_PASSWORD: 's3cret',
        TABLESIDE_MQTT_BASE_TOPIC: 'casino/floor-2',
        TABLESIDE_JOURNAL_DIR: 'journal-here',
        TABLESIDE_RULESET: 'peru-triple-shot',
        UNRELATED: 'x',
      },
      cwd: '/var/lib/tableside',
    });
    expect(config.table).toBe('from-env');
    expect(config.ruleset).toBe('peru-triple-shot');
    expect(config.mqtt).toMatchObject({
      url: 'mqtts://broker.example:8883',
      username: 'bac-07',
      password: 's3cret',
      baseTopic: 'casino/floor-2',
    });
    expect(config.journal.dir).toBe('/var/lib/tableside/journal-here');
    expect(overrides).toHaveLength(7);

    const issues = issuesOf(() =>
      resolveConfig({}, { env: { TABLESIDE_MQTT_BASE_TOPIC: 'bad/#', TABLESIDE_TABLE_ID: 'a b' } }),
    );
    expect(issues).toEqual([
      expect.stringMatching(/^table: .*\(from TABLESIDE_TABLE_ID\)$/),
      expect.stringMatching(/^mqtt\.baseTopic: .*\(from TABLESIDE_MQTT_BASE_TOPIC\)$/),
    ]);
  });

  it('resolves relative paths in the file against the file folder', async () => {
    const path = tempFile(
      'table.yaml',
      'journal:\n  dir: ./journal\nmqtt:\n  url: mqtts://b:8883\n  tls:\n    ca: tls/ca.pem\n',
    );
    const folder = resolve(path, '..');
    const { config } = await loadConfig({ file: path, env: {}, cwd: '/elsewhere' });
    expect(config.journal.dir).toBe(join(folder, 'journal'));
    expect(config.mqtt.tls?.ca).toBe(join(folder, 'tls/ca.pem'));
  });

  it('reads JSON files and reports YAML syntax errors with line numbers', async () => {
    const json = tempFile('table.json', JSON.stringify({ table: 'json-table' }));
    expect((await loadConfig({ file: json, env: {} })).config.table).toBe('json-table');

    const yaml = tempFile('bad.yaml', 'table: x\ntable: y\nmqtt:\n  url: [\n');
    const error = await loadConfig({ file: yaml, env: {} }).catch((caught: unknown) => caught);
    expect(isConfigError(error) && error.code).toBe('syntax');
    const messages = (error as ConfigError).issues.map((issue) => issue.message);
    expect(messages).toEqual([
      expect.stringMatching(/bad\.yaml:2:1: Map keys must be unique/),
      expect.stringMatching(/bad\.yaml:5:1: /),
    ]);
  });

  it('says so when the file is missing', async () => {
    const error = await loadConfig({ file: '/nonexistent/table.yaml', env: {} }).catch(
      (caught: unknown) => caught,
    );
    expect(isConfigError(error) && error.code).toBe('unreadable');
    expect((error as Error).message).toContain('no such file');
  });

  it('checks the ruleset against the engine registry by default', () => {
    expect(issuesOf(() => resolveConfig({ ruleset: 'tdc-baccarat' }))).toEqual([
      expect.stringMatching(
        /^ruleset: expected one of the known rulesets: .*tdc-baccarat-no-commission/,
      ),
    ]);
    expect(resolveConfig({}).config.ruleset).toBe('tdc-baccarat-no-commission');
  });

  it('checks the ruleset against a given list', () => {
    const rulesets = ['tdc-baccarat-no-commission', 'peru-triple-shot'];
    expect(resolveConfig({ ruleset: 'peru-triple-shot' }, { rulesets }).config.ruleset).toBe(
      'peru-triple-shot',
    );
    expect(issuesOf(() => resolveConfig({ ruleset: 'peru-tripleshot' }, { rulesets }))).toEqual([
      'ruleset: expected one of the known rulesets: tdc-baccarat-no-commission, peru-triple-shot (got "peru-tripleshot")',
    ]);
  });

  it('parses every transport form and rejects the rest', () => {
    expect(parseTransportUrl('serial:/dev/ttyUSB0')).toEqual({
      kind: 'serial',
      path: '/dev/ttyUSB0',
      baudRate: 115200,
    });
    expect(parseTransportUrl('serial:/dev/ttyUSB0?baud=9600')).toMatchObject({ baudRate: 9600 });
    expect(parseTransportUrl('/dev/ttyACM0')).toMatchObject({
      kind: 'serial',
      path: '/dev/ttyACM0',
    });
    expect(parseTransportUrl('tcp://10.0.0.5:4001')).toMatchObject({
      kind: 'tcp',
      host: '10.0.0.5',
      port: 4001,
    });
    expect(parseTransportUrl('hid://04d8:f3a1/A1B2')).toMatchObject({
      kind: 'hid',
      vendorId: 0x04d8,
      productId: 0xf3a1,
      serialNumber: 'A1B2',
    });
    expect(parseTransportUrl('memory://shoe')).toMatchObject({ kind: 'memory', name: 'shoe' });
    expect(parseTransportUrl('simulate')).toEqual({ kind: 'simulate' });
    for (const bad of [
      'tcp://host',
      'tcp://host:0',
      'hid://xyz:1',
      'serial:ttyUSB0',
      'usb://1',
      '',
    ]) {
      expect(parseTransportUrl(bad), bad).toBeUndefined();
    }
  });

  it('redacts the password and warns about clear-text credentials and open allow-lists', () => {
    const { config } = resolveConfig({
      devices: { shoe: { kind: 'shoe', transport: '/dev/ttyUSB0' } },
      mqtt: { url: 'mqtt://broker:1883', username: 'u', password: 'p' },
    });
    expect(redactConfig(config).mqtt.password).toBe('********');
    expect(config.mqtt.password).toBe('p');
    expect(configWarnings(config)).toEqual([
      expect.stringMatching(/^mqtt\.password: sent in clear text/),
      expect.stringMatching(/^devices\.shoe\.firmware: empty/),
      expect.stringMatching(/^devices\.shoe\.key: not paired, so the table refuses its cards/),
    ]);
  });

  it('lower-cases firmware hashes', () => {
    const hash = 'AB'.repeat(32);
    const { config } = resolveConfig({
      devices: {
        shoe: { kind: 'shoe', transport: 'simulate', model: 'TS-SHOE-2', firmware: [hash] },
      },
    });
    expect(config.devices.shoe?.firmware).toEqual(['ab'.repeat(32)]);
  });

  it('refuses a firmware allow-list without the model it applies to, and a registry on a shoe', () => {
    const issues = issuesOf(() =>
      resolveConfig({
        devices: {
          shoe: {
            kind: 'shoe',
            transport: 'simulate',
            firmware: ['ab'.repeat(32)],
            registry: 'x.json',
          },
        },
      }),
    );
    expect(issues).toEqual([
      expect.stringMatching(/^devices\.shoe\.model: a firmware allow-list needs the model/),
      expect.stringMatching(
        /^devices\.shoe\.registry: only a reader, or a shoe running tableside firmware, has a deck registry/,
      ),
    ]);
  });

  it('takes a key file or an ATECC608 for the shoe firmware, one of them, and atecc608 only there', () => {
    const firmwareShoe = {
      kind: 'shoe',
      transport: 'firmware',
      board: '/dev/ttyUSB0',
      registry: 'd.json',
    };
    const { config } = resolveConfig({
      devices: {
        filed: { ...firmwareShoe, keyFile: 'shoe.key' },
        chip: { ...firmwareShoe, board: '/dev/ttyUSB1', atecc608: true },
      },
    });
    expect(config.devices.filed!.keyFile).toMatch(/shoe\.key$/);
    expect(config.devices.chip!.atecc608).toBe(true);
    const issues = issuesOf(() =>
      resolveConfig({
        devices: {
          both: { ...firmwareShoe, keyFile: 'shoe.key', atecc608: true },
          serial: { kind: 'shoe', transport: '/dev/ttyUSB2', atecc608: true, keyFile: 'x.key' },
        },
      }),
    );
    expect(issues).toEqual([
      'devices.both.atecc608: one key: keyFile or atecc608, not both',
      expect.stringMatching(
        /^devices\.serial\.keyFile: only a simulated device or transport firmware has a key file/,
      ),
      'devices.serial.atecc608: atecc608 is the key of transport firmware (the chip on its board)',
      'devices.serial.atecc608: one key: keyFile or atecc608, not both',
    ]);
  });
});

describe('example configs', () => {
  const examples = readdirSync(examplesDir).filter((name) => /\.ya?ml$/.test(name));

  it('ship a baccarat, a Triple Shot, a roulette, a simulator-bench and a pty-bench example', () => {
    expect(examples.sort()).toEqual([
      'baccarat-smart-shoe.yaml',
      'pty-shoe.yaml',
      'roulette-wheel.yaml',
      'simulator-bench.yaml',
      'triple-shot-shuffler-reader.yaml',
    ]);
  });

  for (const name of examples) {
    it(`${name} passes the check`, async () => {
      await expect(loadConfig({ file: join(examplesDir, name), env: {} })).resolves.toBeTruthy();
    });
  }

  // The two benches: simulated devices, or a simulator on a pty dealt unpaired with its notice.
  const benches = new Set(['pty-shoe.yaml', 'simulator-bench.yaml']);

  it('pair every device on a real line of a production example, so the table deals their cards', async () => {
    for (const name of examples.filter((example) => !benches.has(example))) {
      const { config } = await loadConfig({ file: join(examplesDir, name), env: {} });
      for (const [device, settings] of Object.entries(config.devices)) {
        expect(`${name} ${device}: ${pairingPolicyOf(settings)}`).toMatch(/: (paired|simulated)$/);
      }
    }
  });

  it('say so where a bench deals an unpaired device', async () => {
    for (const name of benches) {
      const { config } = await loadConfig({ file: join(examplesDir, name), env: {} });
      for (const [device, settings] of Object.entries(config.devices)) {
        expect(`${name} ${device}: ${pairingPolicyOf(settings)}`).toMatch(
          /: (paired|simulated|bench)$/,
        );
      }
    }
  });
});

describe('tableside config', () => {
  it('check prints OK and a summary for a good file', () => {
    const result = cli('config', 'check', join(examplesDir, 'triple-shot-shuffler-reader.yaml'));
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^OK .*triple-shot-shuffler-reader\.yaml\n/);
    expect(result.stdout).toContain('table ts-01, ruleset peru-triple-shot');
    expect(result.stdout).toContain('shuffler: shuffler via tcp://192.168.40.21:4001');
  });

  it('check exits 2 listing every problem and writes nothing on stdout', () => {
    const path = tempFile(
      'bad.yaml',
      'table: a/b\ndevices:\n  shoe:\n    kind: shoo\n    transport: x\n',
    );
    const result = cli('config', 'check', path);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('3 problems');
    expect(result.stderr).toContain('devices.shoe.kind:');
    expect(result.stderr).toContain('devices.shoe.transport:');
    expect(result.stderr).toContain('table:');
  });

  it('show prints the effective config with the password redacted', () => {
    const path = tempFile(
      'p.yaml',
      'mqtt:\n  url: mqtts://b:8883\n  username: u\n  password: hunter2\n',
    );
    const result = cli('config', 'show', path, '--json');
    expect(result.status).toBe(0);
    const shown = JSON.parse(result.stdout);
    expect(shown.mqtt.password).toBe('********');
    expect(result.stdout).not.toContain('hunter2');
    expect(shown.devices.shoe.transport).toBe('simulate');
  });
});
