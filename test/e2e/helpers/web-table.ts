/**
 * A table with the web console on: `tableside run` as a child process with
 * simulated devices dealt by the daemon's simulated dealer, the embedded
 * broker and the console each on a free port, users with scrypt hashes.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { readJournalRecords } from '../../../firmware-host/journal/journal.ts';
import type { JournalRecord } from '../../../firmware-host/journal/record.ts';
import { hashPassword } from '../../../firmware-host/web/passwords.ts';
import type { SimulatedDevice } from '../../../simulators/device.ts';
import { freePort } from '../../helpers/ports.ts';
import { PtyPair } from '../../integration/hardware/pty-pair.ts';
import { type CliProcess, startDaemon, tempDir, writeConfig } from './daemon.ts';
import { until } from './environment.ts';
import { type ShoeOptions, shoeSimulator } from './table.ts';

export const USERS = {
  alice: { role: 'supervisor', password: 'alice-at-the-pit' },
  bob: { role: 'viewer', password: 'bob-watches-only' },
} as const;

export interface WebTableOptions {
  ruleset?: string;
  cardIntervalMs?: number;
  roundIntervalMs?: number;
  seed?: number;
  /** More of the config's `web:` section (tls, ...). */
  web?: Record<string, unknown>;
  /**
   * The shoe's transport instead of the daemon's simulated one: a pty path
   * whose device end a test drives with a shoe simulator (faults and all).
   * A card between coups then starts the next coup (`session.autoRound`).
   */
  shoeTransport?: string;
  /** The config's `devices:` (default: one simulated shoe). */
  devices?: Record<string, unknown>;
}

export class WebTable {
  readonly dir: string;
  readonly journalDir: string;
  readonly daemon: CliProcess;
  readonly url: string;
  readonly table = 'web-e2e';

  private constructor(dir: string, daemon: CliProcess, url: string) {
    this.dir = dir;
    this.journalDir = join(dir, 'journal');
    this.daemon = daemon;
    this.url = url;
  }

  static async start(label: string, options: WebTableOptions = {}): Promise<WebTable> {
    const dir = tempDir(label);
    const [mqttPort, webPort] = [await freePort(), await freePort()];
    const users: Record<string, { role: string; password: string }> = {};
    for (const [name, user] of Object.entries(USERS)) {
      users[name] = { role: user.role, password: await hashPassword(user.password) };
    }
    const config = writeConfig(dir, {
      table: 'web-e2e',
      ruleset: options.ruleset ?? 'tdc-baccarat-no-commission',
      devices: options.devices ?? {
        shoe: options.shoeTransport
          ? // A simulator on a pty: a real line, so a bench that deals it unpaired.
            { kind: 'shoe', transport: options.shoeTransport, unpaired: 'allow' }
          : { kind: 'shoe', transport: 'simulate' },
      },
      ...(options.shoeTransport ? { session: { autoRound: true } } : {}),
      mqtt: { port: mqttPort },
      journal: { dir: join(dir, 'journal') },
      simulation: {
        cardIntervalMs: options.cardIntervalMs ?? 120,
        roundIntervalMs: options.roundIntervalMs ?? 200,
        seed: options.seed ?? 11,
      },
      web: { host: '127.0.0.1', port: webPort, users, ...options.web },
    });
    const daemon = startDaemon(config, { cwd: dir, env: { TABLESIDE_LOG_LEVEL: 'info' } });
    try {
      await until(
        () => /web console: https?:\/\/127\.0\.0\.1:\d+/.test(daemon.stderr) || !daemon.running,
        'the web console address',
        30_000,
        () => daemon.describe(),
      );
      if (!daemon.running) throw new Error(`tableside run exited\n${daemon.describe()}`);
    } catch (error) {
      await daemon.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      throw error;
    }
    const url = /web console: (https?:\/\/127\.0\.0\.1:\d+)/.exec(daemon.stderr)![1]!;
    return new WebTable(dir, daemon, url);
  }

  /**
   * Every record of the table's journal, read from its files (a record is there while its
   * write is still going to disk, before the daemon's lastSeq counts it durable).
   */
  async journal(): Promise<JournalRecord[]> {
    // The daemon is writing: a read that meets a line being appended is tried again.
    let records: JournalRecord[] = [];
    let failure: unknown;
    await until(
      async () => {
        try {
          records = [];
          for await (const record of readJournalRecords(this.journalDir)) records.push(record);
          return true;
        } catch (error) {
          failure = error;
          return false;
        }
      },
      'a whole read of the journal',
      5_000,
      () => String(failure),
    );
    return records;
  }

  /** Logs in over HTTP (no browser) and returns the cookie and CSRF token. */
  async login(user: keyof typeof USERS): Promise<{ cookie: string; csrf: string }> {
    const response = await fetch(`${this.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user, password: USERS[user].password }),
    });
    if (response.status !== 200) throw new Error(`login ${user}: HTTP ${response.status}`);
    const cookie = response.headers.get('set-cookie')!.split(';')[0]!;
    const body = (await response.json()) as { csrf: string };
    return { cookie, csrf: body.csrf };
  }

  async stop(): Promise<void> {
    await this.daemon.kill('SIGKILL');
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A web table whose shoe is a simulator on a pty cable, dealing with the faults a test asks for. */
export interface WebTableWithShoe {
  table: WebTable;
  shoe: SimulatedDevice;
  stop(): Promise<void>;
}

export async function startWebTableWithShoe(
  label: string,
  shoeOptions: ShoeOptions,
): Promise<WebTableWithShoe> {
  const ptyDir = tempDir(`${label}-pty`);
  const pty = new PtyPair(ptyDir);
  const stopPty = async () => {
    await pty.stop();
    rmSync(ptyDir, { recursive: true, force: true });
  };
  await pty.start();
  let table: WebTable;
  try {
    table = await WebTable.start(label, { shoeTransport: pty.a });
  } catch (error) {
    await stopPty();
    throw error;
  }
  const { shoe } = shoeSimulator(pty.b, shoeOptions);
  shoe.start();
  return {
    table,
    shoe,
    async stop() {
      await shoe.stop().catch(() => undefined);
      await table.stop();
      await stopPty();
    },
  };
}

/** The card events of the shoe in play (after the last shoe_start), in journal order. */
export function currentShoeCards(records: readonly JournalRecord[]): JournalRecord[] {
  let start = 0;
  for (const [index, record] of records.entries()) {
    if (record.kind === 'event' && (record.data as { type: string }).type === 'shoe_start')
      start = index;
  }
  return records
    .slice(start)
    .filter(
      (record) => record.kind === 'event' && (record.data as { type: string }).type === 'card',
    );
}
