/**
 * The checks of `tableside diag` without `--simulate`: the config, each
 * configured device, the broker, the journal and the clock. `hostChecks`
 * lists them for the runner (report.ts); each is usable on its own.
 */

import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdtemp, open, readFile, rm, stat, statfs } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { LoadedConfig } from '../config/loader.ts';
import type { TablesideConfig } from '../config/schema.ts';
import { checkDevice, type DeviceCheckOptions } from './device-check.ts';
import type { Check, CheckOutcome } from './report.ts';

export interface HostCheckOptions {
  device?: DeviceCheckOptions;
  /** Broker round trip and retained-topic waits. Default 5000 ms. */
  brokerTimeoutMs?: number;
  /** Free space below this fails the journal check. Default 100 MiB. */
  minFreeBytes?: number;
  /** Free space below this warns. Default 1 GiB. */
  lowFreeBytes?: number;
  /** The earliest sane wall-clock time (ms); default: when this program was built. */
  buildTime?: number;
  /** `timedatectl show` output; absent runs it (tests inject it). */
  timedatectl?: () => Promise<string | undefined>;
}

/** The config check: the result of loading it, and its warnings. */
export async function checkConfig(
  file: string | undefined,
): Promise<{ outcome: CheckOutcome[]; loaded: LoadedConfig | undefined }> {
  const { loadConfig, configWarnings, configFileFrom, pairingWarning } = await import(
    '../config/loader.ts'
  );
  const { pairingPolicyOf, unpairedSetting } = await import('../config/schema.ts');
  const { isConfigError } = await import('../config/errors.ts');
  const chosen = configFileFrom(file);
  let loaded: LoadedConfig;
  try {
    loaded = await loadConfig({ file: chosen });
  } catch (error) {
    const detail = isConfigError(error)
      ? error.issues.map((issue) => `${issue.path}: ${issue.message}`).join('\n')
      : String(error);
    return {
      outcome: [
        {
          name: 'config',
          status: 'fail',
          detail: `${chosen ?? '(defaults)'}: ${detail}`,
          advice: `fix the config (\`tableside config check ${chosen ?? 'FILE'}\` lists every problem); the other checks need it`,
        },
      ],
      loaded: undefined,
    };
  }
  const where = loaded.file ?? 'no file: the defaults (a simulator bench)';
  const overrides = loaded.overrides.length ? `, overridden by ${loaded.overrides.join(', ')}` : '';
  const outcome: CheckOutcome[] = [
    {
      name: 'config',
      status: 'pass',
      detail: `${where}${overrides}: table ${loaded.config.table}, ruleset ${loaded.config.ruleset}, ${Object.keys(loaded.config.devices).length} device(s)`,
      data: { file: loaded.file ?? null, overrides: loaded.overrides },
    },
  ];
  // An unpaired device on a real line is refused by the table: a failure here, not a warning.
  const refusals = new Set<string>();
  for (const [name, device] of Object.entries(loaded.config.devices)) {
    if (pairingPolicyOf(device) !== 'refused') continue;
    const warning = pairingWarning(name, device)!;
    refusals.add(warning);
    outcome.push({
      name: `device ${name}: pairing`,
      status: 'fail',
      detail: warning,
      advice: `pair it (tableside device pair ${name}) so that the table deals its cards; only on a bench, set ${unpairedSetting(name)}`,
    });
  }
  for (const warning of configWarnings(loaded.config)) {
    if (refusals.has(warning)) continue;
    outcome.push({
      name: 'config: warning',
      status: 'warn',
      detail: warning,
      advice: 'not an error: the daemon runs, but read the warning',
    });
  }
  return { outcome, loaded };
}

export function hostChecks(config: TablesideConfig, options: HostCheckOptions = {}): Check[] {
  const checks: Check[] = [];
  for (const [name, device] of Object.entries(config.devices)) {
    checks.push({
      name: `device ${name}`,
      run: () => checkDevice(name, device, { table: config.table, ...options.device }),
    });
  }
  checks.push({ name: 'broker', run: () => checkBroker(config, options) });
  checks.push({ name: 'journal', run: () => checkJournal(config.journal.dir, options) });
  checks.push({ name: 'clock', run: () => checkClock(options) });
  checks.push({
    name: 'trust',
    run: async () => (await import('./trust-checks.ts')).checkTrust(config),
  });
  return checks;
}

