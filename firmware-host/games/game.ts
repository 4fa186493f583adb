/**
 * What a game plugs into a table with (issue 26): everything the daemon,
 * config, web console, diag, CLI and simulators need to know of a game,
 * asked of its plug-in instead of branching on its name. A plug-in is pure:
 * it assembles the game's engine/, engine/rulesets/ and table/ parts; the
 * I/O parts it names (its simulator, its `diag` check, its CLI verbs, its
 * web view) are looked up by that name by the composition roots.
 */

import type { NextStep } from '../engine/types.ts';
import type { DomainEvent } from '../table/events.ts';
import type { ShuffleRecord, TableLogRecord } from '../table/log.ts';
import type { Expectation } from './cards/table/index.ts';
import type { GameCli } from './game-cli.ts';
import type { RouletteExpectation } from './roulette/session.ts';

/** What every ruleset says of itself, whatever its game. */
export interface RulesetIdentity {
  readonly game: string;
  readonly name: string;
  readonly title: string;
}

/** What the table waits for next, in any game. */
export type GameExpectation = Expectation | RouletteExpectation;

/** A checkpoint's session, as written in the journal. */
export type SessionCheckpoint = Record<string, unknown>;

/** One table's session, whatever its game: the reducer stays pure behind it. */
export interface GameSession {
  readonly ruleset: string;
  /** The reducer's state: opaque outside the game, handed back to `checkpoint`. */
  readonly state: unknown;
  apply(record: TableLogRecord): DomainEvent[];
  expecting(): GameExpectation;
  snapshot(): Record<string, unknown>;
  /** A copy to try a record on (a request is refused if it would raise an alarm). */
  trial(): GameSession;
  /** The session's checkpoint as of `state` (default: now), for the journal. */
  checkpoint(state?: unknown): SessionCheckpoint;
  /** Whether the ruleset may change now: between shoes, between games. */
  mayChangeRuleset(): boolean;
}

export interface SessionOptions {
  readonly autoRound: boolean;
}

/**
 * One journal record as the History page hands it to a game (issue 26): the
 * journal's own shape, with an event's `shown` form (screened by the
 * publication guard, what the console may show) beside it.
 */
export interface HistoryRecord {
  readonly seq: number;
  readonly ts: number;
  readonly kind: 'input' | 'event' | 'meta';
  /** As journaled: the input, the event or the meta note. */
  readonly data: Record<string, unknown>;
  /** An event as the console may show it; absent for inputs and meta notes. */
  readonly shown?: Record<string, unknown>;
  /** On an input: how many event records follow it as its events (absent in older journals). */
  readonly events?: number;
}

/**
 * How a game groups one UTC day of its journal into its units for the
 * History page (a card table's shoes and hands, a wheel's games). Fed the
 * records in journal order; pure.
 */
export interface DayGrouping<Units extends object = object> {
  /** A record of the day. */
  take(record: HistoryRecord): void;
  /** A record read from before the day, only to know the unit in play at midnight. */
  follow(record: HistoryRecord): void;
  /** The day's units as the page gets them: `{ shoes }`, `{ games }`. */
  units(): Units;
}

/** A Scoreboard (games/scoreboard.ts): one count of a tally: "Bust 3" (its share is `count / of`). */
export interface TallyRow {
  readonly label: string;
  readonly count: number;
}

/** Counts of one thing over `of` rounds, hands or boxes: the dealer's outcomes, the colours. */
export interface Tally {
  readonly title: string;
  readonly of: number;
  readonly rows: readonly TallyRow[];
}

/** One of the latest results, as a short line; `mark` is a class the view may colour by. */
export interface RecentResult {
  readonly seq: number;
  /** The round's or game's number at the table. */
  readonly round: number;
  readonly text: string;
  readonly mark?: string;
}

export interface Scoreboard {
  /** What a round is called at this table: "round", "spin". */
  readonly unit: string;
  /** Rounds counted (the day's results of this game). */
  readonly rounds: number;
  /**
   * Rounds per hour between the first and the last result counted (their
   * records' times); null with fewer than two results.
   */
  readonly perHour: number | null;
  readonly tallies: readonly Tally[];
  /** The latest results, newest first. */
  readonly recent: readonly RecentResult[];
}

/**
 * A game's parts of the web console (issue 35): each a browser module in its
 * folder's `web/public/`, by file name, which the console loads by the URL
 * the server gives (`/games/<plug-in id>/<file>`). A part a game names none
 * for is the console's own (the card view, the card History) or, for the
 * Scoreboard, hidden.
 */
export interface GameWebViews {
  /** Draws the Table page's view of the game (exports `tableView`). */
  readonly table?: string;
  /** Draws a day on the History page from the game's `dayHistory` units (exports `historyDay`). */
  readonly history?: string;
  /** Draws the Scoreboard page (exports `scoreboard`). */
  readonly scoreboard?: string;
}

/** The game's parts of the daemon (issue 35 item 1): a journal record as a published fold follows it. */
export interface FoldedRecord {
  readonly seq: number;
  readonly kind: string;
  readonly data: unknown;
}

