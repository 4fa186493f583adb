/**
 * The daemon's configuration: one validated object, built from defaults, one
 * file (JSON or YAML) and a short list of environment overrides (see
 * loader.ts). Every field has a default so that no file at all gives a
 * working simulator bench.
 *
 * Objects are strict: an unknown key is an error, because a misspelt key
 * silently falling back to its default is the worst kind of config bug.
 */
import { z } from 'zod';
import { parsePublicKey } from '../../device-protocol/auth/keys.ts';
import { isHardwareError } from '../../hardware/errors.ts';
import {
  type TransportSpec as HardwareTransportSpec,
  parseTransportUrl as parseHardwareTransportUrl,
} from '../../hardware/transports/url.ts';
import type { DriverProfile } from '../drivers/profile.ts';
import {
  DEVICE_PROFILES,
  type DeviceKind,
  kindsWhere,
  profileFor,
} from '../drivers/profiles/registry.ts';
import { webSchema } from './web-schema.ts';

export const DEFAULT_TABLE_ID = 'table-1';
export const DEFAULT_RULESET = 'tdc-baccarat-no-commission';
export const DEFAULT_JOURNAL_DIR = './.tableside/journal';
export const DEFAULT_EMBEDDED_PORT = 1883;
export const DEFAULT_BASE_TOPIC = 'tableside';

/** One MQTT topic level we build topics from: no `/`, `+`, `#`, spaces or `$` first. */
const topicLevel = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/,
    'expected 1-64 letters, digits, "_", "." or "-", starting with a letter or digit (it becomes an MQTT topic level)',
  );

const baseTopic = z
  .string()
  .regex(
    /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*$/,
    'expected topic levels of letters, digits, "_", "." or "-" separated by "/" (no wildcards, no leading or trailing "/")',
  );

const sha256 = z
  .string()
  .regex(/^[0-9a-fA-F]{64}$/, 'expected a SHA-256 as 64 hex digits')
  .transform((hex) => hex.toLowerCase());

export type TransportSpec = HardwareTransportSpec | { kind: 'simulate' } | { kind: 'firmware' };

export const TRANSPORT_FORMS =
  '"/dev/ttyUSB0", "serial:/dev/ttyUSB0?baud=115200", "tcp://host:port", "hid://vid:pid[/serial]" (hex), "memory://name", "pn532:/dev/ttyUSB0[?baud=N]", "wedge://vid:pid[?format=hex|dec&order=msb|reversed]", "simulate" or "firmware"';

/**
 * Parses a device transport URL with the transports' own parser (so the
 * config accepts exactly what can be opened), plus `simulate` for a built-in
 * simulator. Syntax only: whether the path exists is checked at open time.
 */
export function parseTransportUrl(url: string): TransportSpec | undefined {
  return transportUrlProblem(url) === undefined
    ? url === 'simulate'
      ? { kind: 'simulate' }
      : url === 'firmware'
        ? { kind: 'firmware' }
        : parseHardwareTransportUrl(url)
    : undefined;
}

function transportUrlProblem(url: string): string | undefined {
  if (url === 'simulate' || url === 'firmware') return undefined;
  try {
    parseHardwareTransportUrl(url);
    return undefined;
  } catch (error) {
    return isHardwareError(error) ? error.message : String(error);
  }
}

const transportUrl = z.string().superRefine((url, ctx) => {
  const problem = transportUrlProblem(url);
  if (problem !== undefined) {
    ctx.addIssue({
      code: 'custom',
      message: `expected a transport (${problem.replace(/; expected .*$/, '')}): ${TRANSPORT_FORMS}`,
    });
  }
});

/**
 * A device's entry for the kinds of `profiles` (the registry's, and a
 * vendor's beside them): a kind the registry lacks is refused naming the
 * kinds it knows, and what a kind may be given (a deck registry, tableside's
 * firmware run by the daemon) is asked of its profile.
 */