// ------------------------------------------------------------------ broker

export async function checkBroker(
  config: TablesideConfig,
  options: HostCheckOptions = {},
): Promise<CheckOutcome[]> {
  const timeoutMs = options.brokerTimeoutMs ?? 5000;
  const { mqtt } = config;
  const embedded = mqtt.url === 'embedded';
  const url = embedded ? `mqtt://127.0.0.1:${mqtt.port}` : mqtt.url;
  const { tableTopics } = await import('../mqtt/topics.ts');
  const topics = tableTopics(mqtt.baseTopic, config.table);
  const mqttModule = await import('mqtt');
  const tls: Record<string, Buffer | boolean> = {};
  if (!embedded && mqtt.tls) {
    for (const key of ['ca', 'cert', 'key'] as const) {
      const path = mqtt.tls[key];
      if (path === undefined) continue;
      try {
        tls[key] = await readFile(path);
      } catch (error) {
        return [
          {
            name: 'broker: connect',
            status: 'fail',
            detail: `cannot read mqtt.tls.${key} ${path}: ${(error as Error).message}`,
            advice: 'check the path and that this user may read it',
          },
        ];
      }
    }
    if (mqtt.tls.rejectUnauthorized === false) tls.rejectUnauthorized = false;
  }
  const started = performance.now();
  let client: import('mqtt').MqttClient;
  try {
    client = await mqttModule.connectAsync(url, {
      clientId: `tableside-diag-${config.table}-${randomBytes(3).toString('hex')}`,
      protocolVersion: 4,
      clean: true,
      reconnectPeriod: 0,
      connectTimeout: timeoutMs,
      ...(!embedded && mqtt.username !== undefined ? { username: mqtt.username } : {}),
      ...(!embedded && mqtt.password !== undefined ? { password: mqtt.password } : {}),
      ...tls,
    });
  } catch (error) {
    const reason = (error as Error).message;
    if (embedded && /ECONNREFUSED/.test(reason)) {
      return [
        {
          name: 'broker: connect',
          status: 'skip',
          detail: `mqtt.url is "embedded": the broker runs inside the daemon, and nothing listens on 127.0.0.1:${mqtt.port} (the daemon is not running)`,
          advice:
            'start the daemon to check its embedded broker; `tableside diag --simulate` checks a whole session',
        },
      ];
    }
    return [
      {
        name: 'broker: connect',
        status: 'fail',
        detail: `cannot connect to ${url}: ${reason}`,
        advice: brokerAdvice(reason),
      },
    ];
  }
  const connectMs = performance.now() - started;
  const results: CheckOutcome[] = [
    {
      name: 'broker: connect',
      status: 'pass',
      detail: `connected to ${url} in ${connectMs.toFixed(0)} ms`,
      data: { url, connectMs: Math.round(connectMs) },
    },
  ];
  try {
    const diagTopic = `${topics.root}/diag/${randomBytes(4).toString('hex')}`;
    const payload = `diag ${Date.now()}`;
    const received = new Promise<number>((resolve) => {
      client.on('message', (topic, message) => {
        if (topic === diagTopic && message.toString() === payload) resolve(performance.now());
      });
    });
    await client.subscribeAsync(diagTopic, { qos: 1 });
    const sent = performance.now();
    await client.publishAsync(diagTopic, payload, { qos: 1 });
    const arrived = await Promise.race([received, sleep(timeoutMs).then(() => undefined)]);
    if (arrived === undefined) {
      results.push({
        name: 'broker: round trip',
        status: 'fail',
        detail: `a message published on ${diagTopic} did not come back within ${timeoutMs} ms`,
        advice: `the broker's ACL may refuse this client on ${topics.root}/diag/#: allow it to publish and subscribe there`,
      });
    } else {
      const rtt = arrived - sent;
      results.push({
        name: 'broker: round trip',
        status: 'pass',
        detail: `publish and receive on ${topics.root}/diag/… in ${rtt.toFixed(1)} ms`,
        data: { roundTripMs: Math.round(rtt * 100) / 100 },
      });
    }
    const state = await retainedValue(client, topics.bridgeState, Math.min(timeoutMs, 1500));
    if (state === 'online') {
      results.push({
        name: 'broker: bridge/state',
        status: 'pass',
        detail: `${topics.bridgeState} is online: a daemon is publishing for table ${config.table}`,
      });
    } else {
      results.push({
        name: 'broker: bridge/state',
        status: 'warn',
        detail:
          state === undefined
            ? `no retained ${topics.bridgeState}: no daemon has published for table ${config.table} on this broker`
            : `${topics.bridgeState} is ${state}: the daemon is not running (or lost its connection)`,
        advice:
          'expected while the daemon is stopped; otherwise check `systemctl status tableside` and its log',
      });
    }
  } finally {
    // The checks are done and reported: a client that will not close cleanly changes no result.
    await client.endAsync().catch(() => undefined);
  }
  return results;
}

