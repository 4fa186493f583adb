/**
 * The table core: the game session and the journal, kept in step. Every input
 * goes through `ingest()`, which applies it to the session and appends the
 * input and its events to the journal in one call, so the order of the
 * journal is the order of the session. Only when the append is durable is the
 * bus told (`journaled`). On open the session is seeded from the journal's
 * newest checkpoint (written at the head of each file: per shoe, per day) and
 * the inputs after it are replayed: the table resumes at the exact card, in a
 * time bounded by the current shoe (or day), not by the table's history. A
 * journal without checkpoints replays from seq 1.
 */
import type { KeyObject } from 'node:crypto';
import type { TablesideConfig } from '../config/schema.ts';
import type { SpinPart } from '../drivers/driver.ts';
import { type GamePlugin, type GameSession, gameOf } from '../games/registry.ts';
import { Journal, type MetaData, type RecoveryWarning } from '../journal/journal.ts';
import type { JournalEntry, JournalRecord } from '../journal/record.ts';
import type { Logger } from '../log.ts';
import type { DomainEvent } from '../table/events.ts';
import type { TableLogRecord } from '../table/log.ts';
import type { DaemonBus } from './bus.ts';
import { DaemonError } from './errors.ts';
import type { IngestOptions } from './extensions/extension.ts';
import { JournalResume, sessionFor } from './journal-resume.ts';
import { RestartDedupe } from './restart-dedupe.ts';
import { type SpinPartMessage, SpinParts, spinPartMeta } from './spin-parts.ts';
import { headSealer } from './trust-setup.ts';

export interface TableCoreOptions {
  config: TablesideConfig;
  clock: () => number;
  log: Logger;
  /** Where the core tells what became durable, what failed and what the operator should read. */
  bus: DaemonBus;
}

export class TableCore {
  private readonly config: TablesideConfig;
  private readonly clock: () => number;
  private readonly log: Logger;
  private readonly bus: DaemonBus;
  private currentSession: GameSession;
  private rulesetName: string;
  private journal: Journal | undefined;
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
  private recovered: readonly RecoveryWarning[] = [];
  /** A ruleset of the table's game the config names, waiting for the shoe (or game) in play to end. */
  private pendingRuleset: string | undefined;

  constructor(options: TableCoreOptions) {
    this.config = options.config;
    this.clock = options.clock;
    this.log = options.log;
    this.bus = options.bus;
    this.rulesetName = options.config.ruleset;
    this.currentSession = sessionFor(this.rulesetName, this.autoRound);
  }

  /** The plug-in of the game this table plays now. */
  get game(): GamePlugin {
    return gameOf(this.rulesetName);
  }

  get ruleset(): string {
    return this.rulesetName;
  }

  get session(): GameSession {
    return this.currentSession;
  }

  get recovery(): readonly RecoveryWarning[] {
    return this.recovered;
  }

  get lastSeq(): number {
    return this.journal?.lastSeq ?? 0;
  }

  /** The open journal; undefined before `open()` and after `close()`. */
  get openJournal(): Journal | undefined {
    return this.journal;
  }

  /** A journal file per shoe, where the game says so (else daily only). */
  private get rotatesPerShoe(): boolean {
    return this.game.rotatesPerShoe(this.rulesetName);
  }

  private get autoRound(): boolean {
    return this.config.session.autoRound;
  }