export function deviceSchemaFor<Kind extends string>(
  profiles: Readonly<Record<Kind, DriverProfile>>,
) {
  const kinds = Object.keys(profiles) as [Kind, ...Kind[]];
  const profile = (kind: string) => profileFor(kind, profiles);
  const hostedKinds = kindsWhere((each) => each.hostedFirmware !== undefined, profiles);
  const registryKinds = kindsWhere((each) => each.deckRegistry, profiles);
  return z
    .strictObject({
      kind: z.enum(kinds),
      transport: transportUrl,
      /** Expected model string from the device's HELLO; absent accepts any model. */
      model: z.string().min(1).max(64).optional(),
      /**
       * SHA-256 hashes of the firmware images this device may run (from HELLO).
       * Empty accepts any firmware: fine on a bench, not on a live table.
       */
      firmware: z.array(sha256).default([]),
      /** Readers: the deck registry file mapping RFID tags to cards (`tableside deck enroll`). */
      registry: z.string().min(1, 'expected a file path').optional(),
      /**
       * `transport: firmware`: the daemon runs tableside's device firmware for
       * this shoe or reader in its own process (over memory://), on the
       * StandardFirmata board at this transport URL.
       */
      board: z.string().min(1, "expected the board's transport URL").optional(),
      /** `transport: firmware` shoes: the colour calibration (`tableside firmware calibrate`). */
      calibration: z.string().min(1, 'expected a file path').optional(),
      /** `transport: firmware`: the firmware's outbox file (cards kept until ACKed, across restarts). */
      outbox: z.string().min(1, 'expected a file path').optional(),
      /**
       * `transport: firmware` shoes: the beam receiver's level while a card
       * breaks the beam: `low` (default) for the wiring page's open-collector
       * receiver, `high` for a module that drives HIGH when blocked (LM393).
       */
      beamBroken: z.enum(['low', 'high']).optional(),
      /**
       * The device's paired public key (`tableside device pair`), `ed25519:…`
       * or `p256:…`: it must prove it on every connection (protocol 1.4).
       */
      key: z
        .string()
        .superRefine((text, ctx) => {
          const parsed = parsePublicKey(text);
          if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.error });
        })
        .optional(),
      /**
       * The device's own private key file (`tableside device key new`), for a
       * device the daemon runs itself: a `simulate` device (a bench that runs
       * paired) or tableside's shoe firmware (`transport: firmware`).
       */
      keyFile: z.string().min(1, 'expected a file path').optional(),
      /**
       * `transport: firmware`: the firmware's key is the P-256 key of an
       * ATECC608 on the board's I2C bus (0x60, slot 0), read at start.
       */
      atecc608: z.boolean().optional(),
      /**
       * A device that keeps sending this long with nothing new taken raises
       * `link_stalled` (default 10 s, the driver's `LINK_STALLED_AFTER_MS`).
       */
      stalledAfterMs: z.number().int().min(1_000).max(3_600_000).optional(),
      /**
       * The device's line not open this long (absent, unplugged, refused)
       * raises `device_unreachable`, once per outage, and `device_reachable`
       * when it opens again (default 30 s, the driver's `DEVICE_UNREACHABLE_AFTER_MS`).
       */
      unreachableAfterMs: z.number().int().min(1_000).max(86_400_000).optional(),
      /**
       * A device without `key` on a real line (serial, HID, TCP, a reader,
       * `firmware`): `refuse` (the default there) deals none of its cards;
       * `allow` deals them unauthenticated, with a `device_unpaired` alarm at
       * each connect: a bench only. Simulated and `memory://` devices are
       * dealt as they are unless this says `refuse`.
       */
      unpaired: z.enum(['allow', 'refuse']).optional(),
    })
    .refine((device) => device.unpaired === undefined || device.key === undefined, {
      message: 'a paired device (key) is never unpaired: remove unpaired or key',
      path: ['unpaired'],
    })
    .refine(
      (device) =>
        device.keyFile === undefined ||
        device.transport === 'simulate' ||
        device.transport === 'firmware',
      {
        message:
          'only a simulated device or transport firmware has a key file here (any other device keeps its own key)',
        path: ['keyFile'],
      },
    )
    .refine((device) => !device.atecc608 || device.transport === 'firmware', {
      message: 'atecc608 is the key of transport firmware (the chip on its board)',
      path: ['atecc608'],
    })
    .refine((device) => !device.atecc608 || device.keyFile === undefined, {
      message: 'one key: keyFile or atecc608, not both',
      path: ['atecc608'],
    })
    .refine(
      (device) =>
        device.transport !== 'firmware' || profile(device.kind).hostedFirmware !== undefined,
      {
        message: `the daemon runs the ${hostedKinds} firmware only; run a reader with tableside firmware reader --link`,
        path: ['transport'],
      },
    )
    .refine((device) => device.transport !== 'firmware' || device.board !== undefined, {
      message: 'transport firmware needs the board it runs on (board: /dev/ttyUSB0)',
      path: ['board'],
    })
    .refine((device) => device.transport !== 'firmware' || device.registry !== undefined, {
      message: 'transport firmware needs the deck registry (registry: decks.json)',
      path: ['registry'],
    })
    .refine(
      (device) =>
        device.transport === 'firmware' ||
        (device.board === undefined &&
          device.calibration === undefined &&
          device.outbox === undefined &&
          device.beamBroken === undefined),
      {
        message: 'board, calibration, outbox and beamBroken are for transport firmware',
        path: ['board'],
      },
    )
    .refine((device) => device.firmware.length === 0 || device.model !== undefined, {
      message: 'a firmware allow-list needs the model it applies to (set model)',
      path: ['model'],
    })
    .refine(
      (device) =>
        device.registry === undefined ||
        profile(device.kind).deckRegistry ||
        device.transport === 'firmware',
      {
        message: `only a ${registryKinds}, or a ${hostedKinds} running tableside firmware, has a deck registry`,
        path: ['registry'],
      },
    );
}