/**
 * What a table keeps and publishes besides its state, under a name of its
 * own (baccarat's `roads`): a pure fold of the journal, fed the records
 * replayed at start, then each durable batch. The daemon retains it on the
 * MQTT topic `<table>/<name>` and the console's feed sends it as the frame
 * `<name>`; neither knows what it holds.
 */
export interface PublishedFold {
  /** One topic level: lower-case letters, digits and dashes. */
  readonly name: string;
  /** Follows records in journal order; true when what it publishes changed. */
  follow(records: Iterable<FoldedRecord>): boolean;
  /** What it publishes at a table playing `ruleset`; undefined where that ruleset has none. */
  payload(ruleset: string): Record<string, unknown> | undefined;
}

/** The dealer console's buttons (`hardware/console/`). */
export type ConsoleButton = 'newRound' | 'voidHand' | 'confirm';

/** What one press of a console button makes: the records the table ingests and the buzz the dealer hears. */
export interface ConsolePress {
  readonly records: TableLogRecord[];
  readonly buzz: ('ack' | 'refuse')[];
}

/** A `simulate` device of the table, as the game's simulator takes it over. */
export interface SimulatedDeviceEnd {
  readonly name: string;
  readonly kind: string;
  /** The device end of its wire (a `hardware/transports/` Transport: `games/` does no I/O). */
  readonly device: unknown;
  /** Its key, where the bench runs paired (a `hardware/keys/` DeviceKey). */
  readonly key?: unknown;
  /** The table's host public key it is paired with. */
  readonly hostKey?: unknown;
}

/** What a game's simulator is given to play a table's `simulate` devices. */
export interface SimulatedBench {
  readonly devices: readonly SimulatedDeviceEnd[];
  /** The config's `simulation` settings: the seed, the pace. */
  readonly settings: {
    readonly seed?: number | undefined;
    readonly cardIntervalMs: number;
    readonly roundIntervalMs: number;
  };
  readonly table: {
    readonly ruleset: string;
    expecting(): GameExpectation;
    snapshot(): Record<string, unknown>;
    /** A record the dealer makes (a shuffle, a round): journaled as the table's devices' are. */
    ingest(record: TableLogRecord): Promise<unknown>;
  };
  /** Follows the journal's durable batches; returns what stops following. */
  onJournaled(listener: () => void): () => void;
}

/** A game's simulator at work. */
export interface SimulatedPlayer {
  start(): void;
  stop(): Promise<void>;
}

// --- gameweb: a game's own watch beside the web console (issue 35 item 1) ---

/** A journal record as a game's web watch reads it (the journal's records have these and more). */
export type GameWatchRecord = FoldedRecord;

/** The journal as a game's web watch follows it: the newest records read back, then each durable batch. */
export interface GameWatchJournal {
  readonly lastSeq: number;
  readRange(fromSeq: number, max: number): Promise<readonly GameWatchRecord[]>;
  onDurable(listener: (records: readonly GameWatchRecord[]) => void): () => void;
}

export interface GameWebWatchOptions {
  /** The table's ruleset now (it may change between games). */
  readonly ruleset: () => string;
  /** Called when the backlog has been read: the pages' frames follow. */
  readonly onLoaded: () => void;
  readonly onError: (error: Error) => void;
}

/**
 * What a game keeps of the journal for its Table view beside the console's
 * feed (roulette's wheel watch: last spins, hot and cold numbers, bias
 * verdicts): the web console keeps the one its table's plug-in gives.
 */
export interface GameWebWatch {
  /** Starts following the journal (once; later calls do nothing). */
  attach(journal: GameWatchJournal): void;
  /** The feed's frame for the game's view; undefined while there is nothing to show. */
  payload(): Record<string, unknown> | undefined;
  /** The seq a freshly opened page's feed starts after (the last games' events), if the game says. */
  replayFrom(): number | undefined;
  stop(): void;
}

/**
 * A device kind a game's table is made of, by its profile's name
 * (`drivers/profiles/registry.ts`): data, checked against the registry (a
 * test, and the config schema that refuses a kind without a profile).
 */
export type GameDeviceKind = string;

