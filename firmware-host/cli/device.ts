/**
 * `tableside device`: device keys and pairing (protocol 1.4, PROTOCOL.md § 5).
 *
 *   device key new FILE [--type ed25519|p256]   a key file for a simulator or a vendor's device
 *   device key show FILE                        its fingerprint
 *   device pair NAME [--link URL] [--yes] [--replace]
 *   device unpair NAME
 *
 * `pair` connects to the device (its configured transport, or `--link`),
 * lets it prove its key, prints the key's fingerprint for the technician to
 * compare with the device's own display (trust on first use), and records
 * the public key in the table config. A different key already recorded (a
 * rotated key, a replaced device) needs `--replace`.
 */
import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { EXIT_BAD_CONFIG } from './config.ts';

interface PairOptions {
  config?: string;
  link?: string;
  yes?: boolean;
  replace?: boolean;
  timeout?: string;
}

function fail(message: string, code = 1): never {
  process.stderr.write(`tableside device: ${message}\n`);
  process.exit(code);
}

export function register(program: Command): void {
  const device = program
    .command('device')
    .description('device keys and pairing: devices that prove who they are (protocol 1.4)');

  const key = device.command('key').description("a device's own key file");
  key
    .command('new <file>')
    .description(
      'create a key file (mode 600) for a simulator or a device without a secure element',
    )
    .option('--type <type>', 'ed25519 or p256', 'ed25519')
    .action(async (file: string, options: { type: string }) => {
      const { isKeyType, keyFingerprint, formatPublicKey } = await import(
        '../../device-protocol/auth/keys.ts'
      );
      if (!isKeyType(options.type)) fail(`--type ${options.type}: expected ed25519 or p256`, 2);
      const { createKeyFile } = await import('../../hardware/keys/device-key.ts');
      const signer = await createKeyFile(file, options.type).catch((error: Error) =>
        fail(error.message),
      );
      const publicKey = await signer.publicKey();
      process.stdout.write(
        `${file}: new ${options.type} key, fingerprint ${keyFingerprint(publicKey)}\npublic key ${formatPublicKey(publicKey)}\n`,
      );
    });
  key
    .command('show <file>')
    .description("print a key file's public key and fingerprint (never the private key)")
    .action(async (file: string) => {
      const { keyFingerprint, formatPublicKey } = await import(
        '../../device-protocol/auth/keys.ts'
      );
      const { loadKeyFile } = await import('../../hardware/keys/device-key.ts');
      const signer = await loadKeyFile(file).catch((error: Error) => fail(error.message));
      const publicKey = await signer.publicKey();
      process.stdout.write(
        `fingerprint ${keyFingerprint(publicKey)}\npublic key ${formatPublicKey(publicKey)}\n`,
      );
    });

  device
    .command('pair <name>')
    .description(
      'record the key a device proves in the table config, after checking its fingerprint',
    )
    .option('--config <file>', 'the table configuration file; default $TABLESIDE_CONFIG')
    .option('--link <url>', 'where the device is (default: the transport in the config)')
    .option('--yes', 'the fingerprint was checked on the device: do not ask')
    .option(
      '--replace',
      'replace a different key already recorded (key rotation, a replaced device)',
    )
    .option('--timeout <s>', 'seconds to wait for the device to prove its key', '15')
    .action(async (name: string, options: PairOptions) => {
      await pair(name, options);
    });

  device
    .command('unpair <name>')
    .description(
      "remove a device's key from the table config (it then runs unauthenticated, with a warning)",
    )
    .option('--config <file>', 'the table configuration file; default $TABLESIDE_CONFIG')
    .action(async (name: string, options: { config?: string }) => {
      const file = await configFile(options.config);
      const { setDeviceKey } = await import('../config/device-key-edit.ts');
      const { previous } = await setDeviceKey(file, name, undefined).catch((error: Error) =>
        fail(error.message, EXIT_BAD_CONFIG),
      );
      process.stdout.write(
        previous === undefined
          ? `${name} was not paired in ${file}\n`
          : `${name} unpaired in ${file}: restart the table for it to take effect\n`,
      );
    });
}

async function configFile(flag: string | undefined): Promise<string> {
  const { configFileFrom } = await import('../config/loader.ts');
  const file = configFileFrom(flag);
  if (file === undefined) fail("pairing writes the table's config: name it with --config FILE", 2);
  return file;
}

