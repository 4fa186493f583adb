/**
 * The web console's narrow port: exactly what it reads of the table and asks
 * of it. The daemon implements it (daemon/extensions/web-console.ts); the
 * console never sees the daemon, its class or its config, so web/ imports
 * nothing of daemon/.
 */
import type { DeviceConfig } from '../config/schema.ts';
import type { DriverStatus } from '../drivers/driver.ts';
import type { JournalRecord } from '../journal/record.ts';
import type { JournalSource } from '../mqtt/bridge.ts';
import type { TableLogRecord } from '../table/log.ts';

/** What the console follows: durable records, the operator's notices, devices coming and going. */
export interface ConsoleEvents {
  journaled: [records: readonly JournalRecord[]];
  notice: [level: string, message: string];
  availability: [device: string, availability: string, reason: string];
}

/** The doors a supervisor's request goes through: the same an MQTT request uses. */
export interface ConsoleRequestPort {
  /** The ruleset in force: the requests a table takes are its game's. */
  readonly ruleset: string;
  newShoe(reason: string, src?: string): Promise<readonly JournalRecord[]>;
  /** `refuseIrregular`: a record the table would answer with an alarm is refused and changes nothing. */
  ingest(
    record: TableLogRecord,
    options?: { refuseIrregular?: boolean },
  ): Promise<readonly JournalRecord[]>;
  setRuleset(name: string, src?: string): Promise<Record<string, unknown>>;
}

export interface ConsolePort extends ConsoleRequestPort {
  readonly table: string;
  readonly lastSeq: number;
  /** The journal's durable records, in order; undefined until it is open. */
  readonly journalFeed: JournalSource | undefined;
  /** The journal's folder: the console verifies it and reports its free space. */
  readonly journalDir: string;
  /** The configured devices: their firmware allow-lists and pairing. */
  readonly devices: Readonly<Record<string, DeviceConfig>>;
  readonly brokerAddress: string;
  readonly brokerConnected: boolean;
  snapshot(): Record<string, unknown>;
  /** What the table's game publishes besides its state, by name (baccarat's `roads`): a feed frame each. */
  published(): Readonly<Record<string, Record<string, unknown>>>;
  /** The seq of the shoe in play's `shoe_start` (0 before the first). */
  shoeStartSeq(): number;
  deviceStatus(): DriverStatus[];
  /** Follows one kind of table event; returns what stops following it. */
  subscribe<E extends keyof ConsoleEvents>(
    event: E,
    listener: (...args: ConsoleEvents[E]) => void,
  ): () => void;
}
