/**
 * `tableside firmware`: tableside's own device firmware, on an Arduino-class
 * board running StandardFirmata (wiring: docs/technician/wiring.md).
 *
 *   tableside firmware shoe --board PORT --link URL --registry FILE [--calibration FILE] [--outbox FILE]
 *                           [--key-file FILE | --atecc608] [--host-key KEY]
 *   tableside firmware reader --board PORT --link URL [--key-file FILE | --atecc608] [--host-key KEY]
 *   tableside firmware calibrate --board PORT [--out FILE]
 *
 * The link is any transport URL: the USB gadget serial line to the table's
 * Pi when this runs on a Pi Zero inside the shoe, tcp:// on a bench.
 */
import type { Command } from 'commander';

export const DEFAULT_CALIBRATION_FILE = 'shoe-calibration.json';

function fail(message: string, code = 1): never {
  process.stderr.write(`tableside firmware: ${message}\n`);
  process.exit(code);
}

function say(message: string): void {
  process.stderr.write(`${message}\n`);
}

interface KeyOptions {
  keyFile?: string;
  atecc608?: boolean;
}

const KEY_FILE_HELP =
  'the device key file (tableside device key new FILE), so the table can pair it';
const ATECC608_HELP =
  "the device key is the ATECC608's on the board's I2C bus (0x60, slot 0): it never leaves the chip";

/**
 * The firmware's key, or none; prints its fingerprint for the technician
 * to compare when the table pairs it (`tableside device pair NAME`).
 */
async function firmwareKey(
  options: KeyOptions,
  boardUrl: string,
): Promise<import('../../hardware/firmware/firmware-key.ts').FirmwareKey | undefined> {
  if (options.keyFile !== undefined && options.atecc608) {
    fail('one key: --key-file or --atecc608, not both', 2);
  }
  if (options.keyFile === undefined && !options.atecc608) {
    say(
      'no device key (--key-file or --atecc608): a table deals this device only with unpaired: allow',
    );
    return undefined;
  }
  const [{ firmwareKeyFromAtecc608, firmwareKeyFromFile }, { keyFingerprint, formatPublicKey }] =
    await Promise.all([
      import('../../hardware/firmware/firmware-key.ts'),
      import('../../device-protocol/auth/keys.ts'),
    ]);
  const loaded = await (options.keyFile !== undefined
    ? firmwareKeyFromFile(options.keyFile)
    : firmwareKeyFromAtecc608(boardUrl)
  ).catch((error: Error) => fail(error.message, 2));
  say(
    `device key ${loaded.key.publicKey.type} fingerprint ${keyFingerprint(loaded.key.publicKey)}` +
      ` (public key ${formatPublicKey(loaded.key.publicKey)}): pair it on the table with tableside device pair NAME`,
  );
  return loaded;
}

/** Runs until SIGINT/SIGTERM, then stops `stop` and exits 0. */
function untilSignal(stop: () => Promise<void>): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      void stop().finally(resolve);
    };
    process.on('SIGINT', done);
    process.on('SIGTERM', done);
  });
}

type Transport = import('../../hardware/transports/transport.ts').Transport;
type Calibration = import('../../hardware/firmware/colour.ts').Calibration;

interface ShoeOptions extends KeyOptions {
  board: string;
  link: string;
  registry: string;
  calibration?: string;
  outbox?: string;
  serial: string;
  beamBroken: string;
  hostKey?: string;
}

export function register(program: Command): void {
  const firmware = program
    .command('firmware')
    .description("tableside's device firmware on a StandardFirmata board: smart shoe, card reader");
  registerShoe(firmware);
  registerReader(firmware);
  registerCalibrate(firmware);
}

/** The beam's level while a card breaks it, as `--beam-broken` says; exits 2 on anything else. */
function beamBrokenOf(level: string): 'low' | 'high' {
  if (level !== 'low' && level !== 'high') fail(`--beam-broken ${level}: expected low or high`, 2);
  return level;
}

/** The link to the table from `--link`; exits 2 on a bad URL. */
async function openLink(url: string): Promise<Transport> {
  const { openTransport } = await import('../../hardware/transports/url.ts');
  try {
    return openTransport(url);
  } catch (error) {
    fail(`--link: ${(error as Error).message}`, 2);
  }
}