function retainedValue(
  client: import('mqtt').MqttClient,
  topic: string,
  timeoutMs: number,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(undefined), timeoutMs);
    const listener = (arrived: string, payload: Buffer) => {
      if (arrived === topic) done(payload.toString());
    };
    function done(value: string | undefined) {
      clearTimeout(timer);
      client.off('message', listener);
      resolve(value);
    }
    client.on('message', listener);
    client.subscribe(topic, { qos: 1 }, (error) => {
      if (error) done(undefined);
    });
  });
}

function brokerAdvice(reason: string): string {
  if (/ECONNREFUSED/.test(reason)) {
    return 'nothing listens there: check mqtt.url (host and port) and that the broker runs';
  }
  if (/ENOTFOUND|EAI_AGAIN/.test(reason))
    return 'the host name does not resolve: check mqtt.url and DNS';
  if (/Not authorized|Bad username|bad user name|password/i.test(reason)) {
    return 'the broker refused the credentials: check mqtt.username and TABLESIDE_MQTT_PASSWORD';
  }
  if (/certificate|self.signed|SSL|TLS/i.test(reason)) {
    return 'TLS failed: check mqtt.tls.ca (the CA that signed the broker certificate) and the host name in mqtt.url';
  }
  if (/timeout|timed out/i.test(reason)) {
    return 'no answer: a firewall may drop the traffic, or the port is not an MQTT listener';
  }
  return 'check mqtt.url, the network and the broker log';
}

// ------------------------------------------------------------------ journal

const MiB = 1024 * 1024;

export async function checkJournal(
  dir: string,
  options: HostCheckOptions = {},
): Promise<CheckOutcome[]> {
  const minFree = options.minFreeBytes ?? 100 * MiB;
  const lowFree = options.lowFreeBytes ?? 1024 * MiB;
  const results: CheckOutcome[] = [];
  const exists = await stat(dir).then(
    (info) => info.isDirectory(),
    () => false,
  );
  // Space and writability are checked where the journal is, or will be.
  let where = dir;
  while (
    !(await stat(where).then(
      () => true,
      () => false,
    )) &&
    dirname(where) !== where
  ) {
    where = dirname(where);
  }

  if (!exists) {
    results.push({
      name: 'journal: chain',
      status: 'skip',
      detail: `${dir} does not exist yet: the daemon creates it on first start`,
    });
  } else {
    const { verifyJournalDir } = await import('../journal/verify.ts');
    const report = await verifyJournalDir(dir);
    if (report.ok) {
      results.push({
        name: 'journal: chain',
        status: 'pass',
        detail:
          report.records === 0
            ? `${dir}: empty`
            : `${report.records} records in ${report.files} file(s), seq ${report.firstSeq}..${report.lastSeq}, hash chain intact`,
        data: { files: report.files, records: report.records, lastSeq: report.lastSeq ?? null },
      });
    } else {
      const first = report.findings[0]!;
      const onlyTornTail = report.findings.every((finding) => finding.problem === 'truncated');
      results.push({
        name: 'journal: chain',
        status: onlyTornTail ? 'warn' : 'fail',
        detail: `${report.findings.length} finding(s); first: ${first.file}:${first.line} ${first.problem}: ${first.message}`,
        advice: onlyTornTail
          ? 'a torn last line from a power cut: the daemon cuts it off on start'
          : `the journal was altered or damaged: keep a copy for the investigation and run \`tableside journal verify ${dir}\` for every finding`,
        data: { findings: report.findings.slice(0, 20) },
      });
    }
  }

  try {
    const info = await statfs(where);
    const free = Number(info.bavail) * Number(info.bsize);
    const total = Number(info.blocks) * Number(info.bsize);
    const status = free < minFree ? 'fail' : free < lowFree ? 'warn' : 'pass';
    results.push({
      name: 'journal: disk space',
      status,
      detail: `${formatBytes(free)} free of ${formatBytes(total)} on the filesystem of ${where}`,
      ...(status !== 'pass'
        ? {
            advice: `below ${formatBytes(status === 'fail' ? minFree : lowFree)}: archive old journal files (they are per shoe and per day) to other storage, or use a larger card`,
          }
        : {}),
      data: { freeBytes: free, totalBytes: total },
    });
  } catch (error) {
    results.push({
      name: 'journal: disk space',
      status: 'skip',
      detail: `cannot read the free space of ${where}: ${(error as Error).message}`,
    });
  }

  try {
    await access(where, constants.W_OK);
    // A real write and fsync, as the journal does: a read-only remount passes access() on some systems.
    const probeDir = await mkdtemp(join(where, '.tableside-diag-'));
    try {
      const handle = await open(join(probeDir, 'probe'), 'w');
      await handle.writeFile('diag\n');
      await handle.datasync();
      await handle.close();
    } finally {
      await rm(probeDir, { recursive: true, force: true });
    }
    results.push({
      name: 'journal: writable',
      status: 'pass',
      detail: `${where} takes a write and an fsync`,
    });
  } catch (error) {
    const reason = (error as Error).message;
    results.push({
      name: 'journal: writable',
      status: 'fail',
      detail: `cannot write in ${where}: ${reason}`,
      advice: /EROFS/.test(reason)
        ? 'the filesystem is read-only (often a failing SD card remounted read-only): replace the card'
        : `give the daemon user write access to ${where} (journal.dir in the config)`,
    });
  }
  return results;
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * MiB) return `${(bytes / (1024 * MiB)).toFixed(1)} GiB`;
  return `${(bytes / MiB).toFixed(0)} MiB`;
}

