/**
 * The composition root of a table: devices in, validated events out, nothing
 * lost. One instance per table process.
 *
 *   drivers ─► observation ─► TableSession (pure) ─► journal (fsync) ─► device ACK
 *   console / MQTT / web requests ─►┘                    └─► bus (bus.ts) ─► extensions
 *
 * The table core (session, journal, replay and checkpoints, `ingest()`) is
 * this class; the features are extensions (extensions/): the MQTT bridge and
 * its broker, the journal's seal timer, the devices, the dealer console and
 * the web console, started in that order after the journal is open and
 * stopped in reverse. They follow the bus and reach the table through its
 * port (`TableHost`); none of them sees this class.
 *
 * Every input goes through `ingest()`, which applies it to the session and
 * appends the input and its events to the journal in one call, so the order
 * of the journal is the order of the session. Only when the append is
 * durable is the device ACKed and the bus told. On start the session is
 * seeded from the journal's newest checkpoint (written at the head of each
 * file: per shoe, per day) and the inputs after it are replayed: the table
 * resumes at the exact card, in a time bounded by the current shoe (or day),
 * not by the table's history. A journal without checkpoints replays from seq 1.
 */
import { EventEmitter } from 'node:events';
import { VERSION } from '../../device-protocol/version.ts';
import { pairingPolicyOf, type TablesideConfig, unpairedSetting } from '../config/schema.ts';
import type { DeviceDriver, DriverStatus, Observation, SpinPart } from '../drivers/driver.ts';
import type { NextStep } from '../engine/types.ts';
import type { GameExpectation } from '../games/game.ts';
import {
  allRulesetNames,
  type GamePlugin,
  type GameSession,
  gameOf,
  gameOfInput,
  gameOfRequest,
  rulesetIdentity,
} from '../games/registry.ts';
import {
  type FoundCheckpoint,
  Journal,
  type MetaData,
  type RecoveryWarning,
} from '../journal/journal.ts';
import type { JournalEntry, JournalRecord } from '../journal/record.ts';
import { type Logger, logger } from '../log.ts';
import type { JournalSource } from '../mqtt/bridge.ts';
import type { BridgeRequest } from '../mqtt/requests.ts';
import type { Expectation, SessionState } from '../table/card-table/index.ts';
import type { DomainEvent } from '../table/events.ts';
import type { TableLogRecord } from '../table/log.ts';
import { parseRecord } from '../table/table-session.ts';
import { fingerprint } from '../trust/keys.ts';
import type { DaemonEvents } from './bus.ts';
import { DaemonError } from './errors.ts';
import { DealerConsoleExtension } from './extensions/dealer-console.ts';
import {
  type Extension,
  type ExtensionContext,
  ExtensionRunner,
  type IngestOptions,
  type TableHost,
  Teardown,
} from './extensions/extension.ts';
import { JournalSealingExtension } from './extensions/journal-sealing.ts';
import { announceJournalFailureAtStart, MqttBridgeExtension } from './extensions/mqtt-bridge.ts';
import { WebConsoleExtension } from './extensions/web-console.ts';
import { RestartDedupe } from './restart-dedupe.ts';
import { RoadsFollower } from './roads-follower.ts';
import { SpinParts, spinPartMeta } from './spin-parts.ts';
import { headSealer, loadTableKey } from './trust-setup.ts';

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

function sessionFor(ruleset: string, autoRound: boolean): GameSession {
  return gameOf(ruleset).openSession(ruleset, { autoRound });
}

export class TableDaemon extends EventEmitter<DaemonEvents> implements TableHost {
  readonly config: TablesideConfig;
  readonly log: Logger;
  private readonly clock: () => number;
  private readonly simulate: boolean;
  private deviceKeys: import('./device-keys.ts').DeviceKeys | undefined;
  private session: GameSession;
  private rulesetName: string;
  private journal: Journal | undefined;
  /** The features, started after the journal opens and stopped before it closes. */
  private readonly extensions: ExtensionRunner;
  private mqtt = new MqttBridgeExtension();
  private web = new WebConsoleExtension();
  /** What the devices' start took: drivers, hosted firmware, simulators. */
  private readonly deviceTeardown = new Teardown();
  private readonly drivers = new Map<string, DeviceDriver>();
  /** Recognises retransmissions of records journaled before the restart. */
  private dedupe = new RestartDedupe();
  /** The same memory kept current with every input journaled, for checkpoints. */
  private journaledDevices = new RestartDedupe();
  /**
   * While an ingest is inside its journal calls, the state as of the inputs
   * before it: a rotation then checkpoints exactly the inputs that precede
   * the checkpoint in the journal, not the one being appended after it.
   */
  private checkpointBasis: unknown;
  /** Checkpoints describe the session only once it has been rebuilt from the journal. */
  private resumed = false;
  /** Each wheel's spin under way as journaled: a restart gives it back to the driver. */
  private spinParts = new SpinParts();
  private readonly stoppers: Array<() => Promise<void>> = [];
  private startedAt = 0;
  private running = false;
  private recovered: readonly RecoveryWarning[] = [];
  /** The table's signing key (journal.signingKey): never logged, published or journaled. */
  private tableKey: import('node:crypto').KeyObject | undefined;
  /** The baccarat scoreboard of the shoe in play (retained on `<base>/<table>/roads`). */
  private readonly roadsFollower = new RoadsFollower();

