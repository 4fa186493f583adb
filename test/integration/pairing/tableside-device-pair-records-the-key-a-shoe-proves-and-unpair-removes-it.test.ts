/**
 * A technician pairs a shoe: `tableside device key new` makes its key,
 * the shoe (a simulator listening on TCP, its key file loaded) proves it,
 * `tableside device pair` prints the fingerprint the shoe printed and
 * records the public key in the table's YAML config, keeping its comments.
 * A rotated key needs --replace; `device unpair` removes the key.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { keyFingerprint } from '../../../device-protocol/auth/keys.ts';
import { deviceKey, loadKeyFile } from '../../../hardware/keys/device-key.ts';
import { SimulatedDevice } from '../../../simulators/device.ts';
import { TcpServerTransport } from '../../../simulators/tcp-server.ts';
import { runCli } from '../../helpers/cli.ts';
import { freePort, waitForPort } from '../../helpers/ports.ts';

/** The CLI as a child process, without blocking this process (the shoe simulator runs in it). */
async function cli(args: string[]) {
  const result = await runCli(args).done;
  return { status: result.code, stdout: result.stdout, stderr: result.stderr };
}

let dir: string;
const running: SimulatedDevice[] = [];
let stopChild: (() => Promise<void>) | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tableside-pair-'));
});
afterEach(async () => {
  for (const sim of running.splice(0)) await sim.stop();
  await stopChild?.();
  stopChild = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function shoeWithKey(file: string): Promise<{ port: number; fingerprint: string }> {
  const key = await deviceKey(await loadKeyFile(file));
  const server = new TcpServerTransport(0, '127.0.0.1');
  await server.listen();
  const sim = new SimulatedDevice({
    kind: 'shoe',
    transport: server,
    ruleset: 'tdc-baccarat-no-commission',
    key,
    reconnect: { openTimeoutMs: 30_000, initialDelayMs: 10, maxDelayMs: 100 },
  });
  sim.start();
  running.push(sim);
  return { port: server.boundPort!, fingerprint: keyFingerprint(key.publicKey) };
}

function writeConfig(port: number): string {
  const file = join(dir, 'table.yaml');
  writeFileSync(
    file,
    `# table 7, pit 2\ntable: table-7\njournal:\n  dir: ${join(dir, 'journal')}\ndevices:\n  shoe:\n    kind: shoe # the smart shoe\n    transport: tcp://127.0.0.1:${port}\n`,
  );
  return file;
}

describe('tableside device pair', () => {
  it('records the proven key after the fingerprint check, and refuses a rotated key without --replace', async () => {
    const keyFile = join(dir, 'shoe.key');
    const made = await cli(['device', 'key', 'new', keyFile]);
    expect(made.status, made.stderr).toBe(0);
    const first = await shoeWithKey(keyFile);
    expect(made.stdout).toContain(`fingerprint ${first.fingerprint}`);
    // The private key never reaches the terminal.
    expect(made.stdout).not.toMatch(/PRIVATE KEY/);
    const config = writeConfig(first.port);

    const unconfirmed = await cli(['device', 'pair', 'shoe', '--config', config]);
    expect(unconfirmed.status).toBe(1);
    expect(unconfirmed.stderr).toContain(
      `check that the device shows ${first.fingerprint}, then run again with --yes`,
    );
    expect(readFileSync(config, 'utf8')).not.toContain('key:');

    const paired = await cli(['device', 'pair', 'shoe', '--config', config, '--yes']);
    expect(paired.status, paired.stderr).toBe(0);
    expect(paired.stdout).toContain(`proved a ed25519 key with fingerprint ${first.fingerprint}`);
    expect(paired.stdout).toContain('TS-SHOE-SIM');
    const text = readFileSync(config, 'utf8');
    expect(text).toContain('# table 7, pit 2');
    expect(text).toContain('# the smart shoe');
    expect(text).toMatch(/ {4}key: ed25519:[A-Za-z0-9_-]{43}\n/);
    const again = await cli(['device', 'pair', 'shoe', '--config', config, '--yes']);
    expect(again.stdout).toContain('already paired with this key');

    // The shoe's key is rotated: a new key file, the same shoe, now run as `tableside sim --key`.
    await running.pop()!.stop();
    const rotatedFile = join(dir, 'shoe-rotated.key');
    expect((await cli(['device', 'key', 'new', rotatedFile, '--type', 'p256'])).status).toBe(0);
    const port = await freePort();
    const sim = runCli([
      'sim',
      'shoe',
      '--listen',
      `127.0.0.1:${port}`,
      '--key',
      rotatedFile,
      '--ruleset',
      'tdc-baccarat-no-commission',
      '--keep-open',
    ]);
    const simDone = sim.done;
    stopChild = async () => {
      sim.kill();
      await simDone;
    };
    await waitForPort(port);
    const rotatedKey = await deviceKey(await loadKeyFile(rotatedFile));
    const rotated = { port, fingerprint: keyFingerprint(rotatedKey.publicKey) };
    writeFileSync(
      config,
      readFileSync(config, 'utf8').replace(`:${first.port}`, `:${rotated.port}`),
    );
    const refused = await cli(['device', 'pair', 'shoe', '--config', config, '--yes']);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(
      `holds key ${first.fingerprint} for shoe, the device proved ${rotated.fingerprint}`,
    );
    const replaced = await cli([
      'device',
      'pair',
      'shoe',
      '--config',
      config,
      '--yes',
      '--replace',
    ]);
    expect(replaced.status, replaced.stderr).toBe(0);
    expect(replaced.stdout).toContain(`replacing ${first.fingerprint}`);
    expect(readFileSync(config, 'utf8')).toMatch(/key: p256:[A-Za-z0-9_-]{44}\n/);

    await stopChild?.();
    stopChild = undefined;
    // The device's own "display": the simulator printed the fingerprint the technician compared.
    expect((await simDone).stderr).toContain(`device key fingerprint ${rotated.fingerprint}`);

    const unpaired = await cli(['device', 'unpair', 'shoe', '--config', config]);
    expect(unpaired.status).toBe(0);
    expect(readFileSync(config, 'utf8')).not.toContain('key:');
    expect(readFileSync(config, 'utf8')).toContain('# the smart shoe');
  }, 120_000);
});
