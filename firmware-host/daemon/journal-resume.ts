/**
 * How the table core rebuilds the session from its journal at start: from the
 * newest checkpoint that reads back (streamed, newest files first), then the
 * inputs after it, in order. A journal folder holding another game's table is
 * refused, naming both.
 */
import type { TablesideConfig } from '../config/schema.ts';
import {
  findGameOf,
  type GamePlugin,
  type GameSession,
  gameOf,
  gameOfInput,
  rulesetChangeRefusal,
  rulesetIdentity,
} from '../games/registry.ts';
import { parseRecord } from '../games/table-session.ts';
import type { FoundCheckpoint, Journal } from '../journal/journal.ts';
import type { JournalRecord } from '../journal/record.ts';
import type { Logger } from '../log.ts';
import type { TableLogRecord } from '../table/log.ts';
import type { DaemonBus } from './bus.ts';
import { DaemonError } from './errors.ts';
import { RestartDedupe } from './restart-dedupe.ts';
import { SpinParts } from './spin-parts.ts';

/** What the resume rebuilds, from where the core stands before it. */
export interface ResumedState {
  ruleset: string;
  session: GameSession;
  /** The restart-dedupe memory of every input journaled. */
  journaledDevices: RestartDedupe;
  /** Each wheel's spin under way as journaled. */
  spinParts: SpinParts;
}

/** A new session of a ruleset, as its game's plug-in opens it. */
export function sessionFor(ruleset: string, autoRound: boolean): GameSession {
  return gameOf(ruleset).openSession(ruleset, { autoRound });
}

export class JournalResume implements ResumedState {
  ruleset: string;
  session: GameSession;
  journaledDevices: RestartDedupe;
  spinParts: SpinParts;

  constructor(
    private readonly context: { config: TablesideConfig; log: Logger; bus: DaemonBus },
    from: ResumedState,
  ) {
    this.ruleset = from.ruleset;
    this.session = from.session;
    this.journaledDevices = from.journaledDevices;
    this.spinParts = from.spinParts;
  }

  private get game(): GamePlugin {
    return gameOf(this.ruleset);
  }

  /**
   * Seeds from the newest usable checkpoint and replays the inputs after it;
   * `followReplayed` sees every replayed record. Says where it began and how
   * many inputs it replayed.
   */
  async run(
    journal: Journal,
    followReplayed: (record: JournalRecord) => void,
  ): Promise<{ checkpoint: FoundCheckpoint | undefined; replayed: number }> {
    // From the newest usable checkpoint, streamed: the journal holds every
    // card since the table was installed, and neither the start time nor the
    // daemon's memory may grow with it.
    const checkpoint = await this.seedFromCheckpoint(journal);
    const replayed = await this.replay(
      journal.read(checkpoint ? checkpoint.seq + 1 : 1),
      followReplayed,
      checkpoint === undefined,
    );
    this.refuseOtherGamesJournal();
    return { checkpoint, replayed };
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
          autoRound: this.context.config.session.autoRound,
        });
        const journaledDevices = RestartDedupe.from(data.dedupe);
        this.spinParts = SpinParts.from(data.spinParts);
        this.ruleset = name;
        this.session = session;
        this.journaledDevices = journaledDevices;
        return checkpoint;
      } catch (error) {
        const message = `journal: checkpoint at ${checkpoint.file} seq ${checkpoint.seq} not used (${(error as Error).message}); trying an older one`;
        this.context.log.warn({ file: checkpoint.file, seq: checkpoint.seq, err: error }, message);
        this.context.bus.emit('notice', 'warn', message);
      }
    }
    return undefined;
  }

  /** Rebuilds the session from the journal's inputs (and ruleset changes), in order. */
  private async replay(
    records: AsyncIterable<JournalRecord>,
    followReplayed: (record: JournalRecord) => void,
    fromTheStart: boolean,
  ): Promise<number> {
    let inputs = 0;
    for await (const record of records) {
      const fileRuleset =
        record.kind === 'meta' && record.data.type === 'file' && record.data.ruleset;
      if (
        fromTheStart &&
        inputs === 0 &&
        typeof fileRuleset === 'string' &&
        findGameOf(fileRuleset)
      ) {
        // No checkpoint (a first file, a deck-per-round or roulette table's
        // first day): the first file names the ruleset the table started with.
        this.ruleset = fileRuleset;
        this.session = sessionFor(fileRuleset, this.context.config.session.autoRound);
      } else if (record.kind === 'meta' && record.data.type === 'ruleset') {
        const name = String(record.data.ruleset);
        this.ruleset = name;
        this.session = sessionFor(name, this.context.config.session.autoRound);
      } else if (record.kind === 'meta' && record.data.type === 'spin_part') {
        this.spinParts.add(String(record.data.device), record.data.message);
      } else if (record.kind === 'input') {
        const input = parseRecord(record.data);
        this.refuseOtherGamesInput(input, record.seq);
        this.session.apply(input);
        this.journaledDevices.remember(input);
        this.spinParts.ended(input);
        inputs++;
      }
      followReplayed(record);
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
      `the journal folder ${this.context.config.journal.dir} holds a ${other?.tableNoun ?? 'table of another game'} (a ${input.t} input at seq ${seq}), not a ${game.tableNoun} of ${this.ruleset}: start this table in a new journal folder (journal.dir), or run it with that table's ruleset`,
    );
  }

  /**
   * The configured ruleset must be one the journal's table may take (its
   * game's), by the rule `set_ruleset` follows; which shoe it takes effect
   * at is the core's to say.
   */
  private refuseOtherGamesJournal(): void {
    const configured = this.context.config.ruleset;
    if (rulesetChangeRefusal(this.ruleset, configured) === undefined) return;
    const other = gameOf(configured);
    const what =
      other === this.game
        ? `${configured} (${rulesetIdentity(configured).game})`
        : `${configured} (a ${other.tableNoun})`;
    throw new DaemonError(
      'other_game',
      `the journal folder ${this.context.config.journal.dir} holds a ${this.game.tableNoun} playing ${this.ruleset} (${rulesetIdentity(this.ruleset).game}), but the config names ${what}: a table keeps its game. Start this table in a new journal folder (journal.dir), or set its ruleset to ${this.ruleset} or another of its game's`,
    );
  }
}
