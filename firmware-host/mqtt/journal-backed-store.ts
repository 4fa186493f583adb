/**
 * An outgoing store for MQTT.js that keeps nothing. MQTT.js's default
 * store holds every QoS 1 publish until its PUBACK so that it can resend
 * it after a reconnect; the bridge never lets MQTT.js reconnect (one client
 * per connection) and resends from the journal cursor instead, so that
 * second, in-memory copy only cost a Map entry and its bookkeeping per
 * event. MQTT.js still tracks its in-flight packet ids itself.
 */
import { Readable } from 'node:stream';
import type { IStore } from 'mqtt';

type Callback = Parameters<IStore['put']>[1];
type PacketCallback = Parameters<IStore['del']>[1];
type StoredPacket = Parameters<PacketCallback>[1];

export class JournalBackedStore implements IStore {
  put(_packet: unknown, cb: Callback): this {
    cb?.();
    return this;
  }

  /** Nothing to resend on a connect: the bridge resends from the journal. */
  createStream(): ReturnType<IStore['createStream']> {
    return Readable.from([], { objectMode: true }) as unknown as ReturnType<IStore['createStream']>;
  }

  /** The PUBACK of a packet MQTT.js tracks: nothing kept, so nothing to remove. */
  del(packet: { messageId?: number | undefined }, cb: PacketCallback): this {
    cb?.(undefined, packet as StoredPacket);
    return this;
  }

  get(_packet: { messageId?: number | undefined }, cb: PacketCallback): this {
    cb?.(new Error('the journal-backed store keeps no packets'));
    return this;
  }

  close(cb: Callback): void {
    cb?.();
  }
}
