/**
 * The daemon's typed event bus: what the table core tells its extensions
 * (and the terminal view). The core emits, extensions listen: none of them
 * calls another, so an extension is added or removed without touching the
 * core (zigbee2mqtt's extensions work the same way).
 */
import type { EventEmitter } from 'node:events';
import type { JournalRecord } from '../journal/record.ts';

export type PublishedAvailability = 'online' | 'offline' | 'quarantined';

/** A device's line changed state (the reconnecting link's report). */
export interface DeviceLineChange {
  /** `opening`, `open`, `reopening` (waiting `delayMs`), `closed`, `failed`. */
  state: string;
  /** Why: the OS error and the path of a failed open, the close's reason, ... */
  reason: string;
  /** Failed opens since the line was last open. */
  attempt: number;
  /** For `reopening`: how long until the next open. */
  delayMs?: number;
  url: string;
}

export interface DaemonEvents {
  /** Records made durable, in journal order (inputs, events, meta). */
  journaled: [records: readonly JournalRecord[]];
  /** A device's availability changed. */
  availability: [device: string, availability: 'online' | 'offline', reason: string];
  /** A device's line opened, closed, failed to open or waits to reopen. */
  deviceLine: [device: string, change: DeviceLineChange];
  /** The MQTT side connected or lost its broker. */
  broker: [connected: boolean, detail: string];
  /** The journal failed: the table cannot go on and must restart to recover. */
  fatal: [error: Error];
  /** Something the operator should read (recovery, refused requests, device notices). */
  notice: [level: 'info' | 'warn' | 'error', message: string];
  /** The journal failed: emitted just before `fatal`, so the alarm can leave before anything stops. */
  journalFailed: [error: unknown];
  /** A device's availability as published: a quarantined device is online but refused. */
  deviceAvailability: [device: string, availability: PublishedAvailability];
  /** The table's identity changed (ruleset, a device's pairing state): `info()` says what it is now. */
  info: [];
  /** What the table's game publishes besides its state changed (baccarat's `roads`), by its name. */
  published: [name: string, payload: Record<string, unknown>];
  /** A signed chain head was made durable. */
  head: [head: Record<string, unknown>];
}

export type DaemonBus = EventEmitter<DaemonEvents>;
