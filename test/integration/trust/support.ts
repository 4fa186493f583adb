/**
 * Shared pieces of the trust scenarios: a throwaway folder, an in-process
 * table daemon, MQTT clients that record what they see and send requests,
 * and key files made the way an installer makes them.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { resolveConfig } from '../../../firmware-host/config/loader.ts';
import { TableDaemon } from '../../../firmware-host/daemon/table-daemon.ts';
import {
  formatPublicKey,
  generateKeyPair,
  type KeyPair,
  privateKeyPem,
} from '../../../firmware-host/trust/keys.ts';
import { signRequest } from '../../../firmware-host/trust/signed-request.ts';
import { startTestBroker, type TestBroker } from '../../helpers/broker.ts';
import { REPO_ROOT } from '../../helpers/cli.ts';
import { until } from '../../helpers/until.ts';

export const BASE = 'tableside';

export class Cleanup {
  private readonly steps: Array<() => Promise<unknown> | unknown> = [];
  add(step: () => Promise<unknown> | unknown): void {
    this.steps.push(step);
  }
  async run(): Promise<void> {
    for (const step of this.steps.splice(0).reverse()) {
      try {
        await step();
      } catch {
        // keep cleaning
      }
    }
  }
}

export function tempDir(cleanup: Cleanup, prefix = 'tableside-trust-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o755);
  cleanup.add(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A supervisor (or table) key pair, its private key in a mode-600 PEM file. */
export async function keyFile(
  dir: string,
  name: string,
): Promise<KeyPair & { path: string; text: string }> {
  const pair = generateKeyPair();
  const path = join(dir, `${name}.pem`);
  await writeFile(path, privateKeyPem(pair.privateKey), { mode: 0o600 });
  return { ...pair, path, text: formatPublicKey(pair.publicKey) };
}

export function mosquittoPasswd(file: string, users: Record<string, string>): void {
  let first = true;
  for (const [user, password] of Object.entries(users)) {
    const args = [...(first ? ['-c'] : []), '-b', file, user, password];
    const result = spawnSync('mosquitto_passwd', args, { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`mosquitto_passwd failed: ${result.stderr}`);
    first = false;
  }
  chmodSync(file, 0o644);
}

/**
 * A mosquitto with the ACL we ship (hardware/deploy/mosquitto/tableside.acl)
 * and a password file for `users`, both in `dir`; closed after the test.
 */
export async function startBrokerWithShippedAcl(
  cleanup: Cleanup,
  dir: string,
  users: Record<string, string>,
): Promise<TestBroker> {
  const aclFile = join(dir, 'tableside.acl');
  copyFileSync(join(REPO_ROOT, 'hardware/deploy/mosquitto/tableside.acl'), aclFile);
  chmodSync(aclFile, 0o644);
  const passwordFile = join(dir, 'passwd');
  mosquittoPasswd(passwordFile, users);
  const broker = await startTestBroker({ passwordFile, aclFile });
  cleanup.add(() => broker.close());
  return broker;
}

export async function startTable(
  cleanup: Cleanup,
  settings: Record<string, unknown>,
  notices: string[] = [],
): Promise<TableDaemon> {
  const { config } = resolveConfig({ ruleset: 'bulgaria-punto-banco', ...settings }, { env: {} });
  const daemon = new TableDaemon({ config, simulate: false });
  daemon.on('notice', (_level, message) => notices.push(message));
  await daemon.start();
  cleanup.add(() => daemon.stop());
  return daemon;
}

export interface Message {
  topic: string;
  text: string;
}

/** An MQTT client that records every message it receives on `filter`. */
export class Client {
  readonly messages: Message[] = [];
  closed = false;
  constructor(readonly client: MqttClient) {
    client.on('message', (topic, payload) =>
      this.messages.push({ topic, text: payload.toString() }),
    );
    client.on('close', () => {
      this.closed = true;
    });
  }

  static async connect(
    cleanup: Cleanup,
    url: string,
    options: IClientOptions = {},
    filter = `${BASE}/#`,
  ): Promise<Client> {
    const client = await mqtt.connectAsync(url, {
      protocolVersion: 4,
      reconnectPeriod: 0,
      ...options,
    });
    cleanup.add(() => client.endAsync(true));
    const recorder = new Client(client);
    if (filter) await client.subscribeAsync(filter, { qos: 1 });
    return recorder;
  }

  on(topic: string): Message[] {
    return this.messages.filter((message) => message.topic === topic);
  }

  /** Publishes a payload on a table's request topic, signed with `key` when given. */
  async request(
    table: string,
    op: string,
    fields: Record<string, unknown>,
    key?: KeyPair,
    at: { ts?: number; nonce?: string } = {},
  ): Promise<Record<string, unknown>> {
    const topic = `${BASE}/${table}/bridge/request/${op}`;
    const payload = key
      ? signRequest(topic, fields, key.privateKey, {
          ts: at.ts ?? Date.now(),
          ...(at.nonce ? { nonce: at.nonce } : {}),
        })
      : fields;
    await this.publish(topic, JSON.stringify(payload));
    return payload;
  }

  /**
   * Publishes at QoS 1 and waits for the PUBACK, or for the broker to close
   * the connection (aedes closes a client whose publish it refuses;
   * mosquitto acknowledges and drops it), at most 3 s.
   */
  async publish(topic: string, text: string): Promise<void> {
    const acked = this.client.publishAsync(topic, text, { qos: 1 }).catch(() => undefined);
    await Promise.race([acked, waitFor(() => this.closed, 'a close', 3000).catch(() => undefined)]);
  }

  /** The response to `transaction` on a table's response topic, waited for. */
  async response(table: string, op: string, transaction: string): Promise<Record<string, unknown>> {
    const topic = `${BASE}/${table}/bridge/response/${op}`;
    let found: Record<string, unknown> | undefined;
    await waitFor(() => {
      found = this.on(topic)
        .map((message) => JSON.parse(message.text) as Record<string, unknown>)
        .find((body) => body.transaction === transaction);
      return found !== undefined;
    }, `the response to ${transaction}`);
    return found!;
  }
}

/** The suite's one wait (test/helpers/until.ts), under the name these tests use. */
export const waitFor = until;

/** Lets messages that would arrive do so: for asserting that something did not. */
// fixed wait: nothing happens: a message the broker or the daemon must refuse never arrives; only time shows it
export function settle(ms = 500): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