export interface GamePlugin {
  /** The plug-in's id: `cards`, `roulette`. */
  readonly id: string;
  /** What its table is called in messages: "a card table", "a roulette table". */
  readonly tableNoun: string;
  /** Its shipped rulesets, validated (names share one namespace across plug-ins). */
  rulesetNames(): readonly string[];
  ruleset(name: string): RulesetIdentity;
  /** The device kinds it deals with. */
  readonly deviceKinds: readonly GameDeviceKind[];
  /** The devices a table of this game gets when its config names none. */
  readonly defaultDevices: Readonly<
    Record<string, { kind: GameDeviceKind; transport: 'simulate' }>
  >;
  /** Which simulator plays its `simulate` devices (`daemon/`, `diag/` and `cli/` look it up by this name). */
  readonly simulator: 'dealer' | 'croupier';
  /** Who plays its rulesets in simulation, for messages: "a wheel spins it (`tableside sim wheel`)". */
  readonly simulatorHint: string;
  /** Its `diag --simulate` scripted session (`diag/` looks it up by this name). */
  readonly diagSimulation: 'shoe' | 'wheel';
  /** The table-log inputs its session takes (`t`): a journal holding others is another game's table. */
  readonly inputTypes: readonly TableLogRecord['t'][];
  /** The requests of its table, besides `set_ruleset` and `health_check`. */
  readonly requestOps: readonly string[];
  /** When the ruleset may change, for the refusal: "between shoes: …". */
  readonly rulesetChangeRule: string;
  /** Whether a journal file starts per shoe (else daily only). */
  rotatesPerShoe(ruleset: string): boolean;
  /** The web console's view of its table: 'baccarat' (scoreboard + table), 'cards', 'roulette'. */
  webView(ruleset: string): 'baccarat' | 'cards' | 'roulette';
  /** Every browser module of its folder's `web/public/` the console serves (the views and what they import). */
  readonly webModules: readonly string[];
  /** The modules that draw its parts of the console at a table playing `ruleset`. */
  webViews(ruleset: string): GameWebViews;
  /**
   * A fresh count of a day's results into its Scoreboard (fed as `dayHistory`
   * is), or undefined where the game's Scoreboard is drawn from elsewhere
   * (baccarat's roads) or it has none.
   */
  scoreboard(ruleset: string): DayGrouping<{ board: Scoreboard }> | undefined;
  /**
   * The back colours the table expects of its next shuffle, read from its
   * session (so from the journal, after a restart too): what a shuffler's
   * driver records when the shuffler does not name them.
   */
  shufflerBacks(session: GameSession): string[];
  /** A fresh grouping of a day's journal into its units, for the History page. */
  dayHistory(): DayGrouping;
  /**
   * A round's or game's result in sentences, the same on every surface
   * (History, the Table page, the terminal view): each box's hand and what
   * it paid, a wheel's number and colour. Undefined for an event that is no
   * result of this game. Names no card the table did not show.
   */
  resultWords(event: DomainEvent): string[] | undefined;
  /**
   * One line for an event of this game's own (a wheel's spins, closing
   * time), for `tableside replay`, the terminal view and logs; undefined for
   * the events every table shares (cards, results, alarms, shoes).
   */
  eventText(event: DomainEvent): string | undefined;
  /**
   * A result's outcome as the table exposed it (what MQTT and the console
   * may show: no card a fold kept face down), for an outcome of this game;
   * undefined for any other game's.
   */
  exposedOutcome(outcome: Record<string, unknown>): Record<string, unknown> | undefined;
  // --- gameweb: a game's own watch beside the web console, where its browser modules live (issue 35 item 1) ---
  /** The watch the web console keeps for its table's view, or undefined where the feed is enough. */
  webWatch(options: GameWebWatchOptions): GameWebWatch | undefined;
  /**
   * The folder holding its `webModules`, as a `file:` URL ending in `/`
   * (its folder's `web/public/`): the console serves those files from it.
   */
  readonly webFolder: string;
  /** A new session for `ruleset`. */
  openSession(ruleset: string, options: SessionOptions): GameSession;
  /** Whether a checkpoint's session is this plug-in's. */
  ownsCheckpoint(session: unknown): boolean;
  /** A session from its checkpoint; throws (naming why) one it cannot use. */
  restoreSession(ruleset: string, session: unknown, options: SessionOptions): GameSession;
  /**
   * The shuffle record of a new shoe from the ruleset's defaults, where the
   * game has shoes; undefined otherwise.
   */
  nextShuffle?(session: GameSession): ShuffleRecord;

  // The game's parts of the daemon (issue 35 item 1: the daemon's contracts name no game).
  /** A fresh set of what its table publishes besides its state (empty where nothing). */
  publishedFolds(): readonly PublishedFold[];
  /**
   * What a press of the dealer console's button makes at its table (`long`:
   * held for the console's long press), stamped with `at`.
   */
  consolePress(
    button: ConsoleButton,
    long: boolean,
    at: { readonly ts: number; readonly src: string },
  ): ConsolePress;
  /** The step the dealer console's lights follow, from what the session expects; undefined for none. */
  consoleStep(expecting: GameExpectation): NextStep | undefined;
  /**
   * Its simulator, where the plug-in can hand it over: a game plugged in by
   * a composition root that may do I/O (a test's registry). The shipped
   * plug-ins are pure and their simulators import the registry, so theirs
   * are still found by `simulator`'s name (issue 35 item 1).
   */
  simulate?(bench: SimulatedBench): SimulatedPlayer;
  /** Its table in the terminal view of `tableside run`: the lines above the next step. */
  viewLines(snapshot: Record<string, unknown>): string[];
  // gamecli (issue 35 item 1): the game's own `tableside` verbs, a module of its folder
  // loaded when a command needs it (the plug-in stays pure).
  /** Its `hand`, `analyze` verbs, ruleset study and commands of its own (games/game-cli.ts). */
  cli(): Promise<GameCli>;
}
