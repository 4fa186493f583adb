/**
 * Loads the configuration: defaults, then one file (JSON or YAML), then a
 * short explicit list of environment overrides, validated in one pass so
 * that every problem is reported at once with its path.
 *
 * Relative paths written in the file are resolved against the file's
 * folder (a systemd unit's working directory is rarely the config's);
 * relative paths from the environment or the defaults against the current
 * directory.
 */
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { dirname, extname, isAbsolute, resolve } from 'node:path';
import type { z } from 'zod';
import { allRulesetNames, findGameOf, gameOf } from '../games/registry.ts';
import { CONFIG_FILE_VARIABLE, ENV_OVERRIDES } from './env.ts';
import { ConfigError, type ConfigIssue } from './errors.ts';
import { issueMessage } from './issue-messages.ts';
import {
  configSchema,
  pairingPolicyOf,
  parseTransportUrl,
  type TablesideConfig,
  unpairedSetting,
} from './schema.ts';
import { isLoopback } from './web-schema.ts';

export { CONFIG_FILE_VARIABLE, ENV_OVERRIDES } from './env.ts';

export type Environment = Readonly<Record<string, string | undefined>>;

export interface LoadConfigOptions {
  /** The config file; absent gives the defaults (plus environment overrides). */
  file?: string | undefined;
  /** Defaults to process.env. */
  env?: Environment;
  /** Known ruleset names; defaults to the engine's registry (`tableside rulesets`). */
  rulesets?: readonly string[];
  /** Base for relative paths outside the file; defaults to process.cwd(). */
  cwd?: string;
}

export interface LoadedConfig {
  config: TablesideConfig;
  /** The file read, absolute; undefined when running on defaults. */
  file: string | undefined;
  /** The environment variables that were applied. */
  overrides: string[];
}

/** The config file to use: the command-line flag, else TABLESIDE_CONFIG, else none. */
export function configFileFrom(flag: string | undefined, env: Environment = process.env) {
  return flag ?? (env[CONFIG_FILE_VARIABLE] || undefined);
}

export async function loadConfig(options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  let raw: unknown = {};
  let file: string | undefined;
  if (options.file !== undefined) {
    file = resolve(cwd, options.file);
    let text: string;
    try {
      const { size } = await stat(file);
      // Checked before reading: a huge file would take the memory of a small board.
      if (size > MAX_CONFIG_BYTES) {
        throw new ConfigError('unreadable', [
          {
            path: '(file)',
            message: `${file} is ${size} bytes; a config file may be at most ${MAX_CONFIG_BYTES} bytes (1 MiB): is it the right file?`,
          },
        ]);
      }
      text = await readFile(file, 'utf8');
    } catch (error) {
      if (error instanceof ConfigError) throw error;
      const reason =
        (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : String(error);
      throw new ConfigError('unreadable', [
        { path: '(file)', message: `cannot read ${file}: ${reason}` },
      ]);
    }
    raw = await parseConfigText(text, file);
  }
  return { ...resolveConfig(raw, { env, rulesets: options.rulesets, cwd, file }), file };
}

/**
 * Parses the text of a config file: JSON for `.json`, YAML otherwise (YAML
 * is a superset of JSON). Every syntax error is listed with its line. The
 * YAML parser is loaded only for YAML: it would stay resident in the daemon
 * (a few MB) for a config read once.
 */
export async function parseConfigText(text: string, origin = 'config'): Promise<unknown> {
  if (extname(origin).toLowerCase() === '.json') {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new ConfigError('syntax', [
        { path: '(file)', message: `${origin}: invalid JSON: ${(error as Error).message}` },
      ]);
    }
    return shallowEnough(value, origin);
  }
  const { parseDocument } = await import('yaml');
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (document.errors.length > 0) {
    throw new ConfigError(
      'syntax',
      document.errors.map((error) => {
        const where = error.linePos?.[0];
        const at = where ? `${origin}:${where.line}:${where.col}` : origin;
        const message = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
        // The parser recurses per level and reports its own stack overflow.
        return { path: '(file)', message: `${at}: ${tooDeep(message) ? TOO_DEEP : message}` };
      }),
    );
  }
  let value: unknown;
  try {
    // The yaml library refuses an alias that expands too far (a "billion laughs" bomb).
    value = document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    const message = (error as Error).message;
    throw new ConfigError('syntax', [
      { path: '(file)', message: `${origin}: ${tooDeep(message) ? TOO_DEEP : message}` },
    ]);
  }
  if (value === null || value === undefined) {
    // An empty file must not pass as "no config" (the simulator bench) by accident.
    throw new ConfigError('invalid', [
      {
        path: '(root)',
        message: `${origin} is empty (or only null): write the settings (table, ruleset, devices, mqtt, ...), or leave out the config for the simulator bench`,
      },
    ]);
  }
  return shallowEnough(value, origin);
}

