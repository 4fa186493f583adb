/**
 * The MQTT bridge: publishes the journal's events, keeps the retained
 * topics, and turns requests into calls of the daemon's handler.
 *
 * Delivery: events are read from the journal, in seq order, from the last
 * seq the broker acknowledged (a durable cursor). At most `inflight` events
 * await their PUBACK at once; the cursor moves past an event only when it
 * and every event before it were acknowledged. After a disconnect the
 * bridge starts again from the cursor: a broker outage or a restart delays
 * events, never drops them; an event may arrive twice, so consumers dedupe
 * by `seq`.
 *
 * Connection: one MQTT.js client per connection, with MQTT.js's own
 * reconnect off: reconnects are ours, with exponential backoff and jitter,
 * and every (re)connect republishes all retained topics. MQTT.js keeps no
 * copy of the events in flight (journal-backed-store.ts): the journal is
 * the durable store.
 *
 * MQTT 5 (`protocolVersion: 5`): events carry their content type and `seq`
 * as properties, requests are also answered on their Response Topic with
 * their Correlation Data, the session outlives a disconnect for
 * `sessionExpirySeconds` (so requests sent meanwhile are not lost) and the
 * will waits `willDelaySeconds`, so a quick reconnect does not flap
 * `bridge/state` to offline. The broker's reason codes are logged by name.
 */
import { EventEmitter } from 'node:events';
import { readFile } from 'node:fs/promises';
import type {
  IClientOptions,
  IClientPublishOptions,
  IConnackPacket,
  IDisconnectPacket,
  MqttClient,
} from 'mqtt';
import type { JournalRecord } from '../journal/record.ts';
import type { Logger } from '../log.ts';
import { type DomainEvent, eventTopicKind } from '../table/events.ts';
import { type BackoffOptions, backoffDelay, DEFAULT_BACKOFF } from './backoff.ts';
import type { MqttConnector } from './connect.ts';
import { MqttError } from './errors.ts';
import { type CardExposure, exposureOfInput, findForbiddenKey, screenEvent } from './guard.ts';
import { JournalBackedStore } from './journal-backed-store.ts';
import {
  eventProperties,
  type PublishProperties,
  responseProperties,
  responseTopicProblem,
} from './properties.ts';
import { describeReason, isFailure, refusesProtocolVersion } from './reason-codes.ts';
import {
  type BridgeRequest,
  decodeRequestBody,
  isJsonObject,
  NOT_AN_OBJECT,
  parseRequestFields,
  transactionOf,
} from './requests.ts';
import { type EventTopicKind, type TableTopics, tableTopics } from './topics.ts';

/** What the bridge needs of the journal. `Journal` satisfies it. */
export interface JournalSource {
  readonly lastSeq: number;
  readRange(fromSeq: number, max: number): Promise<JournalRecord[]>;
  /** The same, at once, when memory holds the range (`Journal` has it); else undefined. */
  recentRange?(fromSeq: number, max: number): JournalRecord[] | undefined;
  onDurable(listener: (records: readonly JournalRecord[]) => void): () => void;
}

/** What the bridge needs of the cursor store. `CursorStore` satisfies it. */
export interface CursorSink {
  readonly current: number;
  advance(seq: number): Promise<void>;
}

/**
 * A request payload over this many bytes is refused by its size, unread
 * (`too_large`): the largest legal request, signed, is a few kilobytes.
 */
export const REQUEST_MAX_BYTES = 16 * 1024;

/**
 * Requests handed to the table and not answered yet, at most: more are
 * refused at once (`busy`), so a flood queues nothing in the daemon.
 */
export const REQUESTS_IN_HAND_MAX = 64;

/** Who sent a request: the supervisor whose key signed it, when requests are signed. */
export interface RequestOrigin {
  signer: string | undefined;
}

export type RequestHandler = (request: BridgeRequest, origin: RequestOrigin) => unknown;

/** Checks a request's signature (trust/signed-request.ts); `fields` is the payload without it. */
export type RequestAuthorizer = (
  topic: string,
  payload: Record<string, unknown>,
) =>
  | { ok: true; fields: Record<string, unknown>; signer: string | undefined }
  | { ok: false; code: string; error: string };