  constructor(options: DaemonOptions) {
    super();
    this.config = options.config;
    this.clock = options.clock ?? Date.now;
    this.log = options.log ?? logger('daemon');
    this.simulate = options.simulate ?? true;
    this.rulesetName = options.config.ruleset;
    this.session = sessionFor(this.rulesetName, this.autoRound);
    this.extensions = new ExtensionRunner(this.log);
  }

  /** The plug-in of the game this table plays now. */
  private get game(): GamePlugin {
    return gameOf(this.rulesetName);
  }

  /** A journal file per shoe, where the game says so (else daily only). */
  private get rotatesPerShoe(): boolean {
    return this.game.rotatesPerShoe(this.rulesetName);
  }

  private get autoRound(): boolean {
    return this.config.session.autoRound;
  }

  get table(): string {
    return this.config.table;
  }

  get ruleset(): string {
    return this.rulesetName;
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
    return this.recovered;
  }

  get lastSeq(): number {
    return this.journal?.lastSeq ?? 0;
  }

  get isRunning(): boolean {
    return this.running;
  }

  snapshot(): Record<string, unknown> {
    return this.session.snapshot();
  }

  expecting(): GameExpectation {
    return this.session.expecting();
  }

  deviceStatus(): DriverStatus[] {
    return [...this.drivers.values()].map((driver) => driver.status());
  }

  driver(name: string): DeviceDriver | undefined {
    return this.drivers.get(name);
  }