  requireJournal(): Journal {
    if (!this.journal) throw new DaemonError('not_running', 'the table is not running');
    return this.journal;
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
    // The config's ruleset takes effect before the next shoe's first record, journaled before it.
    if (this.pendingRuleset !== undefined && this.currentSession.mayChangeRuleset()) {
      this.takeConfiguredRuleset();
    }
    const stamped: TableLogRecord =
      record.ts === undefined ? { ...record, ts: this.clock() } : record;
    // Checked against the state the record really meets: nothing can come
    // between this check and the apply, both run in this turn.
    if (options.refuseIrregular) this.refuseIrregular(stamped);
    const before = this.currentSession.state;
    const events = this.currentSession.apply(stamped);
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

  /**
   * A request the session would answer with any alarm (an illegal action, a
   * round with no shoe in play, a round that would void the coup being dealt,
   * a round before the burn) is refused and changes nothing, journal
   * included. A device's record is never refused (it happened); a request is
   * a command, and an irregular command is the caller's mistake.
   */
  private refuseIrregular(record: TableLogRecord): void {
    const alarms = this.currentSession
      .trial()
      .apply(record)
      .filter((event): event is Extract<DomainEvent, { type: 'alarm' }> => event.type === 'alarm');
    if (alarms.length > 0) {
      throw new DaemonError(
        'refused',
        `${alarms.map((alarm) => alarm.message).join('; ')} (expecting: ${this.currentSession.expecting().text})`,
      );
    }
  }

  /** Whether a device's record is a retransmission of one journaled before this start. */
  alreadyJournaled(device: string, dseq: number, record: TableLogRecord): boolean {
    return this.dedupe.classify(device, dseq, record) === 'already_journaled';
  }

  /** The parts of a wheel's spin under way, as journaled. */
  spinUnderWay(device: string): readonly SpinPartMessage[] {
    return this.spinParts.of(device);
  }

  /** Journals a ROTOR or BALL of a wheel's spin under way, then ACKs it. */
  journalSpinPart(part: SpinPart): void {
    let durable: Promise<JournalRecord[]>;
    try {
      durable = this.requireJournal().append([
        { kind: 'meta', data: spinPartMeta(part.device, part.message) },
      ]);
    } catch (error) {
      this.bus.emit('notice', 'error', `spin part not journaled: ${(error as Error).message}`);
      return;
    }
    this.spinParts.add(part.device, part.message);
    this.whenDurable(durable).then(
      () => part.ack(),
      // Not ACKed: the wheel sends it again, and a restart recovers.
      (error: unknown) =>
        this.bus.emit('notice', 'error', `spin part not journaled: ${(error as Error).message}`),
    );
  }

  /** Journals an alarm that has no input; one the journal refuses is reported, never dropped. */
  journalAlarm(alarm: DomainEvent): void {
    let durable: Promise<JournalRecord[]>;
    try {
      durable = this.requireJournal().append([{ kind: 'event', data: alarm }]);
    } catch (error) {
      this.alarmNotJournaled(alarm, error);
      return;
    }
    this.whenDurable(durable).catch((error: unknown) => this.alarmNotJournaled(alarm, error));
  }

  /**
   * An alarm the journal refused: the journal's failure is reported where it
   * fails, but the alarm itself would be lost from the record unseen.
   */
  private alarmNotJournaled(alarm: DomainEvent, error: unknown): void {
    this.log.error({ err: error, alarm }, 'alarm not journaled');
    const message = 'message' in alarm ? alarm.message : alarm.type;
    this.bus.emit(
      'notice',
      'error',
      `alarm not journaled (${message}): ${(error as Error).message}`,
    );
  }

  /** Changes the ruleset when the game allows it; `src` (who asked) is journaled with it. */
  setRuleset(name: string, src: string): Promise<Record<string, unknown>> {
    // Checked and journaled in this turn: no record can be applied to the
    // old session but journaled after the change (a replay would apply it
    // under the new ruleset). When is the game's to say: between shoes, between games.
    if (!this.currentSession.mayChangeRuleset()) {
      return Promise.reject(new DaemonError('shoe_in_play', this.game.rulesetChangeRule));
    }
    let durable: Promise<JournalRecord[]>;
    try {
      durable = this.switchRuleset(name, src);
    } catch (error) {
      return Promise.reject(error);
    }
    // A request decides over a change the config still waited to make.
    this.pendingRuleset = undefined;
    return this.whenDurable(durable).then(() => {
      this.bus.emit('info');
      return { ruleset: name };
    });
  }

  /** Journals the change and swaps the session, in the caller's turn. */
  private switchRuleset(name: string, src: string): Promise<JournalRecord[]> {
    const next = sessionFor(name, this.autoRound);
    const durable = this.requireJournal().append([
      { kind: 'meta', data: { type: 'ruleset', ruleset: name, previous: this.rulesetName, src } },
    ]);
    this.rulesetName = name;
    this.currentSession = next;
    return durable;
  }

  /**
   * The config names another ruleset of the table's game than the journal
   * holds: it takes effect now, between shoes (between games), or at the
   * next one, journaled (src `config`) and announced; never ignored.
   */
  private adoptConfiguredRuleset(): void {
    const configured = this.config.ruleset;
    if (configured === this.rulesetName) return;
    if (this.currentSession.mayChangeRuleset()) {
      this.pendingRuleset = configured;
      this.takeConfiguredRuleset();
      return;
    }
    this.pendingRuleset = configured;
    this.bus.emit(
      'notice',
      'info',
      `ruleset: the config names ${configured}; this table plays ${this.rulesetName} until it may change (${this.game.rulesetChangeRule}), and ${configured} takes effect then, journaled`,
    );
  }

  private takeConfiguredRuleset(): void {
    const name = this.pendingRuleset!;
    this.pendingRuleset = undefined;
    const previous = this.rulesetName;
    const durable = this.switchRuleset(name, 'config');
    void this.whenDurable(durable).then(
      () => {
        this.bus.emit('info');
        this.bus.emit('notice', 'info', `ruleset: ${previous} → ${name} (the config's), journaled`);
      },
      () => undefined, // a failed journal is fatal, reported by whenDurable
    );
  }

  /**
   * Tells the bus once records are durable. A journal that fails is
   * fail-stop: the session has moved past what is on disk, so the table must
   * restart and recover from the journal; `fatal` says so.
   */
  private whenDurable(durable: Promise<JournalRecord[]>): Promise<readonly JournalRecord[]> {
    return durable.then(
      (records) => {
        this.bus.emit('journaled', records);
        return records;
      },
      (error: unknown) => {
        this.log.fatal({ err: error }, 'journal failed: the table must restart to recover');
        // Before `fatal`: the bridge sends its alarm before anything stops.
        this.bus.emit('journalFailed', error);
        this.bus.emit('fatal', error instanceof Error ? error : new Error(String(error)));
        throw error;
      },
    );
  }

  // ------------------------------------------------------------------ journal

  /**
   * Opens the journal and rebuilds the session from it. `followReplayed` sees
   * every replayed record, so what follows the journal (the roads) resumes too.
   */
  async open(
    tableKey: KeyObject | undefined,
    followReplayed: (record: JournalRecord) => void,
  ): Promise<void> {
    const journal = await Journal.open({
      dir: this.config.journal.dir,
      clock: this.clock,
      table: this.config.table,
      // Each file names the ruleset in force: a journal with no checkpoint yet still says its game.
      fileDetails: () => ({ ruleset: this.rulesetName }),
      rotateDaily: this.config.journal.rotateDaily,
      // The bridge follows the tail a window (32) at a time; about a shoe of
      // records (~1,000) covers a reconnect burst. Further behind it reads
      // the files. 4,096 records would hold ~3 MB more for nothing.
      recentCapacity: 1024,
      checkpoint: (reason) => this.checkpointData(reason),
      ...(tableKey ? { seal: headSealer(tableKey, this.config.table) } : {}),
    });
    this.journal = journal;
    journal.onDurable((records) => {
      for (const record of records) {
        if (record.kind === 'meta' && record.data.type === 'head') {
          this.bus.emit('head', record.data);
        }
      }
    });
    this.recovered = journal.recovery;
    for (const warning of journal.recovery) {
      const message = `journal: cut ${warning.bytes} bytes of a torn record at ${warning.file}:${warning.offset} (${warning.reason})`;
      this.log.warn(warning, 'journal recovered');
      this.bus.emit('notice', 'warn', message);
    }
    try {
      await this.resume(journal, followReplayed);
    } catch (error) {
      // A refused start (another game's journal) leaves the folder as it found it, unlocked.
      this.journal = undefined;
      await journal.close();
      throw error;
    }
  }

  private async resume(
    journal: Journal,
    followReplayed: (record: JournalRecord) => void,
  ): Promise<void> {
    // From the newest usable checkpoint, streamed: the journal holds every
    // card since the table was installed, and neither the start time nor the
    // daemon's memory may grow with it.
    const resume = new JournalResume(
      { config: this.config, log: this.log, bus: this.bus },
      {
        ruleset: this.rulesetName,
        session: this.currentSession,
        journaledDevices: this.journaledDevices,
        spinParts: this.spinParts,
      },
    );
    const { checkpoint, replayed } = await resume.run(journal, followReplayed);
    this.rulesetName = resume.ruleset;
    this.currentSession = resume.session;
    this.journaledDevices = resume.journaledDevices;
    this.spinParts = resume.spinParts;
    // What the journal held at start: the retransmissions to recognise after this restart.
    this.dedupe = this.journaledDevices.clone();
    this.resumed = true;
    this.adoptConfiguredRuleset();
    if (replayed > 0 || checkpoint) {
      const from = checkpoint
        ? ` after the checkpoint at ${checkpoint.file} seq ${checkpoint.seq}`
        : '';
      this.bus.emit(
        'notice',
        'info',
        `resumed from the journal: ${replayed} inputs replayed${from}`,
      );
    }
  }

  /** Seals (a clean stop leaves every record under a signed head; a stop that cannot says so) and closes the journal. */
  async close(): Promise<void> {
    const journal = this.journal;
    if (!journal) return;
    await journal
      .seal()
      .catch((error: unknown) => this.log.error({ err: error }, 'journal seal failed at stop'));
    await journal.close();
    this.journal = undefined;
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
        session: this.currentSession.checkpoint(this.checkpointBasis ?? this.currentSession.state),
        dedupe: this.journaledDevices.export(),
        ...(this.spinParts.export() ? { spinParts: this.spinParts.export() } : {}),
      };
    } catch (error) {
      this.log.error({ err: error }, 'checkpoint not written: a restart replays from an older one');
      return undefined;
    }
  }
}