/** Aliases a YAML config may expand; a real config needs a handful. */
const MAX_ALIAS_COUNT = 100;

/** Bytes a config file may have: a real one has a few kB; a Pi has 1 GB for everything. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/** Levels a config may nest: a real one nests four or five. */
export const MAX_CONFIG_DEPTH = 32;

const TOO_DEEP = `nested more than ${MAX_CONFIG_DEPTH} levels deep; a config nests a few: is it the right file?`;

function tooDeep(message: string): boolean {
  return /maximum call stack size exceeded/i.test(message);
}

/** The value, unless it nests deeper than any config: validation would recurse as deep. */
function shallowEnough(value: unknown, origin: string): unknown {
  if (depthOf(value, MAX_CONFIG_DEPTH + 1) > MAX_CONFIG_DEPTH) {
    throw new ConfigError('syntax', [{ path: '(file)', message: `${origin}: ${TOO_DEEP}` }]);
  }
  return value;
}

/** How deep a parsed value nests, counted no further than `limit`. */
function depthOf(value: unknown, limit: number): number {
  if (value === null || typeof value !== 'object' || limit === 0) return 0;
  let deepest = 0;
  for (const child of Object.values(value)) {
    deepest = Math.max(deepest, depthOf(child, limit - 1));
    if (deepest >= limit - 1) break;
  }
  return deepest + 1;
}

export interface ResolveOptions {
  env?: Environment;
  /** Known ruleset names; defaults to the engine's registry. */
  rulesets?: readonly string[] | undefined;
  cwd?: string;
  /** The file `raw` came from, for resolving its relative paths. */
  file?: string | undefined;
}

