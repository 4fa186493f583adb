/**
 * The composition root of a table: devices in, validated events out, nothing
 * lost. One instance per table process.
 *
 *   drivers ─► observation ─► TableSession (pure) ─► journal (fsync) ─► device ACK
 *   console / MQTT / web requests ─►┘                    └─► bus (bus.ts) ─► extensions
 *
 * This class only wires parts. The table core (`table-core.ts`: session,
 * journal, replay and checkpoints, `ingest()`) and its requests
 * (`table-requests.ts`) are behind the table's port (`TableHost`), which this
 * class implements; the features are extensions (extensions/): the MQTT
 * bridge and its broker, the journal's seal timer, what the game publishes
 * besides its state (baccarat's roads), the devices, the
 * simulators, the dealer console and the web console, started in that order
 * after the journal is open and stopped in reverse. They follow the bus (this
 * class is it) and reach the table through its port; none of them sees this
 * class.
 */

import type { KeyObject } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { VERSION } from '../../device-protocol/version.ts';
import { pairingPolicyOf, type TablesideConfig } from '../config/schema.ts';
import type { DeviceDriver, DriverStatus, SpinPart } from '../drivers/driver.ts';
import type { GameExpectation } from '../games/game.ts';
import { installedGames, rulesetIdentity } from '../games/registry.ts';
import type { RecoveryWarning } from '../journal/journal.ts';
import type { JournalRecord } from '../journal/record.ts';
import { type Logger, logger } from '../log.ts';
import type { JournalSource } from '../mqtt/bridge.ts';
import type { BridgeRequest } from '../mqtt/requests.ts';
import type { DomainEvent } from '../table/events.ts';
import type { TableLogRecord } from '../table/log.ts';
import { fingerprint } from '../trust/keys.ts';
import type { DaemonEvents } from './bus.ts';
import { loadDeviceKeys } from './device-keys.ts';
import { DealerConsoleExtension } from './extensions/dealer-console.ts';
import { DevicesExtension } from './extensions/devices.ts';
import {
  type ExtensionContext,
  ExtensionRunner,
  type IngestOptions,
  type TableHost,
} from './extensions/extension.ts';
import { GamingDayExtension } from './extensions/gaming-day.ts';
import { JournalSealingExtension } from './extensions/journal-sealing.ts';
import { announceJournalFailureAtStart, MqttBridgeExtension } from './extensions/mqtt-bridge.ts';
import { PublishedFoldsExtension } from './extensions/published-folds.ts';
import { SimulationExtension } from './extensions/simulation.ts';
import { WebConsoleExtension } from './extensions/web-console.ts';
import { reopenOnNewGamingDay } from './gaming-day.ts';
import { hostKeyPath, tableHostKey } from './host-key.ts';
import type { SpinPartMessage } from './spin-parts.ts';
import { TableCore } from './table-core.ts';
import { TableRequests } from './table-requests.ts';
import { loadTableKey } from './trust-setup.ts';

export type { DaemonEvents, IngestOptions };

export interface DaemonOptions {
  config: TablesideConfig;
  /** Wall clock, milliseconds since the epoch: stamped on records at this edge. */
  clock?: () => number;
  log?: Logger;
  /** Start the simulators of `simulate` devices (default true); tests may drive them instead. */
  simulate?: boolean;
}

export interface DaemonHealth {
  table: string;
  ruleset: string;
  version: string;
  uptimeMs: number;
  journal: { dir: string; lastSeq: number };
  mqtt: { url: string; connected: boolean; acknowledgedSeq: number };
  devices: DriverStatus[];
  expecting: GameExpectation;
}

export class TableDaemon extends EventEmitter<DaemonEvents> implements TableHost {
  readonly config: TablesideConfig;
  readonly log: Logger;
  private readonly clock: () => number;
  private readonly simulate: boolean;
  private readonly core: TableCore;
  private readonly requests: TableRequests;
  /** The features, started after the journal opens and stopped before it closes. */
  private readonly extensions: ExtensionRunner;
  private mqtt = new MqttBridgeExtension();
  private web = new WebConsoleExtension();
  private publishedFolds: PublishedFoldsExtension;
  private devices = new DevicesExtension(undefined);
  private startedAt = 0;
  private running = false;
  /** The table's signing key (journal.signingKey): never logged, published or journaled. */
  private tableKey: KeyObject | undefined;