export interface BridgeTls {
  /** File paths, read at start. */
  ca?: string | undefined;
  cert?: string | undefined;
  key?: string | undefined;
  rejectUnauthorized?: boolean;
}

export interface BridgeOptions {
  /** mqtt://, mqtts://, ws:// or wss:// */
  url: string;
  table: string;
  baseTopic: string;
  clientId?: string | undefined;
  username?: string | undefined;
  password?: string | undefined;
  tls?: BridgeTls | undefined;
  keepalive?: number;
  /** Events awaiting PUBACK at once. Default 32. */
  inflight?: number;
  backoff?: BackoffOptions;
  /** Give up a connection attempt after this long. Default 10 s. */
  connectTimeoutMs?: number;
  /** 4 (MQTT 3.1.1, the default) or 5. */
  protocolVersion?: 4 | 5;
  /** MQTT 5: how long the broker keeps the session after a disconnect. Default 300 s. */
  sessionExpirySeconds?: number;
  /** MQTT 5: how long the broker waits before publishing the will. Default 10 s. */
  willDelaySeconds?: number;
  journal: JournalSource;
  cursor: CursorSink;
  onRequest: RequestHandler;
  /** Absent: requests are taken as they come (no signatures). */
  authorize?: RequestAuthorizer | undefined;
  /** Retained on bridge/info. */
  info?: Record<string, unknown>;
  /** For the backoff jitter; Math.random by default. */
  random?: () => number;
  log?: Logger;
}

export interface BridgeEvents {
  connected: [];
  disconnected: [reason: string];
  /** The cursor moved: every event up to `seq` was acknowledged by the broker. */
  acknowledged: [seq: number];
  /** An event was not published (it would reveal undealt cards); a notice went out instead. */
  withheld: [seq: number, reason: string];
  /**
   * A request refused before it reached the table: for its signature
   * (unsigned, unknown key, bad, stale, replayed), its size, the table's load
   * or its being retained; nothing changed.
   */
  refused: [op: string, code: string, error: string];
  error: [error: Error];
}

interface Slot {
  seq: number;
  done: boolean;
}

export class MqttBridge extends EventEmitter<BridgeEvents> {
  readonly topics: TableTopics;
  private readonly options: BridgeOptions;
  private readonly inflightLimit: number;
  private readonly backoff: BackoffOptions;
  private readonly random: () => number;
  private client: MqttClient | undefined;
  private mqttModule: MqttConnector | undefined;
  private tlsFiles: { ca?: Buffer; cert?: Buffer; key?: Buffer } = {};
  /** Bumped on every connection, so callbacks of a dead connection change nothing. */
  private generation = 0;
  private connected = false;
  private stopped = true;
  private attempt = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private unsubscribeJournal: (() => void) | undefined;
  private ackedThrough: number;
  private nextSeq: number;
  private window: Slot[] = [];
  /** The card of the latest journal input, for the events it caused (see guard.ts). */
  private exposure: CardExposure | undefined;
  private pumping = false;
  private pumpAgain = false;
  private info: Record<string, unknown>;
  private readonly availability = new Map<string, string>();
  private snapshot: unknown;
  private journalHead: string | undefined;
  private roads: string | undefined;
  private connectionCount = 0;
  private readonly protocolVersion: 4 | 5;
  /** Requests handed to `onRequest` and not answered yet. */
  private requestsInHand = 0;
  /** Answers the broker has not acknowledged: sent again after a reconnect, so none is lost. */
  private readonly unacknowledgedAnswers = new Set<Answer>();

  constructor(options: BridgeOptions) {
    super();
    this.options = options;
    this.inflightLimit = options.inflight ?? 32;
    if (!Number.isInteger(this.inflightLimit) || this.inflightLimit < 1) {
      throw new MqttError(
        'bad_options',
        `inflight must be a positive integer, got ${options.inflight}`,
      );
    }
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.random = options.random ?? Math.random;
    this.topics = tableTopics(options.baseTopic, options.table);
    this.info = options.info ?? {};
    this.protocolVersion = options.protocolVersion ?? 4;
    if (this.protocolVersion !== 4 && this.protocolVersion !== 5) {
      throw new MqttError(
        'bad_options',
        `protocolVersion must be 4 (MQTT 3.1.1) or 5, got ${options.protocolVersion}`,
      );
    }
    this.ackedThrough = options.cursor.current;
    this.nextSeq = this.ackedThrough + 1;
    // An 'error' with no listener would throw; the bridge reports and carries on.
    this.on('error', () => undefined);
  }

