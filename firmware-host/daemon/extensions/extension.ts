/**
 * What the daemon's features are to the daemon: extensions. Each starts with
 * the context the table core gives it (the journal, the bus, the table's
 * port) and stops through the same interface; the daemon starts them in a
 * stated order and stops them in reverse (`ExtensionRunner`).
 */
import type { KeyObject } from 'node:crypto';
import type { TablesideConfig } from '../../config/schema.ts';
import type { DriverStatus, SpinPart } from '../../drivers/driver.ts';
import type { GameExpectation } from '../../games/game.ts';
import type { Journal } from '../../journal/journal.ts';
import type { JournalRecord } from '../../journal/record.ts';
import type { Logger } from '../../log.ts';
import type { JournalSource } from '../../mqtt/bridge.ts';
import type { BridgeRequest } from '../../mqtt/requests.ts';
import type { DomainEvent } from '../../table/events.ts';
import type { TableLogRecord } from '../../table/log.ts';
import type { DaemonBus } from '../bus.ts';
import type { SpinPartMessage } from '../spin-parts.ts';

export interface IngestOptions {
  /** Refuse (DaemonError 'refused', nothing journaled) a record the session would answer with an alarm: for requests. */
  refuseIrregular?: boolean;
}

/** What the table core offers its extensions: reads of the table and the doors into it. */
export interface TableHost {
  readonly table: string;
  readonly ruleset: string;
  readonly lastSeq: number;
  /** The journal as the bridge and the web console read it: durable records only, in order. */
  readonly journalFeed: JournalSource | undefined;
  readonly brokerAddress: string;
  readonly brokerConnected: boolean;
  snapshot(): Record<string, unknown>;
  expecting(): GameExpectation;
  /** The back colours the table expects of its next shuffle (the other deck's, where they alternate). */
  expectedShuffleBacks(): string[];
  deviceStatus(): DriverStatus[];
  /** What the table's game publishes besides its state, by name (baccarat's `roads`); empty where nothing. */
  published(): Readonly<Record<string, Record<string, unknown>>>;
  shoeStartSeq(): number;
  /** What bridge/info says of the table. */
  info(): Record<string, unknown>;
  ingest(record: TableLogRecord, options?: IngestOptions): Promise<readonly JournalRecord[]>;
  newShoe(reason: string, src?: string): Promise<readonly JournalRecord[]>;
  setRuleset(name: string, src?: string): Promise<Record<string, unknown>>;
  handleRequest(request: BridgeRequest, signer?: string): Promise<unknown>;
  /** Journals an alarm that has no input; one the journal refuses is reported, never dropped. */
  journalAlarm(alarm: DomainEvent): void;
  /** Whether a device's record is a retransmission of one journaled before this start. */
  alreadyJournaled(device: string, dseq: number, record: TableLogRecord): boolean;
  /** Journals a ROTOR or BALL of a wheel's spin under way, then ACKs it. */
  journalSpinPart(part: SpinPart): void;
  /** The parts of a wheel's spin under way, as journaled: a restart gives them back to its driver. */
  spinUnderWay(device: string): readonly SpinPartMessage[];
}

export interface ExtensionContext {
  config: TablesideConfig;
  /** The daemon's logger; an extension may take one of its own. */
  log: Logger;
  clock: () => number;
  /** When this start began (a request signed as the daemon came up is accepted). */
  startedAt: number;
  /** Open and replayed before any extension starts. */
  journal: Journal;
  /** The table's signing key (journal.signingKey), when configured: never logged, published or journaled. */
  tableKey: KeyObject | undefined;
  bus: DaemonBus;
  table: TableHost;
}

export interface Extension {
  /** For the logs. */
  readonly name: string;
  start(context: ExtensionContext): Promise<void>;
  /** Also called after a start that failed midway: it releases what that start took. */
  stop(): Promise<void>;
}

/** Steps that undo a start, run in reverse; one that fails is logged and the rest still run. */
export class Teardown {
  private readonly steps: Array<() => Promise<void> | void> = [];

  add(step: () => Promise<void> | void): void {
    this.steps.push(step);
  }

  async run(log: Logger): Promise<void> {
    for (const step of this.steps.splice(0).reverse()) {
      try {
        await step();
      } catch (error) {
        log.warn({ err: error }, 'while stopping');
      }
    }
  }
}

/**
 * Starts extensions in the order given and stops them in reverse. A start
 * that fails stops that extension and every one started before it, then
 * rethrows: nothing is left running half-started.
 */
export class ExtensionRunner {
  private readonly started: Extension[] = [];

  constructor(private readonly log: Logger) {}

  async start(extensions: readonly Extension[], context: ExtensionContext): Promise<void> {
    for (const extension of extensions) {
      // Listed before its start: one that fails midway is stopped with the others.
      this.started.push(extension);
      try {
        await extension.start(context);
      } catch (error) {
        await this.stop();
        throw error;
      }
    }
  }

  async stop(): Promise<void> {
    for (const extension of this.started.splice(0).reverse()) {
      try {
        await extension.stop();
      } catch (error) {
        this.log.warn({ err: error, extension: extension.name }, 'while stopping');
      }
    }
  }
}