/** A device's entry for the kinds tableside ships. */
export const deviceSchema = deviceSchemaFor(DEVICE_PROFILES);

const filePath = z.string().min(1, 'expected a file path');

const mqttFields = z.strictObject({
  /** `embedded` starts aedes in-process; otherwise mqtt://, mqtts://, ws:// or wss://. */
  url: z
    .string()
    .refine((url) => url === 'embedded' || /^(mqtts?|wss?):\/\/[^\s/]+(\/\S*)?$/.test(url), {
      message: 'expected "embedded" or a broker URL such as mqtt://host:1883 or mqtts://host:8883',
    })
    .default('embedded'),
  /** Port of the embedded broker (127.0.0.1 only). */
  port: z.number().int().min(1).max(65535).default(DEFAULT_EMBEDDED_PORT),
  tls: z
    .strictObject({
      ca: filePath.optional(),
      cert: filePath.optional(),
      key: filePath.optional(),
      /** Off only for a test broker with a self-signed certificate you cannot pin. */
      rejectUnauthorized: z.boolean().default(true),
    })
    .refine((tls) => (tls.cert === undefined) === (tls.key === undefined), {
      message: 'expected cert and key together (a client certificate needs its key)',
    })
    .optional(),
  username: z.string().min(1).optional(),
  password: z.string().optional(),
  baseTopic: baseTopic.default(DEFAULT_BASE_TOPIC),
  /** Defaults to `tableside-<table id>`. */
  clientId: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'expected 1-64 letters, digits, "_", "." or "-"')
    .optional(),
  keepalive: z.number().int().min(5).max(3600).default(30),
  /** Published events awaiting PUBACK at once. */
  inflight: z.number().int().min(1).max(1000).default(32),
  /**
   * Accounts of the embedded broker: with any, it refuses anonymous clients.
   * Consumers read; supervisors read and publish requests; only the daemon
   * (its own credentials, made at start) publishes the table's topics.
   */
  users: z.record(topicLevel, brokerUserSchema()).default({}),
  /**
   * 4 is MQTT 3.1.1 (the default); 5 adds response topics, message
   * properties, session expiry and a will delay. The embedded broker (aedes)
   * speaks 3.1.1 only.
   */
  protocolVersion: z.union([z.literal(4), z.literal(5)]).default(4),
  /** MQTT 5: how long the broker keeps the daemon's session (its subscription, queued requests) after a disconnect. */
  sessionExpirySeconds: z.number().int().min(0).max(4_294_967_295).default(300),
  /** MQTT 5: how long the broker waits before publishing `bridge/state offline` for a lost connection. */
  willDelaySeconds: z.number().int().min(0).max(4_294_967_295).default(10),
});

