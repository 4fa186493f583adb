/**
 * ARCHITECTURE.md's folder rules as data: which of our folders each folder
 * may import, which packages it may use, and which folders are pure. The
 * check (`check.ts`) applies them; `renderRulesTable()` renders the table
 * ARCHITECTURE.md shows, and a test fails when the two differ.
 */

export interface FolderRule {
  /** A folder (ends in `/`) or one file; the longest match wins. */
  folder: string;
  /** What it holds, for ARCHITECTURE.md. */
  holds: string;
  /** Our folders (or files) it may import; its own is always listed. */
  ours: string[];
  /** npm packages and Node built-ins it may import; `node:*` is every built-in. */
  packages: string[];
  /** Pure: no I/O, no clock, no chance, no process, no output. */
  pure?: boolean;
  /** May import a module whose name it computes (a worker's bootstrap). */
  computedImports?: boolean;
}

const PROTOCOL = 'device-protocol/';
const HARDWARE = 'hardware/';
const ENGINE = 'firmware-host/engine/';
const TABLE = 'firmware-host/table/';
const GAMES = 'firmware-host/games/';
const ANALYSIS = 'firmware-host/analysis/';
/** The host's own top-level file: the logger. */
const HOST_FILES = ['firmware-host/log.ts'];
const COMPOSITION_ROOT_OURS = ['firmware-host/', PROTOCOL, HARDWARE, 'simulators/'];
const NODE = 'node:*';
/** The web console's server: it reads and asks the table through its port, never the daemon. */
const WEB_OURS: readonly string[] = [
  'firmware-host/web/',
  'firmware-host/config/',
  'firmware-host/drivers/',
  'firmware-host/journal/',
  'firmware-host/mqtt/',
  // The roulette view's wheel watch (games/roulette/web/wheel-watch.ts) runs the pure bias tests.
  'firmware-host/analysis/',
  GAMES,
  TABLE,
  ENGINE,
  PROTOCOL,
  ...HOST_FILES,
];

