/**
 * The bridge's connection to the broker: one MQTT.js client per connection,
 * with MQTT.js's own reconnect off. Reconnects are ours, with exponential
 * backoff and jitter; each connection subscribes to the table's requests and
 * tells the other parts (`connected`), which republish what they hold.
 *
 * MQTT 5 (`protocolVersion: 5`): the session outlives a disconnect for
 * `sessionExpirySeconds` (so requests sent meanwhile are not lost) and the
 * will waits `willDelaySeconds`, so a quick reconnect does not flap
 * `bridge/state` to offline. The broker's reason codes are logged by name.
 */
import { EventEmitter } from 'node:events';
import { readFile } from 'node:fs/promises';
import type { IClientOptions, IConnackPacket, IDisconnectPacket, MqttClient } from 'mqtt';
import { type BackoffOptions, backoffDelay, DEFAULT_BACKOFF } from '../backoff.ts';
import type { MqttConnector } from '../connect.ts';
import { MqttError } from '../errors.ts';
import { JournalBackedStore } from '../journal-backed-store.ts';
import { describeReason, isFailure, refusesProtocolVersion } from '../reason-codes.ts';
import type { TableTopics } from '../topics.ts';
import type { BridgeOptions, BridgeTls, LiveConnection } from './options.ts';

/** The MQTT 5 properties of a request the bridge reads. */
export interface RequestProperties {
  responseTopic?: string | undefined;
  correlationData?: Buffer | undefined;
}

interface ConnectionEvents {
  /** A connection is up: republish, resend, pump. */
  connected: [client: MqttClient, generation: number];
  /** It went (or an attempt failed); `wasConnected` says whether it had been up. */
  closed: [reason: string, wasConnected: boolean];
  /** The broker closed it with this MQTT 5 reason code. */
  brokerDisconnect: [reasonCode: number];
  message: [
    topic: string,
    payload: Buffer,
    retained: boolean,
    properties: RequestProperties | undefined,
  ];
  error: [error: Error];
}

type TlsFiles = { ca?: Buffer; cert?: Buffer; key?: Buffer };

const noLog = (): void => undefined;

export class BridgeConnection extends EventEmitter<ConnectionEvents> implements LiveConnection {
  readonly protocolVersion: 4 | 5;
  #client: MqttClient | undefined;
  #connector: MqttConnector | undefined;
  #tlsFiles: TlsFiles = {};
  #generation = 0;
  #connected = false;
  #stopped = true;
  #attempt = 0;
  #connections = 0;
  #reconnectTimer: NodeJS.Timeout | undefined;
  readonly #backoff: BackoffOptions;
  readonly #random: () => number;

  constructor(
    private readonly options: BridgeOptions,
    private readonly topics: TableTopics,
  ) {
    super();
    this.protocolVersion = options.protocolVersion ?? 4;
    if (this.protocolVersion !== 4 && this.protocolVersion !== 5) {
      throw new MqttError(
        'bad_options',
        `protocolVersion must be 4 (MQTT 3.1.1) or 5, got ${options.protocolVersion}`,
      );
    }
    this.#backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.#random = options.random ?? Math.random;
    this.on('error', () => undefined);
  }

  get client(): MqttClient | undefined {
    return this.#connected ? this.#client : undefined;
  }

  get isConnected(): boolean {
    return this.#connected;
  }

  get generation(): number {
    return this.#generation;
  }

  /** Connections made so far (for health reports). */
  get connections(): number {
    return this.#connections;
  }

  get stopped(): boolean {
    return this.#stopped;
  }

  /** Reads the TLS files and starts connecting (in the background). Rejects only for unreadable TLS files. */
  async start(): Promise<void> {
    this.#tlsFiles = await readTlsFiles(this.options.tls);
    this.#connector = await (await import('../connect.ts')).mqttConnectorFor(this.options.url);
    this.#stopped = false;
    this.#connect();
  }