  /** Starts connecting (in the background) and publishing. Rejects only for unreadable TLS files. */
  async start(): Promise<void> {
    if (!this.stopped) return;
    this.tlsFiles = await readTlsFiles(this.options.tls);
    this.mqttModule = await (await import('./connect.ts')).mqttConnectorFor(this.options.url);
    this.stopped = false;
    this.unsubscribeJournal = this.options.journal.onDurable(() => this.pump());
    this.connect();
  }

  /** Publishes `offline`, waits (briefly) for it to be acknowledged, and disconnects. */
  async stop(timeoutMs = 2000): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    this.unsubscribeJournal?.();
    const client = this.client;
    this.client = undefined;
    this.generation++;
    if (!client) return;
    if (this.connected) {
      await withTimeout(
        client.publishAsync(this.topics.bridgeState, 'offline', { qos: 1, retain: true }),
        timeoutMs,
      ).catch(() => undefined); // stopping: the broker may be gone; the will says offline then
    }
    this.connected = false;
    // A deliberate stop ends the MQTT 5 session: requests sent while the table is
    // down are not kept for a later run (its `offline` above was published already).
    const disconnect =
      this.protocolVersion === 5 ? { reasonCode: 0, properties: { sessionExpiryInterval: 0 } } : {};
    await withTimeout(client.endAsync(false, disconnect), timeoutMs).catch(() => client.end(true));
  }

  /**
   * Publishes an alarm that cannot go through the journal, because the
   * journal itself failed (a full disk): consumers hear why the table stops
   * before `bridge/state` goes offline. It has no seq and is not replayed.
   * Resolves once the broker has it, or after `timeoutMs`.
   */
  async publishUnjournaledAlarm(kind: string, message: string, timeoutMs = 2000): Promise<void> {
    const client = this.client;
    if (!client || !this.connected) return;
    const payload = unjournaledAlarm(kind, message);
    await withTimeout(
      client.publishAsync(this.topics.events('alarm'), JSON.stringify(payload), { qos: 1 }),
      timeoutMs,
    ).catch(() => undefined); // best effort: the failure is logged by the caller; a gone broker cannot hear it
  }

  get isConnected(): boolean {
    return this.connected;
  }

  /** The last seq through which every event was acknowledged by the broker. */
  get acknowledgedSeq(): number {
    return this.ackedThrough;
  }

  /** Connections made so far (for health reports). */
  get connections(): number {
    return this.connectionCount;
  }

  setInfo(info: Record<string, unknown>): void {
    this.info = info;
    this.publishRetained(this.topics.bridgeInfo, JSON.stringify(info));
  }

  setDeviceAvailability(device: string, availability: 'online' | 'offline' | 'quarantined'): void {
    this.availability.set(device, availability);
    this.publishRetained(this.topics.deviceAvailability(device), availability);
  }

  /** The retained table snapshot. Refused (MqttError 'withheld') if it holds a shuffler order. */
  setState(snapshot: Record<string, unknown>): void {
    const forbidden = findForbiddenKey(snapshot);
    if (forbidden) {
      throw new MqttError('withheld', `state snapshot not published: it carries "${forbidden}"`);
    }
    this.snapshot = snapshot;
    this.publishRetained(this.topics.state, JSON.stringify(snapshot));
  }

  /** The journal's last signed head, retained on `journal/head`. */
  setJournalHead(head: Record<string, unknown>): void {
    this.journalHead = JSON.stringify(head);
    this.publishRetained(this.topics.journalHead, this.journalHead);
  }

  /** The retained scoreboard roads (baccarat tables), republished on every connect. */
  setRoads(roads: Record<string, unknown>): void {
    this.roads = JSON.stringify(roads);
    this.publishRetained(this.topics.roads, this.roads);
  }

  private connect(): void {
    if (this.stopped || !this.mqttModule) return;
    const generation = ++this.generation;
    const { options } = this;
    const v5 = this.protocolVersion === 5;
    const sessionExpiry = options.sessionExpirySeconds ?? 300;
    const clientOptions: IClientOptions = {
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
      ...this.tlsFiles,
      ...(options.tls?.rejectUnauthorized === false ? { rejectUnauthorized: false } : {}),
    };
    const client = this.mqttModule.connect(options.url, clientOptions);
    this.client = client;
    let closed = false;
    client.on('connect', (connack) => {
      if (generation !== this.generation) return;
      this.onConnected(client, generation, connack);
    });
    client.on('message', (topic, payload, packet) => {
      if (generation !== this.generation) return;
      void this.onMessage(topic, payload, packet.retain, packet.properties);
    });
    client.on('disconnect', (packet: IDisconnectPacket) => {
      if (generation !== this.generation) return;
      this.options.log?.warn(
        { url: options.url, reason: describeReason('DISCONNECT', packet.reasonCode ?? 0, 5) },
        `the broker closed the connection: ${describeReason('DISCONNECT', packet.reasonCode ?? 0, 5)}`,
      );
      if (packet.reasonCode === PACKET_TOO_LARGE)
        this.dropAnswersInFlight("over the broker's packet size");
    });
    client.on('error', (error) => {
      if (generation !== this.generation) return;
      this.logClientError(error);
      this.emit('error', error);
    });
    client.on('close', () => {
      if (closed || generation !== this.generation) return;
      closed = true;
      client.end(true);
      this.onClosed('connection closed');
    });
  }

  /** A refused CONNECT names the CONNACK code; a broker that does not speak MQTT 5 says so. */
  private logClientError(error: Error): void {
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

  private onConnected(client: MqttClient, generation: number, connack: IConnackPacket): void {
    this.connected = true;
    this.attempt = 0;
    this.connectionCount++;
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
    // MQTT 5 keeps the retain flag of a request published retained (retain as
    // published): it is refused at once, not only when it comes back at a connect.
    const requestSubscription = v5 ? { qos: 1 as const, rap: true } : { qos: 1 as const };
    client.subscribe(this.topics.requestFilter, requestSubscription, (error, _granted, suback) => {
      if (generation !== this.generation) return;
      // The SUBACK's own codes: MQTT.js hands back the requested QoS on a refusal.
      const refused = suback?.granted.find((code) => typeof code === 'number' && isFailure(code));
      if (typeof refused === 'number') {
        const topic = this.topics.requestFilter;
        const reason = describeReason('SUBACK', refused, this.protocolVersion);
        this.options.log?.error(
          { topic, reason },
          `the broker refused the subscription to ${topic}: ${reason}; requests cannot reach the table`,
        );
      }
      if (error) this.emit('error', error);
    });
    // Retained topics first, so a consumer sees `online` before the backlog.
    this.publishRetained(this.topics.bridgeState, 'online');
    this.publishRetained(this.topics.bridgeInfo, JSON.stringify(this.info));
    for (const [device, availability] of this.availability) {
      this.publishRetained(this.topics.deviceAvailability(device), availability);
    }
    if (this.snapshot !== undefined)
      this.publishRetained(this.topics.state, JSON.stringify(this.snapshot));
    if (this.journalHead !== undefined)
      this.publishRetained(this.topics.journalHead, this.journalHead);
    if (this.roads !== undefined) this.publishRetained(this.topics.roads, this.roads);
    // The connection went each time these were in flight: an answer may itself be what
    // a 3.1.1 broker closes it for (over its packet size), and would never end.
    this.dropAnswersInFlight('the connection went each time it was sent', ANSWER_SENDS_MAX);
    for (const answer of this.unacknowledgedAnswers) this.publishAnswer(answer);
    this.window = [];
    this.nextSeq = this.ackedThrough + 1;
    // Reading resumes mid-journal: no card counts as exposed until its input is read again.
    this.exposure = undefined;
    this.emit('connected');
    this.pump();
  }

  private onClosed(reason: string): void {
    const wasConnected = this.connected;
    this.connected = false;
    this.window = [];
    this.nextSeq = this.ackedThrough + 1;
    this.client = undefined;
    if (wasConnected) {
      this.options.log?.warn({ reason }, 'mqtt disconnected');
      this.emit('disconnected', reason);
    }
    if (this.stopped) return;
    const attempt = ++this.attempt;
    const delay = backoffDelay(attempt - 1, this.backoff, this.random);
    this.options.log?.warn(
      { url: this.options.url, reason, attempt, delayMs: delay },
      `mqtt: not connected to ${this.options.url} (${reason}); next try in ${delay} ms (attempt ${attempt})`,
    );
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
  }

  private publishRetained(topic: string, payload: string): void {
    const client = this.client;
    if (!client || !this.connected) return; // republished on the next connect
    client.publish(topic, payload, { qos: 1, retain: true }, () => undefined);
  }

  /** Publishes journal events while the in-flight window has room. */
  private pump(): void {
    if (!this.connected || this.stopped) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    void this.pumpLoop()
      .catch((error: unknown) => {
        this.emit('error', error instanceof Error ? error : new Error(String(error)));
      })
      .finally(() => {
        this.pumping = false;
        if (this.pumpAgain) {
          this.pumpAgain = false;
          this.pump();
        }
      });
  }

  private async pumpLoop(): Promise<void> {
    const generation = this.generation;
    while (this.connected && generation === this.generation) {
      const room = this.inflightLimit - this.inflight();
      if (room <= 0 || this.nextSeq > this.options.journal.lastSeq) return;
      // From memory the batch goes out in the turn that made it durable, ahead of the
      // listeners that log and ACK; from the files it waits for the read.
      const max = Math.max(room, 64);
      const journal = this.options.journal;
      const records =
        journal.recentRange?.(this.nextSeq, max) ?? (await journal.readRange(this.nextSeq, max));
      if (records.length === 0 || generation !== this.generation) return;
      this.publishBatch(records, generation);
      this.settle();
    }
  }

  /** One socket write for the events of a batch: the stream is corked around it. */
  private publishBatch(records: readonly JournalRecord[], generation: number): void {
    const stream = this.client?.stream;
    stream?.cork();
    try {
      for (const record of records) {
        if (generation !== this.generation) return;
        if (record.seq !== this.nextSeq) {
          throw new Error(`journal gave seq ${record.seq} where ${this.nextSeq} was expected`);
        }
        if (record.kind !== 'event') {
          // The events that follow an input may name its card only if it left the shoe face up.
          if (record.kind === 'input') this.exposure = exposureOfInput(record.data);
          // Inputs (a shuffle may hold the shuffler's order) and meta records are never published.
          this.window.push({ seq: record.seq, done: true });
          this.nextSeq++;
          continue;
        }
        if (this.inflight() >= this.inflightLimit) break;
        this.publishEvent(record, generation);
        this.nextSeq++;
      }
    } finally {
      // mqtt-packet corks the socket for each packet and uncorks it on the next tick: the
      // batch goes out now, in one write, not after whatever else this turn still runs.
      while (stream && stream.writableCorked > 0) stream.uncork();
    }
  }

  private inflight(): number {
    let count = 0;
    for (const slot of this.window) if (!slot.done) count++;
    return count;
  }

  private publishEvent(record: JournalRecord, generation: number): void {
    const client = this.client!;
    const publication = publicationOf(record, this.exposure);
    const topic = this.topics.events(publication.kind);
    const payload = publication.payload;
    if (publication.withheld !== undefined) {
      this.options.log?.error({ seq: record.seq, reason: publication.withheld }, 'event withheld');
      this.emit('withheld', record.seq, publication.withheld);
    }
    const slot: Slot = { seq: record.seq, done: false };
    this.window.push(slot);
    const options =
      this.protocolVersion === 5
        ? { qos: 1 as const, properties: eventProperties(record.seq) }
        : { qos: 1 as const };
    client.publish(topic, payload, options, (error) => {
      if (generation !== this.generation) return; // resent after the reconnect
      if (error) {
        // A reason code is the broker refusing it; anything else is the connection
        // going away, and the event is resent after the reconnect.
        const code = (error as { code?: unknown }).code;
        if (typeof code === 'number') this.onEventRefused(client, topic, record.seq, code, error);
        return;
      }
      slot.done = true;
      this.settle();
      this.pump();
    });
  }

  /**
   * An MQTT 5 broker refused an event (PUBACK >= 0x80: not authorized, quota
   * exceeded, ...). The cursor stays before it; the bridge reconnects and
   * resends from there after its backoff, so the event is delayed, not lost.
   */
  private onEventRefused(
    client: MqttClient,
    topic: string,
    seq: number,
    code: number,
    error: Error,
  ): void {
    const reason = describeReason('PUBACK', code, this.protocolVersion);
    this.options.log?.error(
      { seq, topic, reason },
      `the broker refused event ${seq} on ${topic}: ${reason}; it stays in the journal and is sent again after a reconnect`,
    );
    this.emit('error', error);
    client.end(true);
  }

  /** Moves the cursor past the leading acknowledged slots. */
  private settle(): void {
    let advanced = false;
    while (this.window[0]?.done) {
      this.ackedThrough = this.window.shift()!.seq;
      advanced = true;
    }
    if (!advanced) return;
    const seq = this.ackedThrough;
    this.options.cursor.advance(seq).then(
      () => this.emit('acknowledged', seq),
      (error: unknown) =>
        this.emit('error', error instanceof Error ? error : new Error(String(error))),
    );
  }

  /**
   * Answers a request on `bridge/response/<op>` and, for an MQTT 5 request
   * with a Response Topic, there as well with its Correlation Data. A
   * response topic the bridge will not or may not publish to is logged; the
   * answer on `bridge/response/<op>` goes out all the same.
   */
  private replier(op: string, properties: RequestProperties | undefined): (body: string) => void {
    const v5 = this.protocolVersion === 5;
    const responseTopic = v5 ? properties?.responseTopic : undefined;
    const correlationData = properties?.correlationData;
    let direct: string | undefined;
    if (responseTopic !== undefined) {
      const problem = responseTopicProblem(responseTopic, this.topics.root);
      if (problem === undefined) direct = responseTopic;
      else {
        this.options.log?.warn(
          { op, responseTopic, problem },
          `request ${op}: not answered on its response topic "${responseTopic}": ${problem}; answered on ${this.topics.response(op)}`,
        );
      }
    }
    return (body) => {
      const properties: PublishProperties | undefined = v5 ? responseProperties() : undefined;
      this.sendAnswer({
        topic: this.topics.response(op),
        body,
        options: properties ? { qos: 1, properties } : { qos: 1 },
        sends: 0,
      });
      if (direct === undefined) return;
      const topic = direct;
      this.sendAnswer({
        topic,
        body,
        options: { qos: 1, properties: responseProperties(correlationData) },
        sends: 0,
        refused: (code) => {
          const reason = describeReason('PUBACK', code, 5);
          this.options.log?.warn(
            { op, responseTopic: topic, reason },
            `request ${op}: the broker refused the answer on its response topic "${topic}": ${reason}; it was answered on ${this.topics.response(op)}`,
          );
        },
      });
    };
  }

  /** Forgets the answers sent at least `sends` times and not acknowledged, each logged. */
  private dropAnswersInFlight(why: string, sends = 1): void {
    for (const answer of this.unacknowledgedAnswers) {
      if (answer.sends < sends) continue;
      this.unacknowledgedAnswers.delete(answer);
      this.options.log?.warn(
        { topic: answer.topic, sends: answer.sends },
        `answer dropped: ${why}`,
      );
    }
  }

  /** Publishes an answer now, or on the next connect; kept until the broker acknowledges it. */
  private sendAnswer(answer: Answer): void {
    this.unacknowledgedAnswers.add(answer);
    this.publishAnswer(answer);
  }

  private publishAnswer(answer: Answer): void {
    const client = this.client;
    if (!client || !this.connected) return; // sent on the next connect
    answer.sends++;
    client.publish(answer.topic, answer.body, answer.options, (error) => {
      const code = (error as { code?: unknown } | undefined)?.code;
      // Another error is the connection going: the answer is sent again on the next.
      if (error && typeof code !== 'number') return;
      this.unacknowledgedAnswers.delete(answer);
      if (typeof code === 'number') answer.refused?.(code);
    });
  }

  private async onMessage(
    topic: string,
    payload: Buffer,
    retained: boolean,
    properties: RequestProperties | undefined,
  ): Promise<void> {
    const op = this.topics.opOf(topic);
    if (op === undefined) return;
    const reply = this.replier(op, properties);
    const respond = (body: Record<string, unknown>, transaction: string | number | undefined) =>
      reply(JSON.stringify(transaction === undefined ? body : { ...body, transaction }));
    const admitted = admitRequest(this.options.authorize, topic, payload, {
      retained,
      busy: this.requestsInHand >= REQUESTS_IN_HAND_MAX,
    });
    if (admitted.refused) {
      const { code, error, transaction } = admitted.refused;
      this.options.log?.warn({ op, code, error }, 'request refused');
      this.emit('refused', op, code, error);
      respond({ status: 'error', code, error }, transaction);
      return;
    }
    if ('problem' in admitted) {
      respond({ status: 'error', code: 'bad_request', error: admitted.problem }, undefined);
      return;
    }
    const parsed = parseRequestFields(op, admitted.fields);
    if (!parsed.ok) {
      respond({ status: 'error', code: 'bad_request', error: parsed.error }, parsed.transaction);
      return;
    }
    this.requestsInHand++;
    try {
      const data = await this.options.onRequest(parsed.request, { signer: admitted.signer });
      respond({ status: 'ok', data: data ?? {} }, parsed.transaction);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      respond(
        {
          status: 'error',
          code: typeof code === 'string' ? code : 'failed',
          error: error instanceof Error ? error.message : String(error),
        },
        parsed.transaction,
      );
    } finally {
      this.requestsInHand--;
    }
  }
}