/** Most specific first is not needed: `ruleFor` takes the longest match. */
export const RULES: readonly FolderRule[] = [
  {
    folder: PROTOCOL,
    holds:
      'cards, frame grammar, CRC, codecs, frame decoder, link session, link endpoint, the package version; PROTOCOL.md',
    ours: [PROTOCOL],
    packages: ['zod', 'node:crypto', 'node:buffer'],
    pure: true,
  },
  {
    folder: 'device-protocol/auth/',
    holds:
      "protocol 1.4 authentication: keys, handshake, frame MAC, replay guard, the host's and the device's state machines",
    ours: [PROTOCOL],
    packages: ['node:crypto', 'node:buffer'],
    pure: true,
  },
  {
    folder: 'device-protocol/link/',
    holds:
      "the link session: what both ends share (receive path, dedupe, ACK and NAK, the outbox), the host's role and the device's role (neither imports the other), the host's in-order delivery",
    ours: [PROTOCOL],
    packages: ['zod'],
    pure: true,
  },
  {
    folder: HARDWARE,
    holds:
      "code that runs on a device's computer: tableside's firmware (the smart shoe, the reader, colour calibration), device core, deck registry, transports, reconnecting link, Firmata board, I2C, parts, PN532, readers, keys, console board, deploy files",
    // Never the host's code (`firmware-host/`): what both sides need lives here or in device-protocol/.
    ours: [HARDWARE, PROTOCOL],
    packages: [
      NODE,
      'serialport',
      '@serialport/bindings-cpp',
      'node-hid',
      'johnny-five',
      'firmata-io',
      'yaml',
      'zod',
    ],
  },
  {
    folder: ENGINE,
    holds: 'games, rulesets (validated data citing the seeds), poker evaluator',
    ours: [ENGINE, PROTOCOL],
    packages: ['zod'],
    pure: true,
  },
  {
    folder: TABLE,
    holds:
      'the card table reducer (`card-table/`: validator, shoe life, engine plan, misdeal policy, view), roads, anomaly detector, legal deals',
    ours: [TABLE, ENGINE, PROTOCOL],
    packages: ['zod'],
    pure: true,
  },
  {
    folder: GAMES,
    holds:
      "the game plug-ins and their registry (`registry.ts`, the engines' and rulesets' registries, the contract of a game's CLI verbs (`game-cli.ts`), the table session that runs a plug-in's session); a folder per game holding all of it: rules, rulesets, engine, session, results' words, analysis, CLI verbs, views; its pure parts at the top of its folder",
    ours: [GAMES, TABLE, ENGINE, ANALYSIS, PROTOCOL],
    packages: ['zod'],
    pure: true,
  },
  {
    folder: `${GAMES}*/daemon/`,
    holds: "a game's part of the daemon: its extensions, its simulated dealer or croupier",
    ours: COMPOSITION_ROOT_OURS,
    packages: [NODE],
  },
  {
    folder: `${GAMES}*/cli/`,
    holds: "a game's CLI verbs (composition roots)",
    ours: COMPOSITION_ROOT_OURS,
    packages: [NODE, 'commander'],
  },
  {
    folder: `${GAMES}*/diag/`,
    holds: "a game's `diag` session",
    ours: COMPOSITION_ROOT_OURS,
    packages: [NODE],
  },
  {
    folder: `${GAMES}*/web/`,
    holds: "a game's part of the web console's server",
    ours: [...WEB_OURS],
    packages: [NODE, 'zod'],
  },
  {
    folder: `${GAMES}*/simulated/`,
    holds: "a game's legal deals for the simulators (seeded, never the table's own chance)",
    ours: ['simulators/', PROTOCOL, HARDWARE, GAMES, ENGINE, TABLE],
    packages: [NODE, 'zod'],
  },
  {
    folder: 'firmware-host/analysis/',
    holds: 'exact return-to-player studies, the wheel bias watch',
    ours: ['firmware-host/analysis/', ENGINE, PROTOCOL],
    packages: ['zod'],
    pure: true,
  },
  {
    folder: 'firmware-host/trust/',
    holds: 'Ed25519 keys, canonical JSON, signed requests, broker password hashes',
    ours: ['firmware-host/trust/', PROTOCOL],
    packages: [NODE],
  },
  {
    folder: 'firmware-host/journal/',
    holds: 'the hash-chained journal, its cursor, seals, bundles and verify',
    ours: [
      'firmware-host/journal/',
      'firmware-host/trust/',
      TABLE,
      ENGINE,
      PROTOCOL,
      ...HOST_FILES,
    ],
    packages: [NODE],
  },
  {
    folder: 'firmware-host/config/',
    holds: 'the config schema, loader and examples',
    // The device kinds' profiles: the kinds a config may name, and what each may be given.
    ours: [
      'firmware-host/config/',
      'firmware-host/drivers/profiles/',
      'firmware-host/drivers/profile.ts',
      GAMES,
      ENGINE,
      PROTOCOL,
      HARDWARE,
      ...HOST_FILES,
    ],
    packages: [NODE, 'yaml', 'zod'],
  },
  {
    folder: 'firmware-host/drivers/',
    holds: "device drivers: HELLO, heartbeat, allow-list, deferred ACK, the host's authentication",
    // A kind's profile says how the simulator plays it, in the simulator's steps.
    ours: [
      'firmware-host/drivers/',
      TABLE,
      ENGINE,
      PROTOCOL,
      HARDWARE,
      'simulators/step.ts',
      ...HOST_FILES,
    ],
    packages: [NODE, 'zod'],
  },
  {
    folder: 'firmware-host/mqtt/',
    holds: 'the MQTT bridge, publication guard, topics, embedded broker and its access policy',
    ours: [
      'firmware-host/mqtt/',
      'firmware-host/journal/',
      'firmware-host/trust/',
      'firmware-host/config/',
      GAMES,
      TABLE,
      ENGINE,
      PROTOCOL,
      ...HOST_FILES,
    ],
    packages: [NODE, 'mqtt', 'mqtt-packet', 'aedes', 'zod'],
  },
  {
    folder: 'firmware-host/conformance/',
    holds:
      "`conformance`: the protocol conformance suite's checks, host wire and trace judges (host-side I/O tooling)",
    ours: ['firmware-host/conformance/', PROTOCOL, HARDWARE, ...HOST_FILES],
    packages: [NODE],
  },
  {
    folder: 'firmware-host/console/',
    holds: "the dealer console's buttons and lights",
    ours: ['firmware-host/console/', TABLE, ENGINE, PROTOCOL, HARDWARE, ...HOST_FILES],
    packages: [NODE],
  },
  {
    folder: 'firmware-host/web/',
    holds:
      'the web console: HTTP API, SSE feed, logins, static pages; it reads and asks the table through its port (`web/port.ts`), never `firmware-host/daemon/`',
    // Never the daemon: the daemon implements the console's port (issue 26).
    ours: [...WEB_OURS],
    packages: [NODE, 'zod'],
  },
  {
    folder: 'firmware-host/daemon/',
    holds: 'the table daemon: the composition root of a table',
    ours: COMPOSITION_ROOT_OURS,
    packages: [NODE],
  },
  {
    folder: 'firmware-host/diag/',
    holds: '`diag`: checks of the host, devices, keys and trust (a composition root)',
    ours: COMPOSITION_ROOT_OURS,
    packages: [NODE, 'mqtt'],
  },
  {
    folder: 'firmware-host/cli/',
    holds: 'the CLI verbs (composition roots)',
    ours: COMPOSITION_ROOT_OURS,
    packages: [NODE, 'commander', 'cli-progress', 'yaml', 'mqtt', 'zod'],
    computedImports: true,
  },
  {
    folder: 'firmware-host/',
    holds: 'the entry point (`cli.ts`), the logger',
    ours: COMPOSITION_ROOT_OURS,
    packages: [NODE, 'commander', 'pino'],
  },
  {
    folder: 'simulators/',
    holds: 'shoe, shuffler, reader and wheel simulators, behaviours, faults, scenarios',
    // A simulated device plays a kind as its profile's simulation says.
    ours: [
      'simulators/',
      'firmware-host/drivers/profiles/',
      'firmware-host/drivers/profile.ts',
      PROTOCOL,
      HARDWARE,
      GAMES,
      ENGINE,
      TABLE,
    ],
    packages: [NODE, 'yaml', 'zod'],
  },
];