/** The colour calibration from `--calibration`, or the built-in one; exits 2 on a bad file. */
async function loadCalibration(file: string | undefined): Promise<Calibration | undefined> {
  if (!file) return undefined;
  const [{ parseCalibration }, fs] = await Promise.all([
    import('../../hardware/firmware/colour.ts'),
    import('node:fs/promises'),
  ]);
  const text = await fs
    .readFile(file, 'utf8')
    .catch((error: Error) => fail(`${file}: ${error.message}`, 2));
  try {
    return parseCalibration(text, file);
  } catch (error) {
    fail((error as Error).message, 2);
  }
}

function registerShoe(firmware: Command): void {
  firmware
    .command('shoe')
    .description(
      'run the smart shoe (PN532 + TCS34725 + IR beam + lid switch) and speak to the table',
    )
    .requiredOption(
      '--board <port>',
      'the Firmata board: /dev/ttyUSB0, serial:PATH?baud=57600, tcp://HOST:PORT',
    )
    .requiredOption(
      '--link <url>',
      'the table: a tty (USB gadget serial), serial:PATH?baud=N, tcp://HOST:PORT',
    )
    .requiredOption('--registry <file>', 'the deck registry (tableside deck enroll)')
    .option(
      '--calibration <file>',
      'colour calibration (tableside firmware calibrate); default: built-in',
    )
    .option(
      '--outbox <file>',
      "cards kept until the table ACKs them, across restarts; default: the service's state folder ($STATE_DIRECTORY), else .tableside/shoe-outbox.jsonl",
    )
    .option('--serial <id>', 'serial number in HELLO', 'SHOE-0001')
    .option('--key-file <file>', KEY_FILE_HELP)
    .option('--atecc608', ATECC608_HELP)
    .option('--host-key <ed25519:...>', hostKeyHelp('the shoe'))
    .option(
      '--beam-broken <level>',
      "the beam receiver's level while a card breaks it: low (open-collector receiver, the wiring page's part) or high (LM393 slot module)",
      'low',
    )
    .action(runShoe);
}

async function runShoe(options: ShoeOptions): Promise<void> {
  const beamBroken = beamBrokenOf(options.beamBroken);
  const [{ DeckRegistry }, { ShoeFirmware }, { defaultOutboxPath }] = await Promise.all([
    import('../../hardware/readers/deck-registry.ts'),
    import('../../hardware/firmware/shoe.ts'),
    import('../../hardware/firmware/outbox.ts'),
  ]);
  const registry = await DeckRegistry.load(options.registry).catch((error: Error) =>
    fail(error.message, 2),
  );
  const calibration = await loadCalibration(options.calibration);
  const keyed = await firmwareKey(options, options.board);
  const hostKey = await pairedHostKey(options.hostKey);
  const link = await openLink(options.link);
  const shoe = new ShoeFirmware({
    ...(hostKey ? { hostKey } : {}),
    ...(keyed ? { key: keyed.key } : {}),
    ...(keyed?.boardI2c ? { boardI2c: keyed.boardI2c } : {}),
    boardUrl: options.board,
    link,
    registry,
    serial: options.serial,
    outboxPath: options.outbox ?? defaultOutboxPath(process.env),
    beamBroken,
    ...(calibration ? { calibration } : {}),
  });
  shoe.on('parts', (info) =>
    say(
      `shoe ready: board ${info.board}, ${info.pn532}, TCS3472x id 0x${info.tcs34725.toString(16)}`,
    ),
  );
  shoe.on('fault', (fault) => say(`shoe FAULT (${fault.part}): ${fault.message}`));
  shoe.on('recovered', () => say('shoe recovered: dealing'));
  shoe.on('event', (message) => say(`${message.type} ${JSON.stringify(message)}`));
  shoe.on('refused', () => say('a card left the shoe while it is in fault: not identified'));
  shoe.on('hostLost', (detail) => say(`shoe: no host proved the pairing (${detail}): cards kept`));
  shoe.on('hostFound', () => say('shoe: the table proved the pairing: dealing'));
  shoe.core.on('link', (change) => say(`link ${change.state}`));
  await shoe.start();
  say(`shoe running: board ${options.board}, link ${options.link} (Ctrl-C to stop)`);
  await untilSignal(() => shoe.stop());
}