/** Validates a parsed config object with the environment applied. Throws ConfigError listing every issue. */
export function resolveConfig(
  raw: unknown,
  options: ResolveOptions = {},
): { config: TablesideConfig; overrides: string[] } {
  const env = options.env ?? {};
  const cwd = options.cwd ?? process.cwd();
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ConfigError('invalid', [
      {
        path: '(root)',
        message: 'expected a mapping of settings (table, ruleset, devices, mqtt, ...)',
      },
    ]);
  }
  const merged = structuredClone(raw) as Record<string, unknown>;
  const overrides: string[] = [];
  const fromEnv = new Map<string, string>();
  for (const { variable, path } of ENV_OVERRIDES) {
    const value = env[variable];
    if (value === undefined || value === '') continue;
    if (setAt(merged, path, value)) {
      overrides.push(variable);
      fromEnv.set(path.join('.'), variable);
    }
  }
  // A table with no devices configured gets its game's simulated ones (a shoe, a wheel).
  const game = typeof merged.ruleset === 'string' ? findGameOf(merged.ruleset) : undefined;
  if (merged.devices === undefined && game) {
    merged.devices = structuredClone(game.defaultDevices);
  }
  const schema = configSchema({ rulesets: options.rulesets ?? allRulesetNames() });
  const result = schema.safeParse(merged, { reportInput: true });
  if (!result.success) {
    throw new ConfigError('invalid', issuesOf(result.error, fromEnv));
  }
  const config = result.data;
  const fileBase = options.file ? dirname(options.file) : cwd;
  const base = (key: string) => (fromEnv.has(key) || !options.file ? cwd : fileBase);
  // Defaults resolve against cwd: a default is nobody's relative path but the operator's.
  const journalFromFile = hasAt(raw, ['journal', 'dir']) && !fromEnv.has('journal.dir');
  config.journal.dir = resolvePath(journalFromFile ? fileBase : cwd, config.journal.dir);
  if (config.mqtt.tls) {
    const tls = config.mqtt.tls;
    if (tls.ca) tls.ca = resolvePath(base('mqtt.tls.ca'), tls.ca);
    if (tls.cert) tls.cert = resolvePath(base('mqtt.tls.cert'), tls.cert);
    if (tls.key) tls.key = resolvePath(base('mqtt.tls.key'), tls.key);
  }
  if (config.console?.pins) config.console.pins = resolvePath(fileBase, config.console.pins);
  if (config.journal.signingKey) {
    config.journal.signingKey = resolvePath(fileBase, config.journal.signingKey);
  }
  if (config.web?.tls) {
    const tls = config.web.tls;
    tls.cert = resolvePath(fileBase, tls.cert);
    tls.key = resolvePath(fileBase, tls.key);
    if (tls.ca) tls.ca = resolvePath(fileBase, tls.ca);
  }
  for (const device of Object.values(config.devices)) {
    if (device.registry) device.registry = resolvePath(fileBase, device.registry);
  }
  return { config, overrides };
}

function resolvePath(base: string, path: string): string {
  return isAbsolute(path) ? path : resolve(base, path);
}

/** Sets a nested key, creating objects on the way; false when a non-object is in the way (the schema reports it). */
function setAt(target: Record<string, unknown>, path: readonly string[], value: string): boolean {
  let node = target;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (next === undefined) node[key] = {};
    else if (next === null || typeof next !== 'object' || Array.isArray(next)) return false;
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1]!] = value;
  return true;
}

function hasAt(target: unknown, path: readonly string[]): boolean {
  let node = target;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return false;
    node = (node as Record<string, unknown>)[key];
  }
  return node !== undefined;
}

export function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else if (!/^[A-Za-z0-9_-]+$/.test(String(key))) text += `[${JSON.stringify(String(key))}]`;
    else text += text === '' ? String(key) : `.${String(key)}`;
  }
  return text;
}

function issuesOf(error: z.ZodError, fromEnv: ReadonlyMap<string, string>): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        issues.push({ path: formatPath([...issue.path, key]), message: 'unknown key (misspelt?)' });
      }
      continue;
    }
    const message = issueMessage(issue);
    const path = formatPath(issue.path);
    const variable = fromEnv.get(path);
    issues.push({ path, message: variable ? `${message} (from ${variable})` : message });
  }
  return issues;
}

/** A copy safe to print: the password replaced. */
export function redactConfig(config: TablesideConfig): TablesideConfig {
  const copy = structuredClone(config);
  if (copy.mqtt.password !== undefined) copy.mqtt.password = '********';
  for (const user of Object.values(copy.mqtt.users)) user.passwordHash = '********';
  for (const user of Object.values(copy.web?.users ?? {})) user.password = '********';
  return copy;
}