  /** Publishes `offline`, waits (briefly) for it to be acknowledged, and disconnects. */
  async stop(timeoutMs: number): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#reconnectTimer);
    const client = this.#client;
    this.#client = undefined;
    this.#generation++;
    if (!client) return;
    if (this.#connected) {
      await withTimeout(
        client.publishAsync(this.topics.bridgeState, 'offline', { qos: 1, retain: true }),
        timeoutMs,
      ).catch(() => undefined); // stopping: the broker may be gone; the will says offline then
    }
    this.#connected = false;
    // A deliberate stop ends the MQTT 5 session: requests sent while the table is
    // down are not kept for a later run (its `offline` above was published already).
    const disconnect =
      this.protocolVersion === 5 ? { reasonCode: 0, properties: { sessionExpiryInterval: 0 } } : {};
    await withTimeout(client.endAsync(false, disconnect), timeoutMs).catch(() => client.end(true));
  }

  /** Publishes a retained message now; while disconnected the owner republishes it on the next connect. */
  publishRetained(topic: string, payload: string): void {
    const client = this.client;
    if (!client) return;
    client.publish(topic, payload, { qos: 1, retain: true }, () => undefined);
  }

  #clientOptions(): IClientOptions {
    const { options } = this;
    const v5 = this.protocolVersion === 5;
    const sessionExpiry = options.sessionExpirySeconds ?? 300;
    return {
      clientId: options.clientId ?? `tableside-${options.table}`,
      protocolVersion: this.protocolVersion,
      // MQTT 5 resumes its session, even after a restart: a clean start would end
      // the old session and with it release the delayed will (`offline`) at once.
      clean: !v5 || sessionExpiry === 0,
      ...(v5 ? { properties: { sessionExpiryInterval: sessionExpiry } } : {}),
      // The journal holds every event until it is acknowledged; MQTT.js need not.
      outgoingStore: new JournalBackedStore(),
      // No debug() calls per packet on the hot path.
      log: noLog,
      // The keepalive timer is not re-armed for every packet sent: at most one
      // spare PINGREQ per keepalive period instead of a timer reset per event.
      reschedulePings: false,
      keepalive: options.keepalive ?? 30,
      reconnectPeriod: 0,
      connectTimeout: options.connectTimeoutMs ?? 10_000,
      // mqtt-packet's default pre-builds 65,536 two-byte Buffers (~6 MB of heap,
      // a third of the daemon's) to save an allocation per packet id; at one
      // card at a time that allocation costs nothing. The setting is global to
      // mqtt-packet, so it also covers the embedded broker (aedes).
      writeCache: false,
      will: {
        topic: this.topics.bridgeState,
        payload: Buffer.from('offline'),
        qos: 1,
        retain: true,
        ...(v5
          ? {
              properties: {
                willDelayInterval: options.willDelaySeconds ?? 10,
                payloadFormatIndicator: true,
              },
            }
          : {}),
      },
      ...(options.username !== undefined ? { username: options.username } : {}),
      ...(options.password !== undefined ? { password: options.password } : {}),
      ...this.#tlsFiles,
      ...(options.tls?.rejectUnauthorized === false ? { rejectUnauthorized: false } : {}),
    };
  }

  #connect(): void {
    if (this.#stopped || !this.#connector) return;
    const generation = ++this.#generation;
    const client = this.#connector.connect(this.options.url, this.#clientOptions());
    this.#client = client;
    const current = () => generation === this.#generation;
    let closed = false;
    client.on('connect', (connack) => {
      if (current()) this.#onConnected(client, generation, connack);
    });
    client.on('message', (topic, payload, packet) => {
      if (current()) this.emit('message', topic, payload, packet.retain, packet.properties);
    });
    client.on('disconnect', (packet: IDisconnectPacket) => {
      if (!current()) return;
      const reason = describeReason('DISCONNECT', packet.reasonCode ?? 0, 5);
      this.options.log?.warn(
        { url: this.options.url, reason },
        `the broker closed the connection: ${reason}`,
      );
      this.emit('brokerDisconnect', packet.reasonCode ?? 0);
    });
    client.on('error', (error) => {
      if (!current()) return;
      this.#logClientError(error);
      this.emit('error', error);
    });
    client.on('close', () => {
      if (closed || !current()) return;
      closed = true;
      client.end(true);
      this.#onClosed('connection closed');
    });
  }

  /** A refused CONNECT names the CONNACK code; a broker that does not speak MQTT 5 says so. */
  #logClientError(error: Error): void {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'number' && error.message.startsWith('Connection refused')) {
      const reason = describeReason('CONNACK', code, this.protocolVersion);
      const hint =
        this.protocolVersion === 5 && refusesProtocolVersion(code)
          ? ': the broker does not speak MQTT 5; set mqtt.protocolVersion to 4 or use an MQTT 5 broker (mosquitto 2, EMQX, HiveMQ). The journal keeps every event until it can publish them'
          : '';
      this.options.log?.error(
        { url: this.options.url, reason },
        `the broker refused the connection: ${reason}${hint}`,
      );
      return;
    }
    this.options.log?.warn({ err: error.message }, 'mqtt error');
  }

  #onConnected(client: MqttClient, generation: number, connack: IConnackPacket): void {
    this.#connected = true;
    this.#attempt = 0;
    this.#connections++;
    const v5 = this.protocolVersion === 5;
    this.options.log?.info(
      {
        url: this.options.url,
        protocolVersion: this.protocolVersion,
        sessionPresent: connack.sessionPresent,
        ...(v5 ? { reason: describeReason('CONNACK', connack.reasonCode ?? 0, 5) } : {}),
      },
      'mqtt connected',
    );
    this.#subscribeToRequests(client, generation);
    this.emit('connected', client, generation);
  }

  #subscribeToRequests(client: MqttClient, generation: number): void {
    // MQTT 5 keeps the retain flag of a request published retained (retain as
    // published): it is refused at once, not only when it comes back at a connect.
    const subscription =
      this.protocolVersion === 5 ? { qos: 1 as const, rap: true } : { qos: 1 as const };
    const topic = this.topics.requestFilter;
    client.subscribe(topic, subscription, (error, _granted, suback) => {
      if (generation !== this.#generation) return;
      // The SUBACK's own codes: MQTT.js hands back the requested QoS on a refusal.
      const refused = suback?.granted.find((code) => typeof code === 'number' && isFailure(code));
      if (typeof refused === 'number') {
        const reason = describeReason('SUBACK', refused, this.protocolVersion);
        this.options.log?.error(
          { topic, reason },
          `the broker refused the subscription to ${topic}: ${reason}; requests cannot reach the table`,
        );
      }
      if (error) this.emit('error', error);
    });
  }

  #onClosed(reason: string): void {
    const wasConnected = this.#connected;
    this.#connected = false;
    this.#client = undefined;
    if (wasConnected) this.options.log?.warn({ reason }, 'mqtt disconnected');
    this.emit('closed', reason, wasConnected);
    if (this.#stopped) return;
    const attempt = ++this.#attempt;
    const delay = backoffDelay(attempt - 1, this.#backoff, this.#random);
    this.options.log?.warn(
      { url: this.options.url, reason, attempt, delayMs: delay },
      `mqtt: not connected to ${this.options.url} (${reason}); next try in ${delay} ms (attempt ${attempt})`,
    );
    this.#reconnectTimer = setTimeout(() => this.#connect(), delay);
  }
}

export async function readTlsFiles(tls: BridgeTls | undefined): Promise<TlsFiles> {
  const files: TlsFiles = {};
  if (!tls) return files;
  for (const key of ['ca', 'cert', 'key'] as const) {
    const path = tls[key];
    if (path === undefined) continue;
    try {
      files[key] = await readFile(path);
    } catch (error) {
      throw new MqttError('tls_files', `mqtt.tls.${key}: cannot read ${path}: ${String(error)}`, {
        cause: error,
      });
    }
  }
  return files;
}

export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

export { noLog };