export const mqttSchema = mqttFields.superRefine((mqtt, context) => {
  if (mqtt.protocolVersion === 5 && mqtt.url === 'embedded') {
    context.addIssue({
      code: 'custom',
      path: ['protocolVersion'],
      message:
        'the embedded broker (aedes) speaks MQTT 3.1.1 only: set protocolVersion to 4, or set url to an MQTT 5 broker such as mosquitto 2',
    });
  }
  if (mqtt.protocolVersion === 5 && mqtt.willDelaySeconds > mqtt.sessionExpirySeconds) {
    context.addIssue({
      code: 'custom',
      path: ['willDelaySeconds'],
      message: `expected at most sessionExpirySeconds (${mqtt.sessionExpirySeconds}): the broker publishes the will when the session ends, whichever comes first`,
    });
  }
});

function brokerUserSchema() {
  return z.strictObject({
    role: z.enum(['consumer', 'supervisor']),
    /** `scrypt:<salt base64>:<hash base64>`, from `tableside key password`. */
    passwordHash: z
      .string()
      .regex(
        /^scrypt:[A-Za-z0-9+/]+=*:[A-Za-z0-9+/]+=*$/,
        'expected "scrypt:<salt>:<hash>" as `tableside key password` prints it (never the password itself)',
      ),
  });
}

/** Short enough that `mqtt:<name>` fits a table-log record's `src`. */
const supervisorName = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$/,
    'expected 1-32 letters, digits, "_", "." or "-", starting with a letter or digit',
  );

/** A supervisor's public key: `ed25519:<base64 of 32 bytes>`. */
const publicKey = z
  .string()
  .regex(
    /^ed25519:[A-Za-z0-9+/]{43}=$/,
    'expected an Ed25519 public key written "ed25519:<base64>" (`tableside key generate` prints it)',
  );

export const requestsSchema = z.strictObject({
  /**
   * Supervisor name → public key. With any, every MQTT request must be
   * signed by one of them; with none (a bench) requests need no signature.
   */
  supervisors: z.record(supervisorName, publicKey).default({}),
  /** How far a signed request's timestamp may be from the table's clock. */
  maxSkewSeconds: z.number().int().min(1).max(600).default(30),
});

export const journalSchema = z.strictObject({
  dir: filePath.default(DEFAULT_JOURNAL_DIR),
  /** Start a new journal file when the UTC date changes (the daemon also rotates per shoe). */
  rotateDaily: z.boolean().default(true),
  /**
   * The table's Ed25519 private key (PEM, mode 600, outside the journal
   * folder): with it the daemon signs the chain head at every checkpoint,
   * every `sealIntervalSeconds` and at stop, and will not start if the file
   * is missing, unreadable or open to other users.
   */
  signingKey: filePath.optional(),
  /**
   * Seconds from a record to the signed head that covers it (a timer armed
   * while records come in, off the card's path): what a power cut can leave
   * unsealed. Default 5: at a dealer's pace a head per few cards, each one
   * signature and one write (test/bench/signing.ts).
   */
  sealIntervalSeconds: z.number().int().min(1).max(600).default(5),
});

export const consoleSchema = z.strictObject({
  /** The dealer-console board (johnny-five / Firmata), e.g. serial:/dev/ttyACM0. */
  transport: transportUrl,
  /** A pin map file (JSON or YAML); absent uses the built-in default map. */
  pins: filePath.optional(),
});

export const sessionSchema = z.strictObject({
  /**
   * Punto Banco tables with no "new coup" button: a card arriving between
   * coups starts the next coup. Off by default: with it, a card dealt against
   * the tableau after a coup is complete cannot be told from the next coup's
   * first card. The simulated dealer starts its rounds explicitly.
   */
  autoRound: z.boolean().default(false),
});