/** An answer to a request, kept until the broker acknowledges it. */
/** An answer whose connection went this many times while it was in flight is dropped, logged. */
const ANSWER_SENDS_MAX = 2;
/** MQTT 5 DISCONNECT reason 0x95: the broker closed the connection for a packet over its limit. */
const PACKET_TOO_LARGE = 0x95;

interface Answer {
  topic: string;
  body: string;
  options: IClientPublishOptions;
  /** Times handed to the client; at most ANSWER_SENDS_MAX. */
  sends: number;
  /** The broker refused it (an MQTT 5 reason code): it is not sent again. */
  refused?: (code: number) => void;
}

/** The MQTT 5 properties of a request the bridge reads. */
interface RequestProperties {
  responseTopic?: string | undefined;
  correlationData?: Buffer | undefined;
}

const noLog = (): void => undefined;

/** An alarm that did not go through the journal: no seq, `journaled: false`. */
function unjournaledAlarm(kind: string, message: string): Record<string, unknown> {
  return { type: 'alarm', kind, message, ts: Date.now(), journaled: false };
}

/**
 * The same alarm from a daemon that never got its bridge up (its journal
 * cannot even be opened, e.g. on a full disk): one short connection of its
 * own (a client id of its own, a clean session, no will), one QoS 1
 * publication, then gone. Resolves whether or not the broker was reachable.
 */
