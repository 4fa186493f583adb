/**
 * A table for the MQTT request scenarios: `tableside run` as a child process
 * on mosquitto (started on a free port) or on its own embedded aedes broker,
 * a card table (Punto Banco, its shoe on a socat pty) or a roulette table
 * (its wheel on a pty), signed (a supervisor key in `requests.supervisors`)
 * or a bench, and a consumer that sends requests raw or signed.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { connectAsync } from 'mqtt';
import { readJournalRecords } from '../../../firmware-host/journal/journal.ts';
import type { JournalRecord } from '../../../firmware-host/journal/record.ts';
import {
  formatPublicKey,
  generateKeyPair,
  type KeyPair,
} from '../../../firmware-host/trust/keys.ts';
import { signRequest } from '../../../firmware-host/trust/signed-request.ts';
import { startTestBroker, type TestBroker } from '../../helpers/broker.ts';
import { freePort, waitForPort } from '../../helpers/ports.ts';
import { PtyPair } from '../../integration/hardware/pty-pair.ts';
import { Consumer } from './consumer.ts';
import { type CliProcess, startDaemon, tempDir, writeConfig } from './daemon.ts';
import { until } from './environment.ts';

export type BrokerKind = 'mosquitto' | 'embedded';
export type Game = 'cards' | 'roulette';

export const REQUEST_TABLE = 'e2e-req';
const BASE = 'tableside';
const RULESETS: Record<Game, string> = {
  cards: 'bulgaria-punto-banco',
  roulette: 'tdc-roulette',
};

export interface RequestTableOptions {
  broker: BrokerKind;
  game: Game;
  /** A supervisor's key in `requests.supervisors`: requests must be signed. */
  signed: boolean;
  /** The daemon's MQTT version (mosquitto only): 4 (3.1.1, the default) or 5. */
  protocolVersion?: 4 | 5;
}

export class RequestTable {
  readonly root = `${BASE}/${REQUEST_TABLE}`;
  daemon: CliProcess | undefined;
  consumer: Consumer | undefined;
  private readonly runs: CliProcess[] = [];

  private constructor(
    readonly dir: string,
    readonly journalDir: string,
    /** The supervisor whose public key the table holds (signed tables). */
    readonly supervisor: KeyPair,
    readonly pty: PtyPair,
    readonly broker: TestBroker | undefined,
    readonly url: string,
    readonly configFile: string,
  ) {}

  static async create(label: string, options: RequestTableOptions): Promise<RequestTable> {
    const dir = tempDir(label);
    const pty = new PtyPair(dir);
    await pty.start();
    const broker = options.broker === 'mosquitto' ? await startTestBroker() : undefined;
    const port = broker ? undefined : await freePort();
    const url = broker?.url ?? `mqtt://127.0.0.1:${port}`;
    const journalDir = join(dir, 'journal');
    const supervisor = generateKeyPair();
    const device =
      options.game === 'cards'
        ? { shoe: { kind: 'shoe', transport: pty.a } }
        : { wheel: { kind: 'wheel', transport: pty.a } };
    const configFile = writeConfig(dir, {
      table: REQUEST_TABLE,
      ruleset: RULESETS[options.game],
      devices: device,
      mqtt: broker
        ? {
            url: broker.url,
            baseTopic: BASE,
            keepalive: 5,
            protocolVersion: options.protocolVersion ?? 4,
          }
        : { url: 'embedded', port, baseTopic: BASE, keepalive: 5 },
      journal: { dir: journalDir },
      ...(options.signed
        ? { requests: { supervisors: { alice: formatPublicKey(supervisor.publicKey) } } }
        : {}),
    });
    return new RequestTable(dir, journalDir, supervisor, pty, broker, url, configFile);
  }

  /** Starts the daemon and waits for it to be online (again), with a consumer on its topics. */
  async start(): Promise<Consumer> {
    const daemon = startDaemon(this.configFile);
    this.daemon = daemon;
    this.runs.push(daemon);
    if (!this.broker) {
      const port = Number(new URL(this.url).port);
      await Promise.race([
        waitForPort(port, 30_000),
        daemon.exited.then(() => {
          throw new Error(`tableside run exited\n${daemon.describe()}`);
        }),
      ]);
    }
    // On the embedded broker the consumer goes with the daemon; on mosquitto it stays.
    if (!this.consumer || !this.broker) {
      this.consumer = await Consumer.connect({ url: this.url, root: this.root });
    }
    const consumer = this.consumer;
    const from = consumer.messages.length;
    await until(
      () =>
        consumer.messages
          .slice(from)
          .some((m) => m.topic === `${this.root}/bridge/state` && m.payload === 'online') &&
        consumer.value('state') !== undefined,
      'the daemon online and its state',
      30_000,
      () => daemon.describe(),
    );
    return consumer;
  }

  /** Kills the daemon (SIGKILL: as a crash or a power cut would). */
  async kill(): Promise<void> {
    await this.daemon?.kill('SIGKILL');
    this.daemon = undefined;
    if (!this.broker) {
      await this.consumer?.close();
      this.consumer = undefined;
    }
  }

  /** Publishes a request payload retained (QoS 1), as a careless or hostile client might. */
  async publishRetained(op: string, payload: string): Promise<void> {
    const client = await connectAsync(this.url, { protocolVersion: 4, reconnectPeriod: 0 });
    // The embedded broker refuses a retained request by closing the connection.
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    await Promise.race([
      client.publishAsync(`${this.root}/bridge/request/${op}`, payload, { qos: 1, retain: true }),
      closed,
    ]).catch(() => undefined);
    await client.endAsync(true).catch(() => undefined);
  }

  /** A payload for `op` signed by the table's supervisor, now. */
  signed(op: string, fields: Record<string, unknown>): string {
    const topic = `${this.root}/bridge/request/${op}`;
    return JSON.stringify(
      signRequest(topic, fields, this.supervisor.privateKey, { ts: Date.now() }),
    );
  }

  async journal(): Promise<JournalRecord[]> {
    const records: JournalRecord[] = [];
    for await (const record of readJournalRecords(this.journalDir)) records.push(record);
    return records;
  }

  /** Every daemon run's output, for assertion messages. */
  describe(): string {
    return this.runs.map((run, index) => `=== run ${index + 1} ===\n${run.describe()}`).join('\n');
  }

  async close(): Promise<void> {
    await this.daemon?.kill('SIGKILL');
    await this.consumer?.close();
    await this.pty.stop();
    await this.broker?.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
