/**
 * `tableside diag` on a live table whose shoe (on a TCP line, behind a
 * simulated shoe with a key) is not paired: the table would refuse its
 * cards, so the pairing and key rows fail, name the bench setting, and diag
 * exits 1. The same table with the shoe paired, or with
 * `devices.shoe.unpaired: allow` (a bench), has no failing shoe row and
 * exits 0 (a bench only with warnings).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatPublicKey } from '../../../device-protocol/auth/keys.ts';
import type { DiagReport } from '../../../firmware-host/diag/report.ts';
import { type DeviceKey, deviceKey, generatedSigner } from '../../../hardware/keys/device-key.ts';
import { SimulatedDevice } from '../../../simulators/device.ts';
import { TcpServerTransport } from '../../../simulators/tcp-server.ts';
import { startTestBroker, type TestBroker } from '../../helpers/broker.ts';
import { runCli } from '../../helpers/cli.ts';

let dir: string;
let broker: TestBroker;
let key: DeviceKey;
let port: number;
let shoe: SimulatedDevice;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tableside-diag-unpaired-'));
  broker = await startTestBroker();
  key = await deviceKey(generatedSigner('ed25519'));
  const server = new TcpServerTransport(0, '127.0.0.1');
  await server.listen();
  port = server.boundPort!;
  shoe = new SimulatedDevice({
    kind: 'shoe',
    transport: server,
    ruleset: 'tdc-baccarat-no-commission',
    key,
    reconnect: { openTimeoutMs: 60_000, initialDelayMs: 10, maxDelayMs: 100 },
  });
  shoe.start();
});
afterAll(async () => {
  await shoe?.stop();
  await broker?.close();
  await rm(dir, { recursive: true, force: true });
});

async function diag(name: string, shoeLines: string[]) {
  const config = join(dir, `${name}.yaml`);
  await writeFile(
    config,
    [
      'table: diag-pairing',
      'devices:',
      '  shoe:',
      '    kind: shoe',
      `    transport: tcp://127.0.0.1:${port}`,
      ...shoeLines.map((line) => `    ${line}`),
      'mqtt:',
      `  url: ${broker.url}`,
      'journal:',
      `  dir: ${join(dir, `journal-${name}`)}`,
      '',
    ].join('\n'),
  );
  const { code, stdout, stderr } = await runCli(['diag', '--config', config, '--json']).done;
  const report = JSON.parse(stdout) as DiagReport;
  const row = (rowName: string) => report.checks.find((check) => check.name === rowName);
  const failing = report.checks.filter((check) => check.status === 'fail');
  return { code, report, row, failing, stderr };
}

describe('tableside diag and an unpaired shoe', () => {
  it('fails a live table whose shoe is unpaired, naming the setting, and exits 1', async () => {
    const { code, row, failing } = await diag('live', []);
    expect(code).toBe(1);
    expect(row('device shoe: pairing')).toMatchObject({ status: 'fail' });
    expect(row('device shoe: pairing')!.detail).toContain('the table refuses its cards');
    expect(row('device shoe: pairing')!.advice).toContain('devices.shoe.unpaired: allow');
    expect(row('device shoe: key')).toMatchObject({ status: 'fail' });
    expect(row('device shoe: key')!.advice).toContain('tableside device pair shoe');
    expect(failing.map((check) => check.name).sort()).toEqual([
      'device shoe: key',
      'device shoe: pairing',
    ]);
  });

  it('passes the same table with the shoe paired, and exits 0', async () => {
    const { code, row, failing } = await diag('paired', [`key: ${formatPublicKey(key.publicKey)}`]);
    expect(failing).toEqual([]);
    expect(row('device shoe: pairing')).toBeUndefined();
    expect(row('device shoe: key')).toMatchObject({ status: 'pass' });
    expect(code).toBe(0);
  });

  it('only warns on a bench that allows the unpaired shoe, and exits 0', async () => {
    const { code, row, failing } = await diag('bench', ['unpaired: allow']);
    expect(failing).toEqual([]);
    expect(row('device shoe: key')).toMatchObject({ status: 'warn' });
    expect(code).toBe(0);
  });
});