/** What `--host-key` is, for `device` (the shoe, the reader). */
function hostKeyHelp(device: string): string {
  return `the table's host key that \`tableside device pair\` printed (protocol 1.7: ${device} takes sessions from that table only; without it, from any host)`;
}

/** `--host-key ed25519:…`: the table's host key, its fingerprint said; undefined without one. */
async function pairedHostKey(text: string | undefined) {
  if (text === undefined) return undefined;
  const { keyFingerprint, parsePublicKey } = await import('../../device-protocol/auth/keys.ts');
  const parsed = parsePublicKey(text);
  if (!parsed.ok) fail(`--host-key: ${parsed.error}`, 2);
  say(`paired with the host key ${keyFingerprint(parsed.key)}`);
  return parsed.key;
}

function registerReader(firmware: Command): void {
  firmware
    .command('reader')
    .description('run the card reader (PN532 on the board): tags as the protocol reader messages')
    .requiredOption(
      '--board <port>',
      'the Firmata board: /dev/ttyUSB0, serial:PATH?baud=57600, tcp://HOST:PORT',
    )
    .requiredOption('--link <url>', 'the table: a tty, serial:PATH?baud=N, tcp://HOST:PORT')
    .option('--serial <id>', 'serial number in HELLO', 'READER-0001')
    .option('--key-file <file>', KEY_FILE_HELP)
    .option('--atecc608', ATECC608_HELP)
    .option('--host-key <ed25519:...>', hostKeyHelp('the reader'))
    .action(
      async (
        options: { board: string; link: string; serial: string; hostKey?: string } & KeyOptions,
      ) => {
        const { startReaderFirmware } = await import('../../hardware/firmware/reader.ts');
        const keyed = await firmwareKey(options, options.board);
        const hostKey = await pairedHostKey(options.hostKey);
        const link = await openLink(options.link);
        const reader = await startReaderFirmware({
          ...(hostKey ? { hostKey } : {}),
          ...(keyed ? { key: keyed.key } : {}),
          ...(keyed?.boardI2c ? { boardI2c: keyed.boardI2c } : {}),
          boardUrl: options.board,
          link,
          serial: options.serial,
          log: say,
        }).catch((error: Error) => fail(error.message, 1));
        say(`reader running: board ${options.board}, link ${options.link} (Ctrl-C to stop)`);
        await untilSignal(() => reader.stop());
      },
    );
}

function registerCalibrate(firmware: Command): void {
  firmware
    .command('calibrate')
    .description('measure a red back, a blue back, a face and the cut card; save the thresholds')
    .requiredOption('--board <port>', 'the Firmata board of the shoe')
    .option('--out <file>', 'where to save the calibration', DEFAULT_CALIBRATION_FILE)
    .option('--backs <colours>', 'back colours to measure, comma-separated', 'red,blue')
    .option(
      '--beam-broken <level>',
      "the beam receiver's level while a card breaks it, as the shoe will run: low or high",
      'low',
    )
    .action(async (options: { board: string; out: string; backs: string; beamBroken: string }) => {
      const beamBroken = beamBrokenOf(options.beamBroken);
      const { calibrate } = await import('../../hardware/firmware/calibrate.ts');
      const readline = await import('node:readline/promises');
      const prompt = readline.createInterface({ input: process.stdin, output: process.stderr });
      try {
        const saved = await calibrate({
          boardUrl: options.board,
          out: options.out,
          backs: options.backs.split(',').map((colour) => colour.trim()),
          beamBroken,
          ask: async (question) => {
            await prompt.question(`${question} then press Enter `);
          },
          log: say,
        });
        say(`saved ${options.out}: ${Object.keys(saved.references).join(', ')}`);
      } catch (error) {
        fail((error as Error).message, 1);
      } finally {
        prompt.close();
      }
    });
}