  constructor(options: DaemonOptions) {
    super();
    this.config = options.config;
    this.clock = options.clock ?? Date.now;
    this.log = options.log ?? logger('daemon');
    this.simulate = options.simulate ?? true;
    this.core = new TableCore({ config: this.config, clock: this.clock, log: this.log, bus: this });
    this.requests = new TableRequests(this.core, this.log, () => this.health());
    this.extensions = new ExtensionRunner(this.log);
    this.publishedFolds = new PublishedFoldsExtension(this.core.game);
  }

  get table(): string {
    return this.config.table;
  }

  get ruleset(): string {
    return this.core.ruleset;
  }

  get brokerAddress(): string {
    return this.mqtt.brokerAddress;
  }

  get brokerConnected(): boolean {
    return this.mqtt.connected;
  }

  /** Where the web console listens (http(s)://host:port), when it is on. */
  get webAddress(): string | undefined {
    return this.web.url;
  }

  /** The web console's one-time supervisor login link, on a simulated bench only. */
  get webLoginLink(): string | undefined {
    return this.web.loginLink;
  }

  get recovery(): readonly RecoveryWarning[] {
    return this.core.recovery;
  }

  get lastSeq(): number {
    return this.core.lastSeq;
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** The journal as the bridge and the web console read it: durable records only, in order. */
  get journalFeed(): JournalSource | undefined {
    return this.core.openJournal;
  }

  snapshot(): Record<string, unknown> {
    return this.core.session.snapshot();
  }

  expecting(): GameExpectation {
    return this.core.session.expecting();
  }

  expectedShuffleBacks(): string[] {
    return this.core.game.shufflerBacks(this.core.session);
  }

  deviceStatus(): DriverStatus[] {
    return this.devices.status();
  }

  driver(name: string): DeviceDriver | undefined {
    return this.devices.driver(name);
  }

  /** Opens the journal and replays it, then starts the extensions: the broker and bridge, sealing, what the game publishes, the devices, the simulators, the consoles. */
  async start(): Promise<void> {
    if (this.running) return;
    this.startedAt = this.clock();
    // A game that breaks the plug-in contract stops the start, naming what it lacks, before a round.
    installedGames().check();
    try {
      // Device keys first: a key file the config names but that cannot be read stops the start.
      const deviceKeys = await loadDeviceKeys(this.config.devices);
      this.tableKey = await loadTableKey(this.config);
      const publishedFolds = new PublishedFoldsExtension(this.core.game);
      this.publishedFolds = publishedFolds;
      await this.core
        .open(this.tableKey, (record) => publishedFolds.followReplayed(record))
        .catch(async (error: unknown) => {
          await announceJournalFailureAtStart(this.config, error);
          throw error;
        });
      if (await reopenOnNewGamingDay(this.core, this.clock())) {
        this.log.info({ ruleset: this.ruleset }, 'a new gaming day: the closed table opens again');
      }
      this.mqtt = new MqttBridgeExtension();
      this.web = new WebConsoleExtension();
      // After the journal opened: its folder's parent (the state folder) exists.
      const hostKey = await tableHostKey(hostKeyPath(this.config));
      this.devices = new DevicesExtension(deviceKeys, hostKey);
      await this.extensions.start(
        [
          this.mqtt,
          new JournalSealingExtension(),
          this.publishedFolds,
          this.devices,
          ...(this.simulate ? [new SimulationExtension(this.devices)] : []),
          new DealerConsoleExtension(),
          new GamingDayExtension((now) => reopenOnNewGamingDay(this.core, now)),
          this.web,
        ],
        this.extensionContext(),
      );
    } catch (error) {
      await this.stop();
      throw error;
    }
    this.running = true;
    this.log.info(
      { table: this.table, ruleset: this.ruleset, lastSeq: this.lastSeq },
      'table running',
    );
  }

  /** Stops in reverse order: the consoles, the devices (nothing new comes in), the bridge (offline), the journal. */
  async stop(): Promise<void> {
    this.running = false;
    await this.extensions.stop();
    try {
      await this.core.close();
    } catch (error) {
      this.log.warn({ err: error }, 'while stopping');
    }
  }

  private extensionContext(): ExtensionContext {
    return {
      config: this.config,
      log: this.log,
      clock: this.clock,
      startedAt: this.startedAt,
      journal: this.core.requireJournal(),
      tableKey: this.tableKey,
      bus: this,
      table: this,
    };
  }

  // ------------------------------------------------------------ the table port

  ingest(record: TableLogRecord, options: IngestOptions = {}): Promise<readonly JournalRecord[]> {
    return this.core.ingest(record, options);
  }

  /** A new shoe from the ruleset's defaults (a shoe without a card-reading shuffler). */
  newShoe(reason: string, src = 'daemon'): Promise<readonly JournalRecord[]> {
    return this.requests.newShoe(reason, src);
  }

  /** MQTT requests: validated by the bridge; here they become table-log records. */
  handleRequest(request: BridgeRequest, signer?: string): Promise<unknown> {
    return this.requests.handle(request, signer);
  }

  /** Changes the ruleset between shoes; `src` (who asked: `mqtt`, `mqtt:<supervisor>`, `web:<user>`) is journaled with it. */
  setRuleset(name: string, src = 'mqtt'): Promise<Record<string, unknown>> {
    return this.requests.setRuleset(name, src);
  }

  /** Journals an alarm that has no input; one the journal refuses is reported, never dropped. */
  journalAlarm(alarm: DomainEvent): void {
    this.core.journalAlarm(alarm);
  }

  alreadyJournaled(device: string, dseq: number, record: TableLogRecord): boolean {
    return this.core.alreadyJournaled(device, dseq, record);
  }

  journalSpinPart(part: SpinPart): void {
    this.core.journalSpinPart(part);
  }

  spinUnderWay(device: string): readonly SpinPartMessage[] {
    return this.core.spinUnderWay(device);
  }

  /** What the table's game publishes besides its state, by name (baccarat's `roads`). */
  published(): Record<string, Record<string, unknown>> {
    return this.publishedFolds.published(this);
  }

  /** The seq of the shoe in play's `shoe_start` (0 before the first): where a console's backlog starts. */
  shoeStartSeq(): number {
    return this.publishedFolds.shoeStartSeq;
  }

  info(): Record<string, unknown> {
    const ruleset = rulesetIdentity(this.ruleset);
    return {
      version: VERSION,
      table: this.table,
      game: ruleset.game,
      ruleset: ruleset.name,
      rulesetTitle: ruleset.title,
      devices: Object.fromEntries(
        Object.entries(this.config.devices).map(([name, device]) => [
          name,
          {
            kind: device.kind,
            model: device.model ?? null,
            simulated: device.transport === 'simulate',
            ...this.pairingInfo(name, device),
          },
        ]),
      ),
      // Who the table trusts, by fingerprint: never a key.
      trust: {
        requests: this.mqtt.requestsSigned ? 'signed' : 'unsigned',
        journalKey: this.tableKey ? fingerprint(this.tableKey) : null,
      },
      requests: [...this.core.game.requestOps, 'set_ruleset', 'health_check'],
    };
  }

  /** bridge/info's pairing of a device, and why its cards are refused now (null: they are not). */
  private pairingInfo(
    name: string,
    device: TablesideConfig['devices'][string],
  ): { pairing: string; quarantined: string | null } {
    const policy = pairingPolicyOf(device);
    return {
      pairing:
        policy === 'paired' ? 'paired' : policy === 'refused' ? 'unpaired_refused' : 'unpaired',
      quarantined: this.devices.driver(name)?.status().quarantined ?? null,
    };
  }

  health(): DaemonHealth {
    return {
      table: this.table,
      ruleset: this.ruleset,
      version: VERSION,
      uptimeMs: this.clock() - this.startedAt,
      journal: { dir: this.config.journal.dir, lastSeq: this.lastSeq },
      mqtt: {
        url: this.mqtt.brokerAddress,
        connected: this.mqtt.connected,
        acknowledgedSeq: this.mqtt.acknowledgedSeq,
      },
      devices: this.deviceStatus(),
      expecting: this.expecting(),
    };
  }
}
