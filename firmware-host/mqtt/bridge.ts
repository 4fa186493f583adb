/**
 * The MQTT bridge: publishes the journal's events, keeps the retained
 * topics, and turns requests into calls of the daemon's handler. It only
 * composes its parts (`bridge/`), one concern each, as the connection's
 * events say:
 * - `connection.ts`: the broker connection, our reconnects with backoff, the
 *   request subscription, the will and `offline` at stop;
 * - `journal-publisher.ts`: the journal's events from the durable cursor, at
 *   most `inflight` awaiting their PUBACK, the cursor moved past the
 *   acknowledged ones (an outage delays events, never drops them);
 * - `request-responder.ts`: the gate, the handler, the answers kept until
 *   the broker has them;
 * - `retained-topics.ts`: `bridge/state`, `bridge/info`, availability,
 *   `state`, `journal/head`, `roads`, republished at every connect;
 * - `publication.ts` (pure) and `unjournaled-alarm.ts`.
 * MQTT.js keeps no copy of the events in flight (journal-backed-store.ts):
 * the journal is the durable store.
 */
import { EventEmitter } from 'node:events';
import { BridgeConnection } from './bridge/connection.ts';
import { JournalPublisher } from './bridge/journal-publisher.ts';
import type { BridgeEvents, BridgeOptions } from './bridge/options.ts';
import { RequestResponder } from './bridge/request-responder.ts';
import { type DeviceAvailability, RetainedTopics } from './bridge/retained-topics.ts';
import { publishUnjournaledAlarmOn } from './bridge/unjournaled-alarm.ts';
import { type TableTopics, tableTopics } from './topics.ts';

export type {
  BridgeEvents,
  BridgeOptions,
  BridgeTls,
  CursorSink,
  JournalSource,
  RequestAuthorizer,
  RequestHandler,
  RequestOrigin,
} from './bridge/options.ts';
export { eventPayload, publicationOf } from './bridge/publication.ts';
export { REQUEST_MAX_BYTES, REQUESTS_IN_HAND_MAX } from './bridge/request-responder.ts';
export { publishAlarmWithoutBridge } from './bridge/unjournaled-alarm.ts';

export class MqttBridge extends EventEmitter<BridgeEvents> {
  readonly topics: TableTopics;
  readonly #connection: BridgeConnection;
  readonly #publisher: JournalPublisher;
  readonly #responder: RequestResponder;
  readonly #retained: RetainedTopics;
  #unsubscribeJournal: (() => void) | undefined;

  constructor(private readonly options: BridgeOptions) {
    super();
    this.topics = tableTopics(options.baseTopic, options.table);
    const emit = this.emit.bind(this) as <K extends keyof BridgeEvents>(
      event: K,
      ...args: BridgeEvents[K]
    ) => void;
    this.#connection = new BridgeConnection(options, this.topics);
    this.#retained = new RetainedTopics(
      this.topics,
      this.#connection,
      options.info ?? {},
      options.log,
    );
    // The followed state goes out with the events that changed it, in their socket write.
    this.#publisher = new JournalPublisher(options, this.topics, this.#connection, emit, () =>
      this.#retained.refreshState(),
    );
    this.#responder = new RequestResponder(options, this.topics, this.#connection, emit);
    this.#connection.on('connected', () => {
      // Retained topics first, so a consumer sees `online` before the backlog.
      this.#retained.republish();
      this.#responder.resendAnswers();
      this.#publisher.restartFromCursor();
      this.emit('connected');
      this.#publisher.pump();
    });
    this.#connection.on('closed', (reason, wasConnected) => {
      this.#publisher.restartFromCursor();
      if (wasConnected) this.emit('disconnected', reason);
    });
    this.#connection.on('brokerDisconnect', (code) => this.#responder.brokerDisconnected(code));
    this.#connection.on('message', (topic, payload, retained, properties) => {
      void this.#responder.onMessage(topic, payload, retained, properties);
    });
    this.#connection.on('error', (error) => this.emit('error', error));
    // An 'error' with no listener would throw; the bridge reports and carries on.
    this.on('error', () => undefined);
  }

  /** Starts connecting (in the background) and publishing. Rejects only for unreadable TLS files. */
  async start(): Promise<void> {
    if (!this.#connection.stopped) return;
    await this.#connection.start();
    this.#unsubscribeJournal = this.options.journal.onDurable(() => this.#publisher.pump());
  }

  /** Publishes `offline`, waits (briefly) for it to be acknowledged, and disconnects. */
  async stop(timeoutMs = 2000): Promise<void> {
    if (this.#connection.stopped) return;
    this.#unsubscribeJournal?.();
    await this.#connection.stop(timeoutMs);
  }

  /**
   * Publishes an alarm that cannot go through the journal, because the
   * journal itself failed (a full disk): consumers hear why the table stops
   * before `bridge/state` goes offline. It has no seq and is not replayed.
   * Resolves once the broker has it, or after `timeoutMs`.
   */
  async publishUnjournaledAlarm(kind: string, message: string, timeoutMs = 2000): Promise<void> {
    await publishUnjournaledAlarmOn(
      this.#connection.client,
      this.topics.events('alarm'),
      kind,
      message,
      timeoutMs,
    );
  }

  get isConnected(): boolean {
    return this.#connection.isConnected;
  }

  /** The last seq through which every event was acknowledged by the broker. */
  get acknowledgedSeq(): number {
    return this.#publisher.acknowledgedSeq;
  }

  /** Connections made so far (for health reports). */
  get connections(): number {
    return this.#connection.connections;
  }

  setInfo(info: Record<string, unknown>): void {
    this.#retained.setInfo(info);
  }

  setDeviceAvailability(device: string, availability: DeviceAvailability): void {
    this.#retained.setDeviceAvailability(device, availability);
  }

  /** The retained table snapshot. Refused (MqttError 'withheld') if it holds a shuffler order. */
  setState(snapshot: Record<string, unknown>): void {
    this.#retained.setState(snapshot);
  }

  /**
   * The retained table snapshot, read from `source` as it is published: now,
   * at every connect, and each time the journal's events published catch up
   * with the journal, in the same socket write as those events (one write
   * and one wake-up of the broker per card, not two). A snapshot the guard
   * refuses is logged and not published.
   */
  followState(source: () => Record<string, unknown>): void {
    this.#retained.followState(source);
  }

  /** The journal's last signed head, retained on `journal/head`. */
  setJournalHead(head: Record<string, unknown>): void {
    this.#retained.setJournalHead(head);
  }

  /** What the table's game publishes besides its state (baccarat's `roads`), retained, republished on every connect. */
  setPublished(name: string, payload: Record<string, unknown>): void {
    this.#retained.setPublished(name, payload);
  }
}
