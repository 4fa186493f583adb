/**
 * The retained topics a consumer reads first: `bridge/state`, `bridge/info`,
 * each device's availability, the table snapshot (`state`), the signed
 * journal head and what the table's game publishes besides its state
 * (baccarat's roads), each on `<table>/<name>`. Each is remembered and published at once when
 * connected, and all are published again at every (re)connect, `online`
 * first, so a consumer sees it before the backlog of events.
 */
import type { Logger } from '../../log.ts';
import { MqttError } from '../errors.ts';
import { findForbiddenKey } from '../guard.ts';
import type { TableTopics } from '../topics.ts';
import type { BridgeConnection } from './connection.ts';

export type DeviceAvailability = 'online' | 'offline' | 'quarantined';

export class RetainedTopics {
  #info: Record<string, unknown>;
  readonly #availability = new Map<string, DeviceAvailability>();
  #snapshot: string | undefined;
  #stateSource: (() => Record<string, unknown>) | undefined;
  #journalHead: string | undefined;
  /** By name: what the game publishes besides the state. */
  readonly #published = new Map<string, string>();

  constructor(
    private readonly topics: TableTopics,
    private readonly connection: Pick<BridgeConnection, 'publishRetained'>,
    info: Record<string, unknown>,
    private readonly log?: Logger,
  ) {
    this.#info = info;
  }

  /** At each connect, `online` first. */
  republish(): void {
    const publish = (topic: string, payload: string) =>
      this.connection.publishRetained(topic, payload);
    publish(this.topics.bridgeState, 'online');
    publish(this.topics.bridgeInfo, JSON.stringify(this.#info));
    for (const [device, availability] of this.#availability) {
      publish(this.topics.deviceAvailability(device), availability);
    }
    this.#snapshot = this.#followedStateText() ?? this.#snapshot;
    if (this.#snapshot !== undefined) publish(this.topics.state, this.#snapshot);
    if (this.#journalHead !== undefined) publish(this.topics.journalHead, this.#journalHead);
    for (const [name, payload] of this.#published) publish(this.topics.published(name), payload);
  }

  setInfo(info: Record<string, unknown>): void {
    this.#info = info;
    this.connection.publishRetained(this.topics.bridgeInfo, JSON.stringify(info));
  }

  setDeviceAvailability(device: string, availability: DeviceAvailability): void {
    this.#availability.set(device, availability);
    this.connection.publishRetained(this.topics.deviceAvailability(device), availability);
  }

  /** The retained table snapshot. Refused (MqttError 'withheld') if it holds a shuffler order. */
  setState(snapshot: Record<string, unknown>): void {
    this.#snapshot = this.#stateText(snapshot);
    this.connection.publishRetained(this.topics.state, this.#snapshot);
  }

  /**
   * The snapshot is read from `source` each time it is published: now, at
   * every connect, and whenever `refreshState()` is called (the journal
   * publisher calls it as its events catch up, so that the state goes out in
   * the same socket write as the events that changed it).
   */
  followState(source: () => Record<string, unknown>): void {
    this.#stateSource = source;
    this.refreshState();
  }

  /**
   * Publishes the followed snapshot as it is now; nothing when none is
   * followed. A snapshot the guard refuses is logged and not published (the
   * last one stays retained): the callers publish events, which must go on.
   */
  refreshState(): void {
    const text = this.#followedStateText();
    if (text === undefined) return;
    this.#snapshot = text;
    this.connection.publishRetained(this.topics.state, text);
  }

  #followedStateText(): string | undefined {
    if (!this.#stateSource) return undefined;
    try {
      return this.#stateText(this.#stateSource());
    } catch (error) {
      this.log?.error({ err: error }, 'state snapshot withheld');
      return undefined;
    }
  }

  #stateText(snapshot: Record<string, unknown>): string {
    const forbidden = findForbiddenKey(snapshot);
    if (forbidden) {
      throw new MqttError('withheld', `state snapshot not published: it carries "${forbidden}"`);
    }
    return JSON.stringify(snapshot);
  }

  /** The journal's last signed head, retained on `journal/head`. */
  setJournalHead(head: Record<string, unknown>): void {
    this.#journalHead = JSON.stringify(head);
    this.connection.publishRetained(this.topics.journalHead, this.#journalHead);
  }

  /** What the game publishes under `name` (baccarat's roads), republished on every connect. */
  setPublished(name: string, payload: Record<string, unknown>): void {
    const topic = this.topics.published(name);
    const text = JSON.stringify(payload);
    this.#published.set(name, text);
    this.connection.publishRetained(topic, text);
  }
}
