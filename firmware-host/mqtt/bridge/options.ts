/** What the MQTT bridge is given and what it tells: its options, its sources and its events. */

import type { JournalRecord } from '../../journal/record.ts';
import type { Logger } from '../../log.ts';
import type { BackoffOptions } from '../backoff.ts';
import type { BridgeRequest } from '../requests.ts';

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

/** How a part of the bridge tells what happened: the bridge's own `emit`. */
export type EmitBridgeEvent = <K extends keyof BridgeEvents>(
  event: K,
  ...args: BridgeEvents[K]
) => void;

/** The connection as the other parts see it: the live client, if any, and whose it is. */
export interface LiveConnection {
  /** The client while connected; undefined between connections. */
  readonly client: MqttClientLike | undefined;
  readonly isConnected: boolean;
  /** Stopped for good: nothing more is published. */
  readonly stopped: boolean;
  /** Bumped on every connection, so callbacks of a dead connection change nothing. */
  readonly generation: number;
  readonly protocolVersion: 4 | 5;
}

/** The part of an MQTT.js client the parts use (the connection hands them the real one). */
export type MqttClientLike = import('mqtt').MqttClient;

/** `error` as an Error, whatever was thrown. */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
