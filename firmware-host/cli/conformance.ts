/**
 * `tableside conformance --link URL`: runs the host side of the protocol
 * conformance suite (firmware-host/conformance/) against any device on any
 * transport and prints a pass/fail table, each check with its PROTOCOL.md
 * section. Exit 0 when every required check passes, 1 when one does not,
 * 2 on bad usage. See docs/firmware-author/conformance.md.
 */
import type { Command, CommanderError } from 'commander';

interface ConformanceCliOptions {
  link?: string;
  talker?: string;
  key?: string;
  hostKey?: string;
  json?: boolean;
  scripted?: boolean;
  capture?: string;
}

const DEVICE_TALKERS = ['SH', 'SF', 'RD', 'RW'] as const;

function usage(message: string): never {
  process.stderr.write(`tableside conformance: ${message}\n`);
  process.exit(2);
}

export function register(program: Command): void {
  program
    .command('conformance')
    .description(
      'check that a device speaks the device protocol: a scripted suite over its serial line, pty or TCP socket',
    )
    .option(
      '--link <url>',
      'the device: /dev/ttyUSB0, serial:PATH?baud=N, a pty path or tcp://HOST:PORT',
    )
    .option(
      '--talker <SH|SF|RD|RW>',
      'the talker the device must announce (default: its HELLO says)',
    )
    .option(
      '--key <ed25519:...|p256:...>',
      "the device's paired public key (protocol 1.4): its PROOF must match it",
    )
    .option(
      '--host-key <file>',
      "the table's host key the device was paired with (protocol 1.7): its host-key.pem, or the table's state folder holding it; runs the paired-host and hostile-host checks",
    )
    .option('--json', 'print the report as JSON instead of a table')
    .option(
      '--capture <file>',
      'write every line both ways to FILE (time in ms, `HO →` the host, `→ HO` the device)',
    )
    .option(
      '--scripted',
      'the device acts by itself (a simulator running a scenario): print no instructions, use the shorter waits',
    )
    .addHelpText(
      'after',
      `
Checks that need a person (a card dealt, a shuffle, a spin) print what to do
on stderr and wait for it. Every check states its timeout; a silent or
broken device ends the run with a verdict, never a hang.

Exit codes: 0 every required check passed, 1 a required check failed or
could not run, 2 bad usage.

Examples:
  tableside conformance --link /dev/ttyUSB0 --talker SH
  tableside conformance --link tcp://192.168.1.50:4001 --talker RW --json
  tableside conformance --link /dev/ttyUSB0 --key ed25519:... --host-key /var/lib/tableside/host-key.pem
  tableside sim shoe --ruleset baccarat-punto-banco --listen 7001 &
  tableside conformance --link tcp://127.0.0.1:7001 --scripted`,
    )
    .exitOverride((error: CommanderError) => {
      process.exit(error.exitCode === 0 ? 0 : 2);
    })
    .action(async (options: ConformanceCliOptions) => {
      process.exitCode = await runConformanceCli(options);
    });
}

async function runConformanceCli(options: ConformanceCliOptions): Promise<number> {
  if (options.link === undefined) usage('--link URL is required (a tty path or tcp://HOST:PORT)');
  const talker = options.talker?.toUpperCase();
  if (talker !== undefined && !(DEVICE_TALKERS as readonly string[]).includes(talker)) {
    usage(
      `--talker ${JSON.stringify(options.talker)}: expected one of ${DEVICE_TALKERS.join(', ')}`,
    );
  }
  const { parsePublicKey } = await import('../../device-protocol/auth/keys.ts');
  let key: import('../../device-protocol/auth/keys.ts').DevicePublicKey | undefined;
  if (options.key !== undefined) {
    const parsed = parsePublicKey(options.key);
    if (!parsed.ok) usage(`--key: ${parsed.error}`);
    key = parsed.key;
  }
  const hostKey = options.hostKey === undefined ? undefined : await loadHostKey(options.hostKey);
  const { openTransport } = await import('../../hardware/transports/url.ts');
  let transport: ReturnType<typeof openTransport>;
  try {
    transport = openTransport(options.link);
  } catch (error) {
    usage((error as Error).message);
  }
  if (transport.kind !== 'serial' && transport.kind !== 'tcp') {
    usage(`--link ${options.link}: a ${transport.kind} link carries no device protocol frames`);
  }
  const { runConformance } = await import('../conformance/suite.ts');
  const { renderJson, renderTable, exitCodeOf } = await import('../conformance/report.ts');
  const { renderTrace } = await import('../conformance/trace.ts');
  let capture: string | undefined;
  const report = await runConformance({
    link: options.link,
    transport,
    ...(talker === undefined ? {} : { talker: talker as (typeof DEVICE_TALKERS)[number] }),
    ...(key === undefined ? {} : { key }),
    ...(hostKey === undefined ? {} : { hostKey }),
    scripted: options.scripted === true,
    instruct: (text) => process.stderr.write(`>> ${text}\n`),
    onResult: options.json
      ? undefined
      : (result) => process.stderr.write(`   ${result.status} ${result.id}\n`),
    ...(options.capture === undefined
      ? {}
      : { onTrace: (trace) => (capture = renderTrace(trace)) }),
  });
  if (options.capture !== undefined && capture !== undefined) {
    const { writeFile } = await import('node:fs/promises');
    await writeFile(options.capture, capture).catch((error: Error) =>
      process.stderr.write(`tableside conformance: --capture: ${error.message}\n`),
    );
  }
  process.stdout.write(options.json ? renderJson(report) : renderTable(report));
  return exitCodeOf(report);
}

/**
 * The table's host key from `--host-key`: its PEM file, or the state folder that holds
 * host-key.pem. Never made here: a new key is not the one the device was paired with.
 */
async function loadHostKey(
  path: string,
): Promise<import('../../device-protocol/auth/host-auth.ts').HostSigner> {
  const { stat } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const { HOST_KEY_FILE } = await import('../daemon/host-key.ts');
  const { hostSignerOf, loadKeyFile } = await import('../../hardware/keys/device-key.ts');
  const folder = await stat(path).then(
    (info) => info.isDirectory(),
    () => false,
  );
  const file = folder ? join(path, HOST_KEY_FILE) : path;
  try {
    return hostSignerOf(await loadKeyFile(file));
  } catch (error) {
    usage(`--host-key: ${(error as Error).message.replace(/^device key file/, 'host key file')}`);
  }
}