/** The folders the check reads. */
export const CHECKED_FOLDERS = ['device-protocol', 'firmware-host', 'hardware', 'simulators'];

/** Globals pure code may not touch: timers, the clock, the process, output, the network. */
export const PURE_BANNED_GLOBALS = new Set([
  'setTimeout',
  'setInterval',
  'setImmediate',
  'clearTimeout',
  'clearInterval',
  'clearImmediate',
  'queueMicrotask',
  'Date',
  'performance',
  'process',
  'console',
  'fetch',
  'globalThis',
  'require',
]);

/** Members pure code may not call: chance. */
export const PURE_BANNED_MEMBERS = new Set([
  'Math.random',
  'crypto.randomUUID',
  'crypto.getRandomValues',
  'crypto.randomBytes',
  'crypto.randomInt',
]);

/** Names pure code may not import from node:crypto: chance and fresh keys come from the I/O edge. */
export const PURE_BANNED_CRYPTO_IMPORTS = new Set([
  'randomUUID',
  'randomBytes',
  'randomInt',
  'randomFill',
  'randomFillSync',
  'getRandomValues',
  'generateKeyPair',
  'generateKeyPairSync',
  'webcrypto',
]);

/** A rule folder may hold `*` for one folder name: a part of any game, such as its daemon part. */
function folderPattern(folder: string): RegExp {
  const escaped = folder.replace(/[.+?^$()|[\]\\{}]/g, '\\$&').replaceAll('*', '[^/]+');
  return new RegExp(`^${escaped}`);
}

/** The rule of the longest folder (or file) that holds `file`; undefined outside the checked folders. */
export function ruleFor(file: string): FolderRule | undefined {
  let best: FolderRule | undefined;
  for (const rule of RULES) {
    const matches = rule.folder.includes('*')
      ? folderPattern(rule.folder).test(file)
      : rule.folder.endsWith('/')
        ? file.startsWith(rule.folder)
        : file === rule.folder;
    if (matches && (!best || rule.folder.length > best.folder.length)) best = rule;
  }
  return best;
}

/** The table ARCHITECTURE.md shows between its `rules` markers. */
export function renderRulesTable(): string {
  const lines = [
    '| folder | holds | may import (ours) | packages | pure |',
    '|---|---|---|---|---|',
  ];
  for (const rule of RULES) {
    const ours = rule.ours.map((folder) => `\`${folder}\``).join(', ');
    const packages = rule.packages.map((name) => `\`${name}\``).join(', ');
    lines.push(
      `| \`${rule.folder}\` | ${rule.holds} | ${ours} | ${packages} | ${rule.pure ? 'yes' : ''} |`,
    );
  }
  return lines.join('\n');
}