export async function publishAlarmWithoutBridge(
  options: Pick<
    BridgeOptions,
    'url' | 'table' | 'baseTopic' | 'clientId' | 'protocolVersion' | 'username' | 'password' | 'tls'
  >,
  kind: string,
  message: string,
  timeoutMs = 3000,
): Promise<void> {
  const connector = await (await import('./connect.ts')).mqttConnectorFor(options.url);
  const client = connector.connect(options.url, {
    clientId: `${options.clientId ?? `tableside-${options.table}`}-alarm`,
    protocolVersion: options.protocolVersion ?? 4,
    clean: true,
    reconnectPeriod: 0,
    connectTimeout: timeoutMs,
    log: noLog,
    ...(options.username !== undefined ? { username: options.username } : {}),
    ...(options.password !== undefined ? { password: options.password } : {}),
    ...(await readTlsFiles(options.tls).catch(() => ({}))),
    ...(options.tls?.rejectUnauthorized === false ? { rejectUnauthorized: false } : {}),
  });
  client.on('error', () => undefined);
  const topic = tableTopics(options.baseTopic, options.table).events('alarm');
  try {
    await withTimeout(
      new Promise<void>((resolve, reject) => {
        client.once('connect', () =>
          client.publish(topic, JSON.stringify(unjournaledAlarm(kind, message)), { qos: 1 }, (e) =>
            e ? reject(e) : resolve(),
          ),
        );
        client.once('close', () => reject(new Error('no connection')));
      }),
      timeoutMs,
    );
  } catch {
    // Unreachable: the daemon's own exit line and log say it.
  } finally {
    client.end(true);
  }
}

