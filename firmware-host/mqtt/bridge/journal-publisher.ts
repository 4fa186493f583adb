/**
 * The journal's events to the broker: read in seq order from the last seq
 * the broker acknowledged (a durable cursor), at most `inflight` awaiting
 * their PUBACK at once; the cursor moves past an event only when it and
 * every event before it were acknowledged. After a disconnect publishing
 * starts again from the cursor: a broker outage or a restart delays events,
 * never drops them; an event may arrive twice, so consumers dedupe by `seq`.
 */
import type { MqttClient } from 'mqtt';
import type { JournalRecord } from '../../journal/record.ts';
import { MqttError } from '../errors.ts';
import { type CardExposure, exposureOfInput } from '../guard.ts';
import { eventProperties } from '../properties.ts';
import { describeReason } from '../reason-codes.ts';
import type { TableTopics } from '../topics.ts';
import {
  asError,
  type BridgeOptions,
  type EmitBridgeEvent,
  type LiveConnection,
} from './options.ts';
import { publicationOf } from './publication.ts';

interface Slot {
  seq: number;
  done: boolean;
}

export class JournalPublisher {
  readonly #inflightLimit: number;
  #ackedThrough: number;
  #nextSeq: number;
  #window: Slot[] = [];
  /** The card of the latest journal input, for the events it caused (see guard.ts). */
  #exposure: CardExposure | undefined;
  #pumping = false;
  #pumpAgain = false;

  constructor(
    private readonly options: Pick<BridgeOptions, 'journal' | 'cursor' | 'inflight' | 'log'>,
    private readonly topics: TableTopics,
    private readonly connection: LiveConnection,
    private readonly emit: EmitBridgeEvent,
    /** Called within a batch's cork once its events reach the journal's last record: what else goes in that write. */
    private readonly caughtUp: () => void = () => undefined,
  ) {
    this.#inflightLimit = options.inflight ?? 32;
    if (!Number.isInteger(this.#inflightLimit) || this.#inflightLimit < 1) {
      throw new MqttError(
        'bad_options',
        `inflight must be a positive integer, got ${options.inflight}`,
      );
    }
    this.#ackedThrough = options.cursor.current;
    this.#nextSeq = this.#ackedThrough + 1;
  }

  /** The last seq through which every event was acknowledged by the broker. */
  get acknowledgedSeq(): number {
    return this.#ackedThrough;
  }

  /** A connection came or went: what was in flight is sent again from the cursor. */
  restartFromCursor(): void {
    this.#window = [];
    this.#nextSeq = this.#ackedThrough + 1;
    // Reading resumes mid-journal: no card counts as exposed until its input is read again.
    this.#exposure = undefined;
  }

  /** Publishes journal events while the in-flight window has room. */
  pump(): void {
    if (!this.connection.isConnected || this.connection.stopped) return;
    if (this.#pumping) {
      this.#pumpAgain = true;
      return;
    }
    this.#pumping = true;
    void this.#pumpLoop()
      .catch((error: unknown) => this.emit('error', asError(error)))
      .finally(() => {
        this.#pumping = false;
        if (this.#pumpAgain) {
          this.#pumpAgain = false;
          this.pump();
        }
      });
  }

  async #pumpLoop(): Promise<void> {
    const generation = this.connection.generation;
    const current = () => this.connection.isConnected && generation === this.connection.generation;
    while (current()) {
      const room = this.#inflightLimit - this.#inflight();
      if (room <= 0 || this.#nextSeq > this.options.journal.lastSeq) return;
      // From memory the batch goes out in the turn that made it durable, ahead of the
      // listeners that log and ACK; from the files it waits for the read.
      const max = Math.max(room, 64);
      const journal = this.options.journal;
      const records =
        journal.recentRange?.(this.#nextSeq, max) ?? (await journal.readRange(this.#nextSeq, max));
      if (records.length === 0 || generation !== this.connection.generation) return;
      this.#publishBatch(records, generation);
      this.#settle();
    }
  }

  /** One socket write for the events of a batch: the stream is corked around it. */
  #publishBatch(records: readonly JournalRecord[], generation: number): void {
    const client = this.connection.client;
    if (!client) return;
    const stream = client.stream;
    stream?.cork();
    try {
      for (const record of records) {
        if (generation !== this.connection.generation) return;
        if (record.seq !== this.#nextSeq) {
          throw new Error(`journal gave seq ${record.seq} where ${this.#nextSeq} was expected`);
        }
        if (record.kind !== 'event') {
          // The events that follow an input may name its card only if it left the shoe face up.
          if (record.kind === 'input') this.#exposure = exposureOfInput(record.data);
          // Inputs (a shuffle may hold the shuffler's order) and meta records are never published.
          this.#window.push({ seq: record.seq, done: true });
          this.#nextSeq++;
          continue;
        }
        if (this.#inflight() >= this.#inflightLimit) break;
        this.#publishEvent(client, record, generation);
        this.#nextSeq++;
      }
      if (this.#nextSeq > this.options.journal.lastSeq) this.caughtUp();
    } finally {
      // mqtt-packet corks the socket for each packet and uncorks it on the next tick: the
      // batch goes out now, in one write, not after whatever else this turn still runs.
      while (stream && stream.writableCorked > 0) stream.uncork();
    }
  }

  #inflight(): number {
    let count = 0;
    for (const slot of this.#window) if (!slot.done) count++;
    return count;
  }

  #publishEvent(client: MqttClient, record: JournalRecord, generation: number): void {
    const publication = publicationOf(record, this.#exposure);
    const topic = this.topics.events(publication.kind);
    if (publication.withheld !== undefined) {
      this.options.log?.error({ seq: record.seq, reason: publication.withheld }, 'event withheld');
      this.emit('withheld', record.seq, publication.withheld);
    }
    const slot: Slot = { seq: record.seq, done: false };
    this.#window.push(slot);
    const options =
      this.connection.protocolVersion === 5
        ? { qos: 1 as const, properties: eventProperties(record.seq) }
        : { qos: 1 as const };
    client.publish(topic, publication.payload, options, (error) => {
      if (generation !== this.connection.generation) return; // resent after the reconnect
      if (error) {
        // A reason code is the broker refusing it; anything else is the connection
        // going away, and the event is resent after the reconnect.
        const code = (error as { code?: unknown }).code;
        if (typeof code === 'number') this.#onEventRefused(client, topic, record.seq, code, error);
        return;
      }
      slot.done = true;
      this.#settle();
      this.pump();
    });
  }

  /**
   * An MQTT 5 broker refused an event (PUBACK >= 0x80: not authorized, quota
   * exceeded, ...). The cursor stays before it; the bridge reconnects and
   * resends from there after its backoff, so the event is delayed, not lost.
   */
  #onEventRefused(
    client: MqttClient,
    topic: string,
    seq: number,
    code: number,
    error: Error,
  ): void {
    const reason = describeReason('PUBACK', code, this.connection.protocolVersion);
    this.options.log?.error(
      { seq, topic, reason },
      `the broker refused event ${seq} on ${topic}: ${reason}; it stays in the journal and is sent again after a reconnect`,
    );
    this.emit('error', error);
    client.end(true);
  }

  /** Moves the cursor past the leading acknowledged slots. */
  #settle(): void {
    let advanced = false;
    while (this.#window[0]?.done) {
      this.#ackedThrough = this.#window.shift()!.seq;
      advanced = true;
    }
    if (!advanced) return;
    const seq = this.#ackedThrough;
    this.options.cursor.advance(seq).then(
      () => this.emit('acknowledged', seq),
      (error: unknown) => this.emit('error', asError(error)),
    );
  }
}
