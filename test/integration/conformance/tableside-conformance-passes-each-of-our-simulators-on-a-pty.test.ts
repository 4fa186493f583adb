/**
 * `tableside conformance` against our own devices, as CI runs it: each
 * simulator (shoe, shuffler, reader, wheel) on the device end of a real pty
 * pair (socat), the suite on the other end, scripted (the simulators act by
 * themselves). Every required check must pass. The shoe runs through the CLI
 * (its table, its JSON and its exit code); the others in process.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../../../firmware-host/conformance/report.ts';
import { runConformance } from '../../../firmware-host/conformance/suite.ts';
import { SerialTransport } from '../../../hardware/transports/serial.ts';
import { SimulatedDevice } from '../../../simulators/device.ts';
import type { DeviceKind } from '../../../simulators/steps.ts';
import { SimulatedWheel } from '../../../simulators/wheel.ts';
import { runCli } from '../../helpers/cli.ts';
import { startSocatPair, stopSocat } from '../../helpers/socat.ts';
import { tempDir } from '../../helpers/temp.ts';
import { socatMissing } from '../../helpers/tools.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function ptyPair(): Promise<{ host: string; device: string }> {
  const directory = tempDir('tableside-conformance-');
  const pair = { host: join(directory, 'host'), device: join(directory, 'device') };
  const socat: ChildProcess = await startSocatPair(pair.host, pair.device);
  cleanups.push(() => stopSocat(socat));
  return pair;
}

const deviceEnd = (path: string) => new SerialTransport({ path, baudRate: 115_200 });

async function simulatorOnPty(kind: DeviceKind | 'wheel'): Promise<string> {
  const pair = await ptyPair();
  const sim =
    kind === 'wheel'
      ? new SimulatedWheel({
          transport: deviceEnd(pair.device),
          paceMs: 100,
          bettingMs: 200,
          games: 20,
        })
      : new SimulatedDevice({
          kind,
          transport: deviceEnd(pair.device),
          ruleset: 'tdc-baccarat-no-commission',
          seed: 7,
          rate: 4,
        });
  sim.start();
  cleanups.push(() => sim.stop());
  return pair.host;
}

function notPassed(report: ConformanceReport): string[] {
  return report.results
    .filter((result) => result.required && result.status !== 'pass')
    .map((result) => `${result.id}: ${result.detail}`);
}

describe.skipIf(socatMissing() !== undefined)('tableside conformance on a pty', () => {
  it('passes the shoe simulator: a table of passes, JSON that says so, exit 0', async () => {
    const host = await simulatorOnPty('shoe');
    const capture = join(tempDir('tableside-conformance-capture-'), 'run.txt');
    const run = runCli([
      'conformance',
      '--link',
      host,
      '--talker',
      'SH',
      '--scripted',
      '--json',
      '--capture',
      capture,
    ]);
    cleanups.push(async () => run.kill());
    const { code, stdout, stderr } = await run.done;
    const report = JSON.parse(stdout) as ConformanceReport;
    expect(notPassed(report), stderr).toEqual([]);
    expect(code).toBe(0);
    expect(report.device).toMatchObject({ talker: 'SH', model: 'TS-SHOE-SIM' });
    expect(report.results.find((result) => result.id === 'reconnect')?.status).toBe('pass');
    expect(report.verdict).toMatch(/^CONFORMS/);
    // The capture holds both directions: the device's HELLO and the host's deliberate bad CRC.
    const lines = readFileSync(capture, 'utf8');
    expect(lines).toMatch(/^\s*\d+ → HO \$SH,\d+,HELLO,TS-SHOE-SIM,/m);
    expect(lines).toMatch(/^\s*\d+ HO → \$HO,\d+,PING,crc1\*[0-9A-F]{4}$/m);
  }, 90_000);

  it.each([
    ['shuffler', 'SF'],
    ['reader', 'RD'],
    ['wheel', 'RW'],
  ] as const)(
    'passes the %s simulator (%s)',
    async (kind, talker) => {
      const host = await simulatorOnPty(kind);
      const report = await runConformance({
        link: host,
        transport: deviceEnd(host),
        talker,
        scripted: true,
      });
      expect(notPassed(report)).toEqual([]);
      expect(report.conforms).toBe(true);
      expect(report.device.talker).toBe(talker);
      const messages = report.results.find((result) => result.id === 'messages');
      expect(messages?.status).toBe('pass');
      if (talker === 'SF') expect(messages?.detail).toMatch(/SHUFFLED2? of \d+ cards/);
      if (talker === 'RW') expect(messages?.detail).toMatch(/RESULT|NOSPIN/);
    },
    90_000,
  );
});