// ------------------------------------------------------------------ clock

/** The earliest sane time: when this module was built (its file's modification time), at the least 2025-01-01. */
export async function buildTime(): Promise<number> {
  const floor = Date.UTC(2025, 0, 1);
  try {
    const info = await stat(fileURLToPath(import.meta.url));
    return Math.max(floor, info.mtimeMs);
  } catch {
    return floor;
  }
}

export async function checkClock(options: HostCheckOptions = {}): Promise<CheckOutcome[]> {
  const now = Date.now();
  const built = options.buildTime ?? (await buildTime());
  const results: CheckOutcome[] = [];
  if (now < built) {
    results.push({
      name: 'clock: time',
      status: 'fail',
      detail: `system time ${new Date(now).toISOString()} is before this program was built (${new Date(built).toISOString()})`,
      advice:
        'the clock is wrong (a Pi has no battery clock): enable NTP (timedatectl set-ntp true) or fit an RTC; every event carries this time',
    });
  } else {
    results.push({
      name: 'clock: time',
      status: 'pass',
      detail: `system time ${new Date(now).toISOString()}`,
    });
  }
  const show = await (options.timedatectl ?? runTimedatectl)();
  if (show === undefined) {
    results.push({
      name: 'clock: NTP',
      status: 'skip',
      detail: 'timedatectl is not available here (no systemd): NTP status unknown',
      advice: 'check the time synchronisation of this system by its own means',
    });
    return results;
  }
  const values = new Map(
    show
      .split('\n')
      .map((line) => line.split('='))
      .filter((pair) => pair.length >= 2)
      .map(([key, ...rest]) => [key!.trim(), rest.join('=').trim()]),
  );
  const synced = values.get('NTPSynchronized');
  if (synced === 'yes') {
    results.push({ name: 'clock: NTP', status: 'pass', detail: 'NTP synchronised' });
  } else {
    results.push({
      name: 'clock: NTP',
      status: 'warn',
      detail: `not NTP synchronised (NTP ${values.get('NTP') ?? 'unknown'}, NTPSynchronized ${synced ?? 'unknown'})`,
      advice:
        'enable it (timedatectl set-ntp true) and let the Pi reach an NTP server: event times come from this clock',
    });
  }
  return results;
}

async function runTimedatectl(): Promise<string | undefined> {
  try {
    const { stdout } = await promisify(execFile)('timedatectl', ['show'], { timeout: 3000 });
    return stdout;
  } catch {
    return undefined;
  }
}

/** Unref'd: a timeout raced against an answer must not keep the process alive after it. */
function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => {
    setTimeout(resolve, ms).unref();
  });
}