async function pair(name: string, options: PairOptions): Promise<void> {
  const file = await configFile(options.config);
  const { loadConfig } = await import('../config/loader.ts');
  const { isConfigError } = await import('../config/errors.ts');
  const loaded = await loadConfig({ file }).catch((error: unknown) => {
    if (isConfigError(error)) fail(error.message, EXIT_BAD_CONFIG);
    throw error;
  });
  const configured = loaded.config.devices[name];
  if (configured === undefined) fail(`no device "${name}" in ${file}: add it before pairing`, 2);
  const url = options.link ?? configured.transport;
  if (url === 'simulate') {
    fail(`${name} is simulated: run its simulator with a key (keyFile) or give --link`, 2);
  }
  const seconds = Number(options.timeout ?? 15);
  if (!Number.isFinite(seconds) || seconds <= 0)
    fail(`--timeout ${options.timeout}: expected seconds`, 2);

  const { DeviceDriver } = await import('../drivers/driver.ts');
  const { openTransport } = await import('../../hardware/transports/url.ts');
  const { keyFingerprint, formatPublicKey, parsePublicKey } = await import(
    '../../device-protocol/auth/keys.ts'
  );
  // The table's own host key (made here if the table never started): the device learns it at pairing.
  const { hostKeyPath, tableHostKey } = await import('../daemon/host-key.ts');
  const hostKey = await tableHostKey(hostKeyPath(loaded.config)).catch((error: Error) =>
    fail(error.message),
  );
  const hosted =
    url === 'firmware'
      ? await hostFirmware(name, configured, loaded.config.table, hostKey.publicKey)
      : undefined;
  const driver = new DeviceDriver({
    name,
    kind: configured.kind,
    transport: hosted?.link ?? openTransport(url),
    hostSerial: loaded.config.table,
    hostKey,
  });
  // Pairing takes nothing the device sends: a notice left unACKed (a shoe's lid
  // closed on a new shoe; with no listener the driver would ACK it) is sent
  // again to the table at the device's next connection, as its cards are.
  driver.on('notice', () => undefined);
  const outcome = await new Promise<'authenticated' | 'unauthenticated' | 'failed' | 'timeout'>(
    (resolve) => {
      const timer = setTimeout(() => resolve('timeout'), seconds * 1000);
      const poll = setInterval(() => {
        const state = driver.status().auth.state;
        if (state === 'authenticated' || state === 'unauthenticated' || state === 'failed') {
          clearTimeout(timer);
          clearInterval(poll);
          resolve(state);
        }
      }, 20);
      driver.start();
    },
  );
  const status = driver.status();
  const proven = driver.provenKey;
  await driver.stop();
  await hosted?.firmware.stop();
  if (outcome === 'timeout') fail(`${name} at ${url}: no device proved a key within ${seconds} s`);
  if (outcome !== 'authenticated' || proven === undefined) {
    fail(`${name} at ${url} cannot be paired: ${status.auth.detail ?? outcome}`);
  }
  const identity = status.identity;
  const fingerprint = keyFingerprint(proven);
  // What the device records so that it takes sessions from this table only (PROTOCOL.md § 5.2).
  process.stdout.write(
    `the table's host key ${formatPublicKey(hostKey.publicKey)} (fingerprint ${keyFingerprint(hostKey.publicKey)}): ` +
      'give it to the device (`tableside sim --host-key`, `tableside firmware shoe --host-key`)\n',
  );
  process.stdout.write(
    `${name}: ${identity?.model ?? '?'} serial ${identity?.serial ?? '?'}, firmware ${identity?.firmware ?? '?'} (${identity?.firmwareSha256 ?? '?'})\n` +
      `proved a ${proven.type} key with fingerprint ${fingerprint}\n`,
  );
  const recorded = configured.key === undefined ? undefined : parsePublicKey(configured.key);
  if (recorded?.ok && keyFingerprint(recorded.key) === fingerprint) {
    process.stdout.write(`${name} is already paired with this key in ${file}\n`);
    return;
  }
  if (recorded?.ok && !options.replace) {
    fail(
      `${file} holds key ${keyFingerprint(recorded.key)} for ${name}, the device proved ${fingerprint}: ` +
        'if its key was rotated or the device replaced, check the fingerprint on the device and run again with --replace',
    );
  }
  if (!options.yes) {
    if (!process.stdin.isTTY) {
      fail(`check that the device shows ${fingerprint}, then run again with --yes`);
    }
    const prompt = createInterface({ input: process.stdin, output: process.stdout });
    const answer = await prompt.question(`Does the device show ${fingerprint}? [y/N] `);
    prompt.close();
    if (!/^y(es)?$/i.test(answer.trim())) fail('not paired: the fingerprints must match');
  }
  const { setDeviceKey } = await import('../config/device-key-edit.ts');
  await setDeviceKey(file, name, formatPublicKey(proven)).catch((error: Error) =>
    fail(error.message, EXIT_BAD_CONFIG),
  );
  process.stdout.write(
    `${name} paired (${fingerprint}) in ${file}${recorded?.ok ? `, replacing ${keyFingerprint(recorded.key)}` : ''}: restart the table for it to take effect\n`,
  );
}

/**
 * `transport: firmware`: the daemon runs tableside's own firmware with the
 * config's key (keyFile, or atecc608 on its board), so pairing runs it here
 * the same way and lets it prove that key. Without its outbox: a card it
 * still holds for the table is not handed to pairing.
 */
async function hostFirmware(
  name: string,
  configured: import('../config/schema.ts').DeviceConfig,
  table: string,
  hostKey: import('../../device-protocol/auth/keys.ts').DevicePublicKey,
): Promise<{
  link: import('../../hardware/transports/transport.ts').Transport;
  firmware: import('../daemon/hosted-firmware.ts').HostedFirmware;
}> {
  const { createMemoryPair } = await import('../../hardware/transports/memory.ts');
  const { loadDeviceKeys } = await import('../daemon/device-keys.ts');
  const { startHostedFirmware } = await import('../daemon/hosted-firmware.ts');
  const { outbox: _kept, key: _recorded, ...device } = configured;
  try {
    const keys = await loadDeviceKeys({ [name]: device });
    const wire = createMemoryPair(`pair-${name}`);
    const firmware = await startHostedFirmware(
      name,
      device,
      wire.device,
      `${table}-${name}`.slice(0, 32),
      keys.simulated.get(name),
      hostKey,
    );
    return { link: wire.host, firmware };
  } catch (error) {
    fail(
      `${name} (transport firmware): ${(error as Error).message}; stop the table first if it runs this board`,
    );
  }
}