/** Things worth a word that do not stop the daemon: missing files, open allow-lists, clear-text passwords. */
export function configWarnings(config: TablesideConfig): string[] {
  const warnings: string[] = [];
  const tls = config.mqtt.tls;
  for (const [key, path] of [
    ['mqtt.tls.ca', tls?.ca],
    ['mqtt.tls.cert', tls?.cert],
    ['mqtt.tls.key', tls?.key],
    ['console.pins', config.console?.pins],
    ['web.tls.cert', config.web?.tls?.cert],
    ['web.tls.key', config.web?.tls?.key],
    ['web.tls.ca', config.web?.tls?.ca],
  ] as const) {
    if (path !== undefined && !existsSync(path)) warnings.push(`${key}: file not found: ${path}`);
  }
  if (tls && !/^(mqtts|wss):/.test(config.mqtt.url)) {
    warnings.push('mqtt.tls: set, but mqtt.url is not mqtts:// or wss://, so TLS is not used');
  }
  if (config.mqtt.password !== undefined && /^(mqtt|ws):/.test(config.mqtt.url)) {
    warnings.push(
      'mqtt.password: sent in clear text over mqtt:// (use mqtts:// on a shared network)',
    );
  }
  if (config.mqtt.url === 'embedded' && (config.mqtt.username || tls)) {
    warnings.push('mqtt: username/TLS settings are ignored by the embedded broker');
  }
  if (config.mqtt.url !== 'embedded' && Object.keys(config.mqtt.users).length > 0) {
    warnings.push('mqtt.users: accounts of the embedded broker, ignored with an external broker');
  }
  if (config.web && !config.web.tls && !isLoopback(config.web.host)) {
    warnings.push(
      `web: served on ${config.web.host} without TLS, so logins cross the network in clear text (set web.tls)`,
    );
  }
  for (const [name, device] of Object.entries(config.devices)) {
    if (device.transport !== 'simulate' && device.firmware.length === 0) {
      warnings.push(`devices.${name}.firmware: empty, so any firmware is accepted`);
    }
    const pairing = pairingWarning(name, device);
    if (pairing !== undefined) warnings.push(pairing);
  }
  return warnings;
}

/** What `config check`, the start line and `diag` say of a device that is not paired; undefined: nothing to say. */
export function pairingWarning(
  name: string,
  device: TablesideConfig['devices'][string],
): string | undefined {
  switch (pairingPolicyOf(device)) {
    case 'refused':
      return `devices.${name}.key: not paired, so the table refuses its cards (tableside device pair ${name}; on a bench only: ${unpairedSetting(name)})`;
    case 'bench':
      return `devices.${name}.unpaired: allow: its cards are dealt unauthenticated, with an alarm at each connect (a bench only; tableside device pair ${name})`;
    default:
      return undefined;
  }
}

/** A few lines describing the effective config, for `config check`. */
export function summarizeConfig(config: TablesideConfig): string[] {
  const devices = Object.entries(config.devices).map(([name, device]) => {
    const kind = parseTransportUrl(device.transport)?.kind ?? '?';
    const firmware =
      device.firmware.length > 0 ? `, ${device.firmware.length} firmware hash(es)` : '';
    return `  ${name}: ${device.kind} via ${device.transport} (${kind}${firmware})`;
  });
  const mqtt = config.mqtt;
  const broker = mqtt.url === 'embedded' ? `embedded broker on 127.0.0.1:${mqtt.port}` : mqtt.url;
  const extras = [mqtt.tls ? 'TLS' : '', mqtt.username ? `user ${mqtt.username}` : '']
    .filter(Boolean)
    .join(', ');
  return [
    `table ${config.table}, ruleset ${config.ruleset}`,
    `devices (${devices.length}):`,
    ...devices,
    `mqtt: ${broker}${extras ? ` (${extras})` : ''}, topics under ${mqtt.baseTopic}/${config.table}/`,
    `journal: ${config.journal.dir}${
      gameOf(config.ruleset).rotatesPerShoe(config.ruleset)
        ? config.journal.rotateDaily
          ? ' (new file per shoe and per day)'
          : ' (new file per shoe)'
        : config.journal.rotateDaily
          ? ' (new file per day)'
          : ' (one file)'
    }`,
    ...(config.console ? [`console: ${config.console.transport}`] : []),
    ...(config.web
      ? [
          `web console: ${config.web.tls ? 'https' : 'http'}://${config.web.host}:${config.web.port} (${Object.keys(config.web.users).length} user(s))`,
        ]
      : []),
  ];
}