/**
 * What the bridge publishes for an event record: the topic kind and the
 * payload (`withheld`: the reason only its seq may go out). `exposure`: the
 * card of the input these events follow. Pure: `journal verify --events`
 * compares a consumer's capture with it.
 */
export function publicationOf(
  record: JournalRecord,
  exposure: CardExposure | undefined,
): { kind: EventTopicKind; payload: string; withheld?: string } {
  const event = record.data as DomainEvent;
  const screened = screenEvent(event, exposure);
  if (screened.publish) {
    return {
      kind: eventTopicKind(event),
      payload: eventPayload(record.seq, record.ts, screened.event),
    };
  }
  // Consumers still see the seq (no gap), but nothing of its content.
  return {
    kind: 'alarm',
    payload: eventPayload(record.seq, record.ts, {
      type: 'event_withheld',
      reason: screened.reason,
    }),
    withheld: screened.reason,
  };
}

/**
 * `{"seq":…,"ts":…,<the event's fields>}`, as `{ seq, ts, ...event }` would
 * stringify (a field of the event named seq or ts comes later and wins on
 * parsing, as it did in the spread), without copying the event first.
 */
export function eventPayload(seq: number, ts: number, event: object): string {
  const fields = JSON.stringify(event);
  const head = `{"seq":${seq},"ts":${ts}`;
  return fields === '{}' ? `${head}}` : `${head},${fields.slice(1)}`;
}