  /** Opens the journal and replays it, then starts the extensions: the broker and bridge, sealing, the devices, the consoles. */
  async start(): Promise<void> {
    if (this.running) return;
    this.startedAt = this.clock();
    try {
      // Device keys first: a key file the config names but that cannot be read stops the start.
      this.deviceKeys = await (await import('./device-keys.ts')).loadDeviceKeys(
        this.config.devices,
      );
      this.tableKey = await loadTableKey(this.config);
      await this.openJournal().catch(async (error: unknown) => {
        await announceJournalFailureAtStart(this.config, error);
        throw error;
      });
      this.mqtt = new MqttBridgeExtension();
      this.web = new WebConsoleExtension();
      await this.extensions.start(
        [
          this.mqtt,
          new JournalSealingExtension(),
          this.devices(),
          new DealerConsoleExtension(),
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
      { table: this.table, ruleset: this.rulesetName, lastSeq: this.lastSeq },
      'table running',
    );
  }

  /** Stops in reverse order: the consoles, the devices (nothing new comes in), the bridge (offline), the journal. */
  async stop(): Promise<void> {
    this.running = false;
    await this.extensions.stop();
    for (const stop of this.stoppers.splice(0).reverse()) {
      try {
        await stop();
      } catch (error) {
        this.log.warn({ err: error }, 'while stopping');
      }
    }
    this.drivers.clear();
  }

  private extensionContext(): ExtensionContext {
    const journal = this.requireJournal();
    return {
      config: this.config,
      log: this.log,
      clock: this.clock,
      startedAt: this.startedAt,
      journal,
      tableKey: this.tableKey,
      bus: this,
      table: this,
    };
  }

  /** The devices' drivers (and the simulators of `simulate` devices), as one extension. */
  private devices(): Extension {
    return {
      name: 'devices',
      start: () => this.startDevices(),
      stop: () => this.deviceTeardown.run(this.log),
    };
  }

  // ------------------------------------------------------------------ inputs

  /**
   * Applies one record and journals it with its events; resolves with the
   * durable records once fsynced. Everything up to the journal's append runs
   * synchronously in the caller's turn: the journal assigns seq at call
   * time and writes in call order, so session order is journal order without
   * a queue, and records arriving together share one group commit (a device
   * reconnecting with a backlog is not paced by one fsync per card).
   */
  ingest(record: TableLogRecord, options: IngestOptions = {}): Promise<readonly JournalRecord[]> {
    let durable: Promise<JournalRecord[]>;
    try {
      durable = this.applyAndAppend(record, options);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.whenDurable(durable);
  }

  private applyAndAppend(record: TableLogRecord, options: IngestOptions): Promise<JournalRecord[]> {
    const journal = this.requireJournal();
    const stamped: TableLogRecord =
      record.ts === undefined ? { ...record, ts: this.clock() } : record;
    // Checked against the state the record really meets: nothing can come
    // between this check and the apply, both run in this turn.
    if (options.refuseIrregular) this.refuseIrregular(stamped);
    const before = this.session.state;
    const events = this.session.apply(stamped);
    this.checkpointBasis = before;
    let durable: Promise<JournalRecord[]>;
    try {
      if (events.some((event) => event.type === 'shoe_start') && this.rotatesPerShoe) {
        // Queued before the append, so the shoe's records open the new file
        // (after its checkpoint of the state before this shuffle). A failed
        // rotation fails the journal: the append below rejects with it.
        journal.rotate('new shoe').catch(() => undefined);
      }
      // A change of day rotates inside this call: its checkpoint too sees `before`.
      durable = journal.append([
        { kind: 'input', data: stamped },
        ...events.map((event): JournalEntry => ({ kind: 'event', data: event })),
      ]);
    } finally {
      this.checkpointBasis = undefined;
    }
    this.journaledDevices.remember(stamped);
    this.spinParts.ended(stamped);
    return durable;
  }

  /** Journals a ROTOR or BALL of a wheel's spin under way, then ACKs it. */
  private onSpinPart(part: SpinPart): void {
    let durable: Promise<JournalRecord[]>;
    try {
      durable = this.requireJournal().append([
        { kind: 'meta', data: spinPartMeta(part.device, part.message) },
      ]);
    } catch (error) {
      this.emit('notice', 'error', `spin part not journaled: ${(error as Error).message}`);
      return;
    }
    this.spinParts.add(part.device, part.message);
    this.whenDurable(durable).then(
      () => part.ack(),
      // Not ACKed: the wheel sends it again, and a restart recovers.
      (error: unknown) =>
        this.emit('notice', 'error', `spin part not journaled: ${(error as Error).message}`),
    );
  }

  /**
   * The checkpoint the journal writes at the head of each new file: the
   * session as of every input appended so far, the ruleset in force and the
   * restart-dedupe memory. Never published (the bridge publishes events
   * only): it holds the undealt cards' counts and the shuffler's order.
   */
  private checkpointData(reason: string): MetaData | undefined {
    if (!this.resumed) return undefined;
    try {
      return {
        type: 'checkpoint',
        reason,
        ruleset: this.rulesetName,
        session: this.session.checkpoint(this.checkpointBasis ?? this.session.state),
        dedupe: this.journaledDevices.export(),
        ...(this.spinParts.export() ? { spinParts: this.spinParts.export() } : {}),
      };
    } catch (error) {
      this.log.error({ err: error }, 'checkpoint not written: a restart replays from an older one');
      return undefined;
    }
  }

  /**
   * Tells the bus once records are durable. A journal that fails is
   * fail-stop: the session has moved past what is on disk, so the table must
   * restart and recover from the journal; `fatal` says so.
   */
  private whenDurable(durable: Promise<JournalRecord[]>): Promise<readonly JournalRecord[]> {
    return durable.then(
      (records) => {
        this.emit('journaled', records);
        if (this.roadsFollower.follow(records)) this.publishRoads();
        return records;
      },
      (error: unknown) => {
        this.log.fatal({ err: error }, 'journal failed: the table must restart to recover');
        // Before `fatal`: the bridge sends its alarm before anything stops.
        this.emit('journalFailed', error);
        this.emit('fatal', error instanceof Error ? error : new Error(String(error)));
        throw error;
      },
    );
  }

  /** Journals events that have no input (device alarms from drivers). */
  private appendEvents(events: readonly DomainEvent[]): Promise<readonly JournalRecord[]> {
    return this.whenDurable(
      this.requireJournal().append(
        events.map((event): JournalEntry => ({ kind: 'event', data: event })),
      ),
    );
  }

  /**
   * An alarm the journal refused: the journal's failure is reported where it
   * fails, but the alarm itself would be lost from the record unseen.
   */
  private alarmNotJournaled(alarm: DomainEvent, error: unknown): void {
    this.log.error({ err: error, alarm }, 'alarm not journaled');
    const message = 'message' in alarm ? alarm.message : alarm.type;
    this.emit('notice', 'error', `alarm not journaled (${message}): ${(error as Error).message}`);
  }

  /** A new shoe from the ruleset's defaults (a shoe without a card-reading shuffler). */
  newShoe(reason: string, src = 'daemon'): Promise<readonly JournalRecord[]> {
    // A game without shoes (roulette) is refused by name; its plug-in has no shuffle to give.
    const game = this.game;
    try {
      this.requireRequest('new_shoe');
    } catch (error) {
      return Promise.reject(error);
    }
    if (!game.nextShuffle) {
      return Promise.reject(
        new DaemonError(
          'refused',
          `a ${game.tableNoun} has no shoe; this table plays ${this.rulesetName}`,
        ),
      );
    }
    this.log.info({ reason, src }, 'new shoe');
    return this.ingest({ ...game.nextShuffle(this.session), src });
  }

  /**
   * A shoe-only table (no shuffler reporting shuffles): closing the shoe's
   * lid when no shoe is in play is the dealer loading a new shoe. The lid is
   * ACKed to the shoe only once the new shoe's records are durable (at once
   * when it starts nothing): a crash in between loses no shoe start, since
   * the shoe sends the lid again and the replayed table still awaits a shoe.
   */
  private onShoeLoaded(device: string, ack: () => void): void {
    const hasShuffler = Object.values(this.config.devices).some((d) => d.kind === 'shuffler');
    const refused = this.drivers.get(device)?.isQuarantined ?? false;
    if (hasShuffler || refused || this.session.expecting().kind !== 'shuffle') {
      ack();
      return;
    }
    this.newShoe(`${device} lid closed on a new shoe`, device).then(ack, (error: unknown) =>
      // Not ACKed: after the restart a failed journal needs, the shoe sends the lid again.
      this.emit('notice', 'error', `new shoe not journaled: ${(error as Error).message}`),
    );
  }

  private async onObservation(observation: Observation): Promise<void> {
    const record: TableLogRecord = {
      ...observation.record,
      src: observation.device,
      dseq: observation.seq,
    };
    if (this.dedupe.classify(observation.device, observation.seq, record) === 'already_journaled') {
      this.log.info(
        { device: observation.device, seq: observation.seq },
        'retransmission of a journaled record: ACKed, not applied again',
      );
      observation.ack();
      return;
    }
    try {
      await this.ingest(record);
      observation.ack();
    } catch (error) {
      // Not ACKed: the device retransmits it, and a restart recovers.
      this.log.error({ err: error, device: observation.device }, 'record not journaled');
      this.emit('notice', 'error', `journal failed: ${(error as Error).message}`);
    }
  }

  // ------------------------------------------------------------------ journal

  private requireJournal(): Journal {
    if (!this.journal) throw new DaemonError('not_running', 'the table is not running');
    return this.journal;
  }

  private async openJournal(): Promise<void> {
    const journal = await Journal.open({
      dir: this.config.journal.dir,
      clock: this.clock,
      table: this.table,
      rotateDaily: this.config.journal.rotateDaily,
      // The bridge follows the tail a window (32) at a time; about a shoe of
      // records (~1,000) covers a reconnect burst. Further behind it reads
      // the files. 4,096 records would hold ~3 MB more for nothing.
      recentCapacity: 1024,
      checkpoint: (reason) => this.checkpointData(reason),
      ...(this.tableKey ? { seal: headSealer(this.tableKey, this.table) } : {}),
    });
    this.journal = journal;
    journal.onDurable((records) => {
      for (const record of records) {
        if (record.kind === 'meta' && record.data.type === 'head') {
          this.emit('head', record.data);
        }
      }
    });
    this.stoppers.push(async () => {
      // A clean stop leaves every record under a signed head; a stop that cannot says so.
      await journal
        .seal()
        .catch((error: unknown) => this.log.error({ err: error }, 'journal seal failed at stop'));
      await journal.close();
      this.journal = undefined;
    });
    this.recovered = journal.recovery;
    for (const warning of journal.recovery) {
      const message = `journal: cut ${warning.bytes} bytes of a torn record at ${warning.file}:${warning.offset} (${warning.reason})`;
      this.log.warn(warning, 'journal recovered');
      this.emit('notice', 'warn', message);
    }
    // From the newest usable checkpoint, streamed: the journal holds every
    // card since the table was installed, and neither the start time nor the
    // daemon's memory may grow with it.
    const checkpoint = await this.seedFromCheckpoint(journal);
    const replayed = await this.replay(journal.read(checkpoint ? checkpoint.seq + 1 : 1));
    this.refuseOtherGamesJournal();
    // What the journal held at start: the retransmissions to recognise after this restart.
    this.dedupe = this.journaledDevices.clone();
    this.resumed = true;
    if (replayed > 0 || checkpoint) {
      const from = checkpoint
        ? ` after the checkpoint at ${checkpoint.file} seq ${checkpoint.seq}`
        : '';
      this.emit('notice', 'info', `resumed from the journal: ${replayed} inputs replayed${from}`);
    }
  }

  /**
   * Seeds the session from the newest checkpoint that reads back, looking at
   * the newest files first. One that does not (damaged, another build's
   * format, other session options) is reported and an older one tried; with
   * none, the caller replays from seq 1: slower, never wrong.
   */
  private async seedFromCheckpoint(journal: Journal): Promise<FoundCheckpoint | undefined> {
    for await (const checkpoint of journal.checkpoints()) {
      try {
        const data = checkpoint.data as {
          ruleset?: unknown;
          session?: unknown;
          dedupe?: unknown;
          spinParts?: unknown;
        };
        const name = String(data.ruleset);
        // The ruleset's plug-in reads its own checkpoints (a name no game has is not used).
        const session = gameOf(name).restoreSession(name, data.session, {
          autoRound: this.autoRound,
        });
        const journaledDevices = RestartDedupe.from(data.dedupe);
        this.spinParts = SpinParts.from(data.spinParts);
        this.rulesetName = name;
        this.session = session;
        this.journaledDevices = journaledDevices;
        return checkpoint;
      } catch (error) {
        const message = `journal: checkpoint at ${checkpoint.file} seq ${checkpoint.seq} not used (${(error as Error).message}); trying an older one`;
        this.log.warn({ file: checkpoint.file, seq: checkpoint.seq, err: error }, message);
        this.emit('notice', 'warn', message);
      }
    }
    return undefined;
  }

  /** Rebuilds the session from the journal's inputs (and ruleset changes), in order. */
  private async replay(records: AsyncIterable<JournalRecord>): Promise<number> {
    let inputs = 0;
    for await (const record of records) {
      if (record.kind === 'meta' && record.data.type === 'ruleset') {
        const name = String(record.data.ruleset);
        this.rulesetName = name;
        this.session = sessionFor(name, this.autoRound);
      } else if (record.kind === 'meta' && record.data.type === 'spin_part') {
        this.spinParts.add(String(record.data.device), record.data.message);
      } else if (record.kind === 'event') {
        this.roadsFollower.follow([record]);
      } else if (record.kind === 'input') {
        const input = parseRecord(record.data);
        this.refuseOtherGamesInput(input, record.seq);
        this.session.apply(input);
        this.journaledDevices.remember(input);
        this.spinParts.ended(input);
        inputs++;
      }
    }
    return inputs;
  }

  /**
   * A journal folder holding another game's table (a baccarat journal
   * started with a roulette ruleset, or the reverse) would be a silently
   * mixed table: the start is refused, naming both and what to do.
   */
  private refuseOtherGamesInput(input: TableLogRecord, seq: number): void {
    const game = this.game;
    if ((game.inputTypes as readonly string[]).includes(input.t)) return;
    const other = gameOfInput(input.t);
    throw new DaemonError(
      'other_game',
      `the journal folder ${this.config.journal.dir} holds a ${other?.tableNoun ?? 'table of another game'} (a ${input.t} input at seq ${seq}), not a ${game.tableNoun} of ${this.rulesetName}: start this table in a new journal folder (journal.dir), or run it with that table's ruleset`,
    );
  }

  /** The configured ruleset's game must be the game the journal's table plays at its end. */
  private refuseOtherGamesJournal(): void {
    const configured = gameOf(this.config.ruleset);
    if (configured === this.game) return;
    throw new DaemonError(
      'other_game',
      `the journal folder ${this.config.journal.dir} holds a ${this.game.tableNoun} playing ${this.rulesetName}, but the config names ${this.config.ruleset} (a ${configured.tableNoun}): start this table in a new journal folder (journal.dir), or set its ruleset to ${this.rulesetName}`,
    );
  }

  // --------------------------------------------------------------------- MQTT

  /** bridge/info's pairing of a device, and why its cards are refused now (null: they are not). */
  private pairingInfo(
    name: string,
    device: TablesideConfig['devices'][string],
  ): { pairing: string; quarantined: string | null } {
    const policy = pairingPolicyOf(device);
    return {
      pairing:
        policy === 'paired' ? 'paired' : policy === 'refused' ? 'unpaired_refused' : 'unpaired',
      quarantined: this.drivers.get(name)?.status().quarantined ?? null,
    };
  }

  info(): Record<string, unknown> {
    const ruleset = rulesetIdentity(this.rulesetName);
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
      requests: [...this.game.requestOps, 'set_ruleset', 'health_check'],
    };
  }

  /** Baccarat tables publish their scoreboard roads (retained), so any display can draw them. */
  private publishRoads(): void {
    if (!this.keepsRoads) return;
    this.emit('roads', this.roadsFollower.payload());
  }

  /** The scoreboard roads of the shoe in play; undefined where the game keeps none. */
  roads(): Record<string, unknown> | undefined {
    if (!this.keepsRoads) return undefined;
    return this.roadsFollower.payload();
  }

  /** Whether this table's game publishes the retained scoreboard roads (baccarat's plug-in says so). */
  private get keepsRoads(): boolean {
    return this.game.retainedTopics(this.rulesetName).includes('roads');
  }

  /** The seq of the shoe in play's `shoe_start` (0 before the first): where a console's backlog starts. */
  shoeStartSeq(): number {
    return this.roadsFollower.shoeStartSeq;
  }

  /** The journal as the bridge and the web console read it: durable records only, in order. */
  get journalFeed(): JournalSource | undefined {
    return this.journal;
  }

  /** MQTT requests: validated by the bridge; here they become table-log records. */
  async handleRequest(request: BridgeRequest, signer?: string): Promise<unknown> {
    // Journaled with who signed it: `mqtt:<supervisor>`.
    const src = signer === undefined ? 'mqtt' : `mqtt:${signer}`;
    switch (request.op) {
      case 'health_check':
        return this.health();
      case 'new_round':
        this.requireRequest('new_round');
        return this.summarise(
          await this.ingestChecked({
            t: 'round',
            src,
            ...(request.boxes ? { boxes: request.boxes } : {}),
            ...(request.stakes ? { stakes: request.stakes } : {}),
          }),
        );
      case 'player_action':
        this.requireRequest('player_action');
        return this.summarise(
          await this.ingestChecked({
            t: 'action',
            src,
            action: request.action,
            ...(request.box === undefined ? {} : { box: request.box }),
            ...(request.cards ? { cards: request.cards } : {}),
          }),
        );
      case 'void_hand':
        this.requireRequest('void_hand');
        return this.summarise(await this.ingestChecked({ t: 'void', src, reason: request.reason }));
      case 'new_shoe':
        this.requireRequest('new_shoe');
        return this.summarise(await this.newShoe(request.reason ?? 'requested over MQTT', src));
      case 'no_more_bets':
        this.requireRequest('no_more_bets');
        return this.summarise(await this.ingestChecked({ t: 'no_more_bets', src }));
      case 'closing':
        this.requireRequest('closing');
        return this.summarise(await this.ingestChecked({ t: 'closing', src }));
      case 'set_ruleset':
        return this.setRuleset(request.ruleset, src);
    }
  }

  /** A request of another game's table is refused, naming the table's ruleset. */
  private requireRequest(op: string): void {
    if (this.game.requestOps.includes(op)) return;
    const owner = gameOfRequest(op);
    throw new DaemonError(
      'refused',
      `${op} is for a ${owner?.tableNoun ?? 'table of another game'}; this table plays ${this.rulesetName}`,
    );
  }

  /**
   * Applies a request's record on a copy of the session first: a request the
   * session would answer with any alarm (an illegal action, a round with no
   * shoe in play, a round that would void the coup being dealt, a round
   * before the burn) is refused and changes nothing, journal included. A
   * device's record is never refused (it happened); a request is a command,
   * and an irregular command is the caller's mistake.
   */
  private ingestChecked(record: TableLogRecord): Promise<readonly JournalRecord[]> {
    return this.ingest(record, { refuseIrregular: true });
  }

  private refuseIrregular(record: TableLogRecord): void {
    const alarms = this.session
      .trial()
      .apply(record)
      .filter((event): event is Extract<DomainEvent, { type: 'alarm' }> => event.type === 'alarm');
    if (alarms.length > 0) {
      throw new DaemonError(
        'refused',
        `${alarms.map((alarm) => alarm.message).join('; ')} (expecting: ${this.session.expecting().text})`,
      );
    }
  }

  private summarise(records: readonly JournalRecord[]): Record<string, unknown> {
    return {
      seq: records.at(-1)?.seq ?? this.lastSeq,
      events: records.filter((r) => r.kind === 'event').map((r) => (r.data as DomainEvent).type),
      expecting: this.session.expecting().text,
    };
  }

  /** Changes the ruleset between shoes; `src` (who asked: `mqtt`, `mqtt:<supervisor>`, `web:<user>`) is journaled with it. */
  setRuleset(name: string, src = 'mqtt'): Promise<Record<string, unknown>> {
    if (!allRulesetNames().includes(name)) {
      return Promise.reject(
        new DaemonError(
          'unknown_ruleset',
          `unknown ruleset ${JSON.stringify(name)}; known: ${allRulesetNames().join(', ')}`,
        ),
      );
    }
    const game = this.game;
    // Checked and journaled in this turn: no record can be applied to the
    // old session but journaled after the change (a replay would apply it
    // under the new ruleset).
    // When is the game's to say: between shoes, between games.
    if (!this.session.mayChangeRuleset()) {
      return Promise.reject(new DaemonError('shoe_in_play', game.rulesetChangeRule));
    }
    let durable: Promise<JournalRecord[]>;
    try {
      const next = sessionFor(name, this.autoRound);
      durable = this.requireJournal().append([
        { kind: 'meta', data: { type: 'ruleset', ruleset: name, previous: this.rulesetName, src } },
      ]);
      this.rulesetName = name;
      this.session = next;
    } catch (error) {
      return Promise.reject(error);
    }
    return this.whenDurable(durable).then(() => {
      this.emit('info');
      return { ruleset: name };
    });
  }

  /** Journals an alarm that has no input; one the journal refuses is reported, never dropped. */
  journalAlarm(alarm: DomainEvent): void {
    void this.appendEvents([alarm]).catch((error) => this.alarmNotJournaled(alarm, error));
  }

  /** The game the dealer console's buttons play. */
  dealerConsoleGame(): 'cards' | 'roulette' {
    return this.game.consoleBehaviour;
  }

  health(): DaemonHealth {
    return {
      table: this.table,
      ruleset: this.rulesetName,
      version: VERSION,
      uptimeMs: this.clock() - this.startedAt,
      journal: { dir: this.config.journal.dir, lastSeq: this.lastSeq },
      mqtt: {
        url: this.mqtt.brokerAddress,
        connected: this.mqtt.connected,
        acknowledgedSeq: this.mqtt.acknowledgedSeq,
      },
      devices: this.deviceStatus(),
      expecting: this.session.expecting(),
    };
  }

  // ------------------------------------------------------------------ devices

  private async startDevices(): Promise<void> {
    const entries = Object.entries(this.config.devices);
    if (entries.length === 0) return;
    const { DeviceDriver } = await import('../drivers/driver.ts');
    const { openTransport } = await import('../../hardware/transports/url.ts');
    const simulated: Array<{
      name: string;
      kind: 'shoe' | 'shuffler' | 'reader';
      device: unknown;
      key?: unknown;
    }> = [];
    const simulatedWheels: Array<{ name: string; device: unknown; key: unknown }> = [];
    const keys = this.deviceKeys ?? { paired: new Map(), simulated: new Map() };
    let wires: typeof import('../../hardware/transports/memory.ts') | undefined;
    for (const [name, device] of entries) {
      let transport: import('../../hardware/transports/transport.ts').Transport;
      if (device.transport === 'simulate') {
        wires ??= await import('../../hardware/transports/memory.ts');
        const wire = wires.createMemoryPair(`sim-${name}`);
        transport = wire.host;
        if (device.kind === 'wheel') {
          simulatedWheels.push({ name, device: wire.device, key: keys.simulated.get(name) });
        } else {
          simulated.push({
            name,
            kind: device.kind,
            device: wire.device,
            key: keys.simulated.get(name),
          });
        }
      } else if (device.transport === 'firmware') {
        // tableside's own device firmware, in this process, on a real board.
        wires ??= await import('../../hardware/transports/memory.ts');
        const wire = wires.createMemoryPair(`firmware-${name}`);
        transport = wire.host;
        const { startHostedFirmware } = await import('./hosted-firmware.ts');
        const hosted = await startHostedFirmware(
          name,
          device,
          wire.device,
          `${this.table}-${name}`.slice(0, 32),
          keys.simulated.get(name),
        );
        this.deviceTeardown.add(() => hosted.stop());
      } else {
        transport = openTransport(device.transport);
      }
      const allowedFirmware =
        device.firmware.length > 0 && device.model
          ? { [device.model]: device.firmware }
          : undefined;
      const policy = pairingPolicyOf(device);
      const driver = new DeviceDriver({
        name,
        kind: device.kind,
        transport,
        hostSerial: this.table,
        clock: this.clock,
        ...(allowedFirmware ? { allowedFirmware } : {}),
        ...(keys.paired.has(name) ? { pairedKey: keys.paired.get(name)! } : {}),
        ...(device.stalledAfterMs === undefined
          ? {}
          : { timing: { stalledAfterMs: device.stalledAfterMs } }),
        ...(policy === 'bench' || policy === 'refused'
          ? {
              unpaired: {
                policy: policy === 'bench' ? 'allow' : 'refuse',
                setting: unpairedSetting(name),
              },
            }
          : {}),
        ...(device.kind === 'shuffler' ? this.shufflerBacks() : {}),
        ...(device.kind === 'reader' && device.registry && device.transport !== 'firmware'
          ? { registry: await this.loadRegistry(device.registry) }
          : {}),
      });
      this.followDriver(name, driver);
      this.drivers.set(name, driver);
      driver.start();
      this.deviceTeardown.add(() => driver.stop());
    }
    if (simulatedWheels.length > 0 && this.simulate) {
      const { SimulatedCroupier } = await import('./simulated-croupier.ts');
      const croupier = new SimulatedCroupier({
        wheels: simulatedWheels as ConstructorParameters<typeof SimulatedCroupier>[0]['wheels'],
        simulation: this.config.simulation,
        ruleset: this.rulesetName,
        log: logger('sim'),
        open: () => this.session.expecting().kind !== 'closed',
      });
      croupier.start();
      this.deviceTeardown.add(() => croupier.stop());
    }
    if (simulated.length > 0 && this.simulate) {
      const { SimulatedDealer } = await import('./simulated-dealer.ts');
      const dealer = new SimulatedDealer({
        daemon: this,
        devices: simulated as ConstructorParameters<typeof SimulatedDealer>[0]['devices'],
        simulation: this.config.simulation,
        ruleset: this.rulesetName,
        log: logger('sim'),
      });
      dealer.start();
      this.deviceTeardown.add(() => dealer.stop());
    }
  }

  /** Takes a driver's records, spin parts, alarms and notices in, and tells the bus of its availability. */
  private followDriver(name: string, driver: DeviceDriver): void {
    driver.on('record', (observation) => void this.onObservation(observation));
    if (driver.kind === 'wheel') {
      driver.restoreSpin(this.spinParts.of(name));
      driver.on('spinPart', (part) => this.onSpinPart(part));
    }
    // A quarantined device is online but refused: MQTT says `quarantined`, not `online`.
    const publishAvailability = () =>
      this.emit(
        'deviceAvailability',
        name,
        driver.availability === 'online' && driver.isQuarantined
          ? 'quarantined'
          : driver.availability,
      );
    driver.on('availability', (availability, reason) => {
      publishAvailability();
      this.emit('availability', name, availability, reason);
    });
    driver.on('quarantine', () => {
      publishAvailability();
      this.emit('info');
    });
    driver.on('alarm', (event) => this.journalAlarm(event));
    driver.on('notice', (notice) => {
      this.emit('notice', 'info', `${name}: ${notice.type} ${JSON.stringify(notice)}`);
      if (notice.type !== 'LID') return;
      if (notice.state === 'closed') this.onShoeLoaded(name, notice.ack);
      else notice.ack();
    });
    this.emit('deviceAvailability', name, 'offline');
  }

  /** The back colours a shuffler's driver assumes when the shuffler does not name them. */
  private shufflerBacks(): { backs: string[]; alternateBacks?: boolean } {
    return this.game.shufflerBacks(this.rulesetName);
  }

  private async loadRegistry(path: string) {
    const { DeckRegistry } = await import('../../hardware/readers/deck-registry.ts');
    return DeckRegistry.load(path);
  }
}
