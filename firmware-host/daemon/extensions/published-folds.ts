/**
 * What the table's game publishes besides its state (its plug-in's
 * `publishedFolds`: baccarat's roads), each a pure fold of the journal under
 * a name of its own. Fed the replayed records before the extensions start
 * (`followReplayed`) and each durable batch after, it tells the bus when one
 * changes (`published`); the MQTT bridge retains it on `<table>/<name>` and
 * the web console sends it as the feed's `<name>` frame. It also knows where
 * the shoe in play began, for every game: where a console's backlog starts.
 */
import type { GamePlugin, PublishedFold } from '../../games/game.ts';
import { gameOf } from '../../games/registry.ts';
import type { JournalRecord } from '../../journal/record.ts';
import type { DomainEvent } from '../../table/events.ts';
import type { Extension, ExtensionContext, TableHost } from './extension.ts';

export class PublishedFoldsExtension implements Extension {
  readonly name = 'published-folds';
  private readonly folds: readonly PublishedFold[];
  private shoeStart = 0;
  private stopFollowing: (() => void) | undefined;

  /** `game`: the plug-in of the ruleset the table starts with (the config's). */
  constructor(private readonly game: GamePlugin) {
    this.folds = game.publishedFolds();
  }

  /** Follows one record replayed at start, before the bus has listeners. */
  followReplayed(record: JournalRecord): void {
    this.follow([record]);
  }

  async start({ bus, table }: ExtensionContext): Promise<void> {
    const onJournaled = (records: readonly JournalRecord[]) => {
      for (const fold of this.follow(records)) {
        const payload = this.payloadOf(fold, table);
        if (payload) bus.emit('published', fold.name, payload);
      }
    };
    bus.on('journaled', onJournaled);
    this.stopFollowing = () => bus.off('journaled', onJournaled);
  }

  async stop(): Promise<void> {
    this.stopFollowing?.();
    this.stopFollowing = undefined;
  }

  /** What the table publishes now besides its state, by name; empty where its game publishes nothing. */
  published(table: Pick<TableHost, 'ruleset'>): Record<string, Record<string, unknown>> {
    const published: Record<string, Record<string, unknown>> = {};
    for (const fold of this.folds) {
      const payload = this.payloadOf(fold, table);
      if (payload) published[fold.name] = payload;
    }
    return published;
  }

  /** The seq of the shoe in play's `shoe_start` (0 before the first). */
  get shoeStartSeq(): number {
    return this.shoeStart;
  }

  /** The folds that changed. */
  private follow(records: readonly JournalRecord[]): PublishedFold[] {
    for (const record of records) {
      if (record.kind === 'event' && (record.data as DomainEvent).type === 'shoe_start') {
        this.shoeStart = record.seq;
      }
    }
    return this.folds.filter((fold) => fold.follow(records));
  }

  /** A fold of the game the table started with publishes only while the table still plays that game. */
  private payloadOf(
    fold: PublishedFold,
    table: Pick<TableHost, 'ruleset'>,
  ): Record<string, unknown> | undefined {
    return gameOf(table.ruleset) === this.game ? fold.payload(table.ruleset) : undefined;
  }
}