type Admitted =
  | {
      refused?: undefined;
      /** The payload's fields, without `auth`. */
      fields: Record<string, unknown>;
      signer: string | undefined;
    }
  /** A body that is not a JSON object, on a table that takes unsigned requests. */
  | { refused?: undefined; problem: string }
  | {
      refused: { code: string; error: string; transaction: string | number | undefined };
    };

/**
 * The gate every request passes before its fields are read: its size
 * (unread when too large), its retain flag, the table's load, then the
 * authorizer (its signature), whatever its body. A body that is not a JSON
 * object carries no fields and no signature: it is checked as a request
 * with none, so a table that needs signatures refuses it (`unsigned`), and
 * a bench answers it `bad_request` naming what was wrong.
 */
function admitRequest(
  authorize: RequestAuthorizer | undefined,
  topic: string,
  payload: Buffer,
  state: { retained: boolean; busy: boolean },
): Admitted {
  const refuse = (code: string, error: string, transaction?: string | number) => ({
    refused: { code, error, transaction },
  });
  if (payload.length > REQUEST_MAX_BYTES) {
    return refuse(
      'too_large',
      `request of ${payload.length} bytes refused unread: at most ${REQUEST_MAX_BYTES} bytes`,
    );
  }
  const decoded = decodeRequestBody(payload);
  const body = decoded.ok ? decoded.body : undefined;
  const transaction = transactionOf(body);
  if (state.retained) {
    // Obeyed once, it would be obeyed again at every connect of the table.
    return refuse(
      'retained',
      `a retained request is never obeyed (the broker hands it over again at every connect); publish it without retain, and clear this one: mosquitto_pub -r -n -t ${topic}`,
      transaction,
    );
  }
  if (state.busy) {
    return refuse(
      'busy',
      `the table has ${REQUESTS_IN_HAND_MAX} requests in hand; send it again once they are answered`,
      transaction,
    );
  }
  const fields = isJsonObject(body) ? body : {};
  let check: ReturnType<RequestAuthorizer>;
  try {
    check = authorize ? authorize(topic, fields) : { ok: true, fields, signer: undefined };
  } catch (error) {
    // A checker that throws must not take the daemon down: the request is refused.
    check = { ok: false, code: 'bad_request', error: `request not checked: ${String(error)}` };
  }
  const problem = !decoded.ok ? decoded.error : isJsonObject(body) ? undefined : NOT_AN_OBJECT;
  if (!check.ok) {
    return refuse(check.code, problem ? `${problem}; ${check.error}` : check.error, transaction);
  }
  if (problem !== undefined) return { problem };
  return { fields: check.fields, signer: check.signer };
}

async function readTlsFiles(
  tls: BridgeTls | undefined,
): Promise<{ ca?: Buffer; cert?: Buffer; key?: Buffer }> {
  const files: { ca?: Buffer; cert?: Buffer; key?: Buffer } = {};
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

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
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
