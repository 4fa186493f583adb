/**
 * The scoreboard roads of the shoe in play, for the tables whose game keeps
 * them (its plug-in's `retainedTopics` names `roads`: Punto Banco). Fed the
 * replayed records before the extensions start (`followReplayed`) and each
 * durable batch after, it tells the bus when the roads change; the MQTT bridge
 * retains them and the web console draws them. It also knows where the shoe in
 * play began, for every game: where a console's backlog starts.
 */

import type {
  Extension,
  ExtensionContext,
  TableHost,
} from '../../../daemon/extensions/extension.ts';
import type { JournalRecord } from '../../../journal/record.ts';
import { gameOf } from '../../registry.ts';
import { RoadsFollower } from './roads-follower.ts';

export class RoadsExtension implements Extension {
  readonly name = 'roads';
  private readonly follower = new RoadsFollower();
  private stopFollowing: (() => void) | undefined;

  /** Follows one record replayed at start, before the bus has listeners. */
  followReplayed(record: JournalRecord): void {
    this.follower.follow([record]);
  }

  async start({ bus, table }: ExtensionContext): Promise<void> {
    const onJournaled = (records: readonly JournalRecord[]) => {
      if (this.follower.follow(records) && keepsRoads(table)) {
        bus.emit('roads', this.follower.payload());
      }
    };
    bus.on('journaled', onJournaled);
    this.stopFollowing = () => bus.off('journaled', onJournaled);
  }

  async stop(): Promise<void> {
    this.stopFollowing?.();
    this.stopFollowing = undefined;
  }

  /** The roads of the shoe in play; undefined where the table's game keeps none. */
  roads(table: Pick<TableHost, 'ruleset'>): Record<string, unknown> | undefined {
    return keepsRoads(table) ? this.follower.payload() : undefined;
  }

  /** The seq of the shoe in play's `shoe_start` (0 before the first). */
  get shoeStartSeq(): number {
    return this.follower.shoeStartSeq;
  }
}

function keepsRoads(table: Pick<TableHost, 'ruleset'>): boolean {
  return gameOf(table.ruleset).retainedTopics(table.ruleset).includes('roads');
}
