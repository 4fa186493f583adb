/**
 * The retained topics a consumer reads first: `bridge/state`, `bridge/info`,
 * each device's availability, the table snapshot (`state`), the signed
 * journal head and what the table's game publishes besides its state
 * (baccarat's roads), each on `<table>/<name>`. Each is remembered and published at once when
 * connected, and all are published again at every (re)connect, `online`
 * first, so a consumer sees it before the backlog of events.
 */
import { MqttError } from '../errors.ts';
import { findForbiddenKey } from '../guard.ts';
import type { TableTopics } from '../topics.ts';
import type { BridgeConnection } from './connection.ts';

export type DeviceAvailability = 'online' | 'offline' | 'quarantined';

export class RetainedTopics {
  #info: Record<string, unknown>;
  readonly #availability = new Map<string, DeviceAvailability>();
  #snapshot: string | undefined;
  #journalHead: string | undefined;
  /** By name: what the game publishes besides the state. */
  readonly #published = new Map<string, string>();

  constructor(
    private readonly topics: TableTopics,
    private readonly connection: Pick<BridgeConnection, 'publishRetained'>,
    info: Record<string, unknown>,
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
    const forbidden = findForbiddenKey(snapshot);
    if (forbidden) {
      throw new MqttError('withheld', `state snapshot not published: it carries "${forbidden}"`);
    }
    this.#snapshot = JSON.stringify(snapshot);
    this.connection.publishRetained(this.topics.state, this.#snapshot);
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
