/**
 * Issue 33 N3, end to end: `tableside device pair` makes the table's host
 * key in its state folder (once) and prints it; the shoe (a simulator on
 * TCP, as `tableside sim --host-key` runs it) records it. A second host
 * that holds the shoe's paired key but not the table's host key (a man in
 * the middle running its own handshake) gets no card: the shoe keeps them
 * and reports its host lost. The table itself, started, stopped and started
 * again, loads the same host key each time and the shoe deals to it on.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { keyFingerprint, parsePublicKey } from '../../../device-protocol/auth/keys.ts';
import { loadConfig } from '../../../firmware-host/config/loader.ts';
import { TableDaemon } from '../../../firmware-host/daemon/table-daemon.ts';
import { DeviceDriver } from '../../../firmware-host/drivers/driver.ts';
import type { JournalRecord } from '../../../firmware-host/journal/record.ts';
import {
  createKeyFile,
  deviceKey,
  generatedSigner,
  hostSignerOf,
  loadKeyFile,
} from '../../../hardware/keys/device-key.ts';
import { openTransport } from '../../../hardware/transports/url.ts';
import { SimulatedDevice } from '../../../simulators/device.ts';
import { TcpServerTransport } from '../../../simulators/tcp-server.ts';
import { runCli } from '../../helpers/cli.ts';
import { freePort } from '../../helpers/ports.ts';
import { until } from '../../helpers/until.ts';

let dir: string;
const cleanup: Array<() => Promise<void>> = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tableside-host-key-'));
});
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function shoeOnTcp(
  keyFile: string,
  hostKey: ReturnType<typeof parsePublicKey> | undefined,
): Promise<{ sim: SimulatedDevice; port: number; hostLost: string[]; refused: string[] }> {
  const server = new TcpServerTransport(0, '127.0.0.1');
  await server.listen();
  const sim = new SimulatedDevice({
    kind: 'shoe',
    transport: server,
    ruleset: 'tdc-baccarat-no-commission',
    seed: 7,
    rate: 20,
    key: await deviceKey(await loadKeyFile(keyFile)),
    ...(hostKey?.ok ? { hostKey: hostKey.key } : {}),
    reconnect: { openTimeoutMs: 30_000, initialDelayMs: 10, maxDelayMs: 100 },
  });
  const hostLost: string[] = [];
  sim.on('hostLost', (detail) => hostLost.push(detail));
  const refused: string[] = [];
  sim.on('refused', (detail) => refused.push(detail));
  sim.start();
  cleanup.push(() => sim.stop());
  return { sim, port: server.boundPort!, hostLost, refused };
}

function cards(records: readonly JournalRecord[]): number {
  return records.filter(
    (record) => record.kind === 'event' && (record.data as { type: string }).type === 'card',
  ).length;
}

describe("a shoe given the table's host key at pairing", () => {
  it('refuses a host without that key, and deals on to the table across its restart', async () => {
    const shoeKeyFile = join(dir, 'shoe.key');
    const shoePublic = (await createKeyFile(shoeKeyFile, 'ed25519')).publicKeyNow;
    const config = join(dir, 'table.yaml');
    const writeConfig = (port: number) =>
      writeFileSync(
        config,
        [
          'table: table-7',
          'ruleset: tdc-baccarat-no-commission',
          'journal:',
          `  dir: ${join(dir, 'state', 'journal')}`,
          '  rotateDaily: false',
          'mqtt:',
          '  url: embedded',
          `  port: ${mqttPort}`,
          'devices:',
          '  shoe:',
          '    kind: shoe',
          `    transport: tcp://127.0.0.1:${port}`,
          '',
        ].join('\n'),
      );
    const mqttPort = await freePort();

    // Pairing: the shoe knows no host yet (a bench); the table's host key is made and printed.
    const bench = await shoeOnTcp(shoeKeyFile, undefined);
    writeConfig(bench.port);
    const paired = await runCli(['device', 'pair', 'shoe', '--config', config, '--yes']).done;
    expect(paired.code, paired.stderr).toBe(0);
    await cleanup.pop()!();
    const printed =
      /the table's host key (ed25519:[A-Za-z0-9_-]{43}) \(fingerprint ([0-9A-F-]{19})\)/.exec(
        paired.stdout,
      );
    expect(printed, paired.stdout).not.toBeNull();
    const hostKeyFile = join(dir, 'state', 'host-key.pem');
    expect(statSync(hostKeyFile).mode & 0o777).toBe(0o600);
    const hostKeyPem = readFileSync(hostKeyFile, 'utf8');
    const tableHostKey = parsePublicKey(printed![1]!);
    expect(tableHostKey.ok && keyFingerprint(tableHostKey.key)).toBe(printed![2]);

    // The shoe, given the host key, meets a host that holds its paired key but not the table's host key.
    const shoe = await shoeOnTcp(shoeKeyFile, tableHostKey);
    const rogueHostKey = hostSignerOf(generatedSigner('ed25519'));
    const rogueFingerprint = keyFingerprint(rogueHostKey.publicKey);
    const rogue = new DeviceDriver({
      name: 'shoe',
      kind: 'shoe',
      transport: openTransport(`tcp://127.0.0.1:${shoe.port}`),
      hostSerial: 'table-7',
      pairedKey: shoePublic,
      hostKey: rogueHostKey,
    });
    const takenByRogue: string[] = [];
    rogue.on('record', (observation) => {
      takenByRogue.push(JSON.stringify(observation.record));
      observation.ack();
    });
    // Its notices (the lid) are held too: with a listener the driver leaves them unACKed.
    rogue.on('notice', () => undefined);
    rogue.start();
    const rogueConfirms = () =>
      shoe.refused.filter((detail) =>
        detail.startsWith(
          `CONFIRM by host key ${rogueFingerprint}, not the paired host ${printed![2]}`,
        ),
      ).length;
    await until(() => rogueConfirms() >= 3, "the shoe refuses three of the other host's CONFIRMs");
    await rogue.stop();
    // Not one card reached the other host: the shoe kept them all for its table.
    expect(takenByRogue).toEqual([]);
    expect(shoe.sim.authenticated).toBe(false);

    // The table, started twice on the same state folder, proves itself with the same key each time.
    // The config as pairing left it (the shoe's key recorded), pointed at the shoe's new port.
    writeFileSync(config, readFileSync(config, 'utf8').replace(`:${bench.port}`, `:${shoe.port}`));
    expect(readFileSync(config, 'utf8')).toMatch(/ {4}key: ed25519:/);
    const journaled: JournalRecord[] = [];
    for (const start of [1, 2]) {
      const daemon = new TableDaemon({ config: (await loadConfig({ file: config })).config });
      daemon.on('journaled', (records) => journaled.push(...records));
      await daemon.start();
      const before = cards(journaled);
      await until(
        () => cards(journaled) >= before + 3,
        `three cards journaled after start ${start}`,
        20_000,
        () => journaled.map((r) => (r.data as { type?: string }).type).join(' '),
      );
      await daemon.stop();
      expect(readFileSync(hostKeyFile, 'utf8')).toBe(hostKeyPem);
    }
  }, 90_000);
});