export const simulationSchema = z.strictObject({
  /** Milliseconds between two cards dealt by a simulated shoe (a simulated wheel: between a spin's events). */
  cardIntervalMs: z.number().int().min(0).max(60_000).default(1500),
  /** Milliseconds between the result of a round and the next round (a wheel: the betting time). */
  roundIntervalMs: z.number().int().min(0).max(600_000).default(5000),
  /** Seed of the simulators' shuffles; absent picks one at start (and logs it). */
  seed: z.number().int().nonnegative().optional(),
});

function deviceMapFor<Kind extends string>(profiles: Readonly<Record<Kind, DriverProfile>>) {
  return z
    .record(topicLevel, deviceSchemaFor(profiles))
    .refine((devices) => Object.keys(devices).length > 0, {
      message: 'expected at least one device',
    });
}

const defaultDevices: Record<string, z.input<typeof deviceSchema>> = {
  shoe: { kind: 'shoe', transport: 'simulate' },
};

export interface ConfigSchemaOptions<Kind extends string = DeviceKind> {
  /** Known ruleset names; absent accepts any well-formed name (the loader passes the engine's registry). */
  rulesets?: readonly string[];
  /** The device kinds' profiles; absent: the kinds tableside ships (a vendor's kind is one more profile). */
  profiles?: Readonly<Record<Kind, DriverProfile>>;
}

export function configSchema<Kind extends string = DeviceKind>(
  options: ConfigSchemaOptions<Kind> = {},
) {
  // Without profiles the kind is the shipped registry's (the default of `Kind`).
  const profiles = (options.profiles ?? DEVICE_PROFILES) as Readonly<Record<Kind, DriverProfile>>;
  const known = options.rulesets;
  const ruleset = known
    ? z.string().refine((name) => known.includes(name), {
        // Names what was given too: a typo is easier to see beside the list.
        error: (issue) =>
          `expected one of the known rulesets: ${known.join(', ')} (got ${JSON.stringify(issue.input)})`,
      })
    : z
        .string()
        .regex(
          /^[a-z0-9][a-z0-9-]{0,63}$/,
          'expected a ruleset name such as tdc-baccarat-no-commission',
        );
  return z.strictObject({
    table: topicLevel.default(DEFAULT_TABLE_ID),
    ruleset: ruleset.default(DEFAULT_RULESET),
    // The default bench's shoe is a shipped kind, whatever profiles stand beside it.
    devices: deviceMapFor(profiles).prefault(
      defaultDevices as Record<string, z.input<ReturnType<typeof deviceSchemaFor<Kind>>>>,
    ),
    mqtt: mqttSchema.prefault({}),
    journal: journalSchema.prefault({}),
    console: consoleSchema.optional(),
    session: sessionSchema.prefault({}),
    simulation: simulationSchema.prefault({}),
    requests: requestsSchema.prefault({}),
    /** The web console (firmware-host/web/); absent: off. */
    web: webSchema.optional(),
  });
}

export type TablesideConfig = z.output<ReturnType<typeof configSchema<DeviceKind>>>;
export type DeviceConfig = z.output<typeof deviceSchema>;

/**
 * What the table does with a device's cards as far as pairing goes:
 * `paired` (its key must be proved), `simulated` (a simulator or an
 * in-memory line: dealt, no alarm), `bench` (`unpaired: allow`: dealt, with
 * an alarm at each connect) or `refused` (unpaired on a real line).
 */
export type PairingPolicy = 'paired' | 'simulated' | 'bench' | 'refused';

export function pairingPolicyOf(
  device: Pick<DeviceConfig, 'transport' | 'key' | 'unpaired'>,
): PairingPolicy {
  if (device.key !== undefined) return 'paired';
  if (device.unpaired === 'allow') return 'bench';
  if (device.unpaired === 'refuse') return 'refused';
  const inMemory = device.transport === 'simulate' || device.transport.startsWith('memory://');
  return inMemory ? 'simulated' : 'refused';
}

/** The setting that lets an unpaired device deal on a bench, as the alarms and checks name it. */
export function unpairedSetting(name: string): string {
  return `devices.${name}.unpaired: allow`;
}
export type MqttConfig = z.output<typeof mqttSchema>;
export type JournalConfig = z.output<typeof journalSchema>;
export type RequestsConfig = z.output<typeof requestsSchema>;
